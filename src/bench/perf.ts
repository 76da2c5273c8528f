import { MemoryEngine } from "../core/engine.js";
import type { Embedder, Reranker } from "../core/ports.js";
import { SteppedClock } from "../eval/runner.js";
import type { LanceStore } from "../stores/lancedb/lanceStore.js";
import { syntheticMemory, syntheticMixedQuery } from "./synthetic.js";

export interface PerfRow {
  n: number;
  write_per_s: number;
  /** Latency of one write through the full write path, one at a time. */
  write_p50_ms: number;
  write_p95_ms: number;
  /** Turns through the whole judged write path (guard, extraction, dedup/supersede, L0), sent concurrently so they batch. */
  ingest_per_s: number;
  /** The embedding model alone on the same texts, in batches, in the same run: the ceiling of the two above. */
  bare_embed_per_s: number;
  recall_p50_ms: number;
  recall_p95_ms: number;
  disk_bytes: number;
  peak_rss_bytes: number;
}

export interface PerfOptions {
  ns: number[];
  embedder: Embedder;
  /** The second opinion recall uses by default (absent: recall without one, as a store without the second model runs). */
  reranker?: Reranker | null;
  newStore: (n: number) => Promise<LanceStore>;
  disposeStore?: (store: LanceStore) => Promise<void>;
  /** Single writes through the full write path (dedup, supersede) timed for write_per_s. */
  writeSample?: number;
  /** Turns ingested for ingest_per_s, in windows of `ingestWindow` concurrent calls. */
  ingestSample?: number;
  ingestWindow?: number;
  queries?: number;
  onProgress?: (message: string) => void;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

/**
 * For each size: fill a fresh LanceDB store (bulk import of synthetic memories), time single writes
 * through the full write path, then time warm recalls (query embedding included).
 */
export async function runPerf(options: PerfOptions): Promise<PerfRow[]> {
  const rows: PerfRow[] = [];
  for (const n of options.ns) {
    const clock = new SteppedClock(Date.UTC(2026, 0, 1));
    const store = await options.newStore(n);
    const engine = new MemoryEngine({ store, embedder: options.embedder, clock, reranker: options.reranker ?? null }, { defaultScope: "project:bench", actor: "bench" });
    await engine.open();
    try {
      const sample = Math.min(n, options.writeSample ?? 300);
      const bulk = n - sample;
      for (let i = 0; i < bulk; i += 5000) {
        const batch = [];
        for (let j = i; j < Math.min(bulk, i + 5000); j++) batch.push(syntheticMemory(j));
        await engine.importMemories(batch);
        options.onProgress?.(`n=${n}: imported ${Math.min(bulk, i + 5000)}`);
      }
      await store.optimize();
      const t0 = performance.now();
      const writeTimes: number[] = [];
      for (let i = bulk; i < n; i++) {
        clock.set(clock.now() + 60_000);
        const t = performance.now();
        await engine.write(syntheticMemory(i));
        writeTimes.push(performance.now() - t);
      }
      const writePerS = sample / ((performance.now() - t0) / 1000);
      writeTimes.sort((a, b) => a - b);
      const ingestPerS = await timeIngest(engine, clock, n, options.ingestSample ?? 256, options.ingestWindow ?? 32);
      const bareEmbedPerS = await timeBareEmbed(options.embedder, n, options.ingestSample ?? 256);
      await store.optimize();
      // Recall is timed as a long-running owner answers it: the second opinion has read the store (MemoryEngine.readAhead).
      await engine.readAhead();
      const queries = options.queries ?? 200;
      for (let i = 0; i < 20; i++) await engine.recall({ query: syntheticMixedQuery(i), k: 10 });
      const times: number[] = [];
      for (let i = 0; i < queries; i++) {
        const t = performance.now();
        await engine.recall({ query: syntheticMixedQuery(i + 7), k: 10 });
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      rows.push({
        n,
        write_per_s: Math.round(writePerS * 10) / 10,
        write_p50_ms: Math.round(percentile(writeTimes, 0.5) * 10) / 10,
        write_p95_ms: Math.round(percentile(writeTimes, 0.95) * 10) / 10,
        ingest_per_s: Math.round(ingestPerS * 10) / 10,
        bare_embed_per_s: Math.round(bareEmbedPerS * 10) / 10,
        recall_p50_ms: Math.round(percentile(times, 0.5) * 10) / 10,
        recall_p95_ms: Math.round(percentile(times, 0.95) * 10) / 10,
        disk_bytes: await store.diskBytes(),
        peak_rss_bytes: process.resourceUsage().maxRSS * 1024,
      });
      options.onProgress?.(`n=${n}: done`);
    } finally {
      await engine.close();
      await options.disposeStore?.(store);
    }
  }
  return rows;
}

/** Synthetic statements said as turns of one session, into their own scope of the same store. */
function syntheticTurn(i: number): string {
  return syntheticMemory(i).content;
}

/** Turns per second through engine.ingest, `window` calls in flight at a time (a client replaying a conversation). */
async function timeIngest(engine: MemoryEngine, clock: SteppedClock, n: number, count: number, window: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < count; i += window) {
    const calls: Array<Promise<unknown>> = [];
    for (let j = i; j < Math.min(count, i + window); j++) {
      clock.set(clock.now() + 30_000);
      calls.push(engine.ingest({ user: syntheticTurn(n + 10_000 + j), scope: "project:bench-ingest", sessionId: "bench" }));
    }
    await Promise.all(calls);
  }
  return count / ((performance.now() - t0) / 1000);
}

/** Texts per second through the embedding model alone, in batches of 32, on texts like the ingested ones. */
async function timeBareEmbed(embedder: Embedder, n: number, count: number): Promise<number> {
  const texts = Array.from({ length: count }, (_, j) => syntheticTurn(n + 20_000 + j));
  const t0 = performance.now();
  for (let i = 0; i < texts.length; i += 32) await embedder.embed(texts.slice(i, i + 32), "passage");
  return count / ((performance.now() - t0) / 1000);
}
