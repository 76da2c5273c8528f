import type { EngineContext } from "../context.js";
import type { MemoryRecord } from "../model/memory.js";

/** Two active memories the engine could not decide between (see MemoryRecord.conflictsWith). */
export interface ConflictPair {
  a: MemoryRecord;
  b: MemoryRecord;
}

/** Every unresolved contradiction in a scope: pairs of active, still valid memories linked by conflictsWith, each pair once. */
export async function listConflicts(ctx: EngineContext, scope: string): Promise<ConflictPair[]> {
  const active = await ctx.store.listMemories({ scope, statuses: ["active"], validAt: ctx.clock.now() });
  const byId = new Map(active.map((m) => [m.id, m]));
  const seen = new Set<string>();
  const pairs: ConflictPair[] = [];
  for (const m of active) {
    for (const otherId of m.conflictsWith) {
      const other = byId.get(otherId);
      if (!other || other.id === m.id) continue;
      const [a, b] = m.id < other.id ? [m, other] : [other, m];
      const key = `${a.id}\u0000${b.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      pairs.push({ a, b });
    }
  }
  return pairs;
}
