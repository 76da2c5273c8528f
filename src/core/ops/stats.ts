import type { EngineContext } from "../context.js";
import { LAYERS, MEMORY_TYPES, STATUSES, type Layer, type MemoryStatus, type MemoryType } from "../model/memory.js";
import type { RecallHourSummary, RecallStats } from "./recallStats.js";

export interface RecallLatency {
  count: number;
  sumMs: number;
  p50Ms: number | null;
  p95Ms: number | null;
  /** Recalls that returned at least one memory. */
  hits: number;
  /** hits / count (0..1, rounded to 4 places); null before the first recall. */
  hitRate: number | null;
  /** When the store began counting (epoch ms). */
  since: number;
  /** Hours with recalls, oldest first (at most 240): count, hits, p50 / p95 of each. */
  history: RecallHourSummary[];
}

export interface EngineStats {
  scope: string;
  /** Every memory of the scope, whatever its status. */
  total: number;
  /** Active memories per layer and per type (what recall can return). */
  byLayer: Record<Layer, number>;
  byType: Record<MemoryType, number>;
  /** Every memory per status. */
  byStatus: Record<MemoryStatus, number>;
  /** Recalls served from this store (all scopes), kept with it across restarts. */
  recall: RecallLatency;
  /** With a shared recall cache (team replicas): this process's answers from it since it started. */
  recallCache?: { hits: number; misses: number; hitRate: number | null; savedMs: number };
}

function zeros<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
}

export async function scopeStats(ctx: EngineContext, scope: string, latency: RecallStats): Promise<EngineStats> {
  const count = (filter: Parameters<typeof ctx.store.countMemories>[0]) => ctx.store.countMemories({ scope, ...filter });
  const byLayer = zeros(LAYERS);
  const byType = zeros(MEMORY_TYPES);
  const byStatus = zeros(STATUSES);
  const [total, layers, types, statuses] = await Promise.all([
    count({}),
    Promise.all(LAYERS.map((layer) => count({ statuses: ["active"], layers: [layer] }))),
    Promise.all(MEMORY_TYPES.map((type) => count({ statuses: ["active"], types: [type] }))),
    Promise.all(STATUSES.map((status) => count({ statuses: [status] }))),
  ]);
  LAYERS.forEach((l, i) => (byLayer[l] = layers[i] ?? 0));
  MEMORY_TYPES.forEach((t, i) => (byType[t] = types[i] ?? 0));
  STATUSES.forEach((s, i) => (byStatus[s] = statuses[i] ?? 0));
  const round = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);
  return {
    scope,
    total,
    byLayer,
    byType,
    byStatus,
    recall: {
      count: latency.count,
      sumMs: round(latency.sumMs) ?? 0,
      p50Ms: round(latency.quantile(0.5)),
      p95Ms: round(latency.quantile(0.95)),
      hits: latency.hits,
      hitRate: latency.count === 0 ? null : Math.round((latency.hits / latency.count) * 10000) / 10000,
      since: latency.since,
      history: latency.history(),
    },
  };
}
