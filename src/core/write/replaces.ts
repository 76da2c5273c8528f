import type { EngineContext } from "../context.js";
import { HindsightError } from "../errors.js";
import type { MemoryRecord } from "../model/memory.js";

/** The statusReason of a memory a caller named in `replaces`. */
export const REPLACED_BY_CALLER = "replaced by the caller";

/**
 * The memories a write names in `replaces`, checked before anything is stored: each must be an
 * active memory of the write's own scope. An unknown id and another scope's id get the same
 * message, so a caller cannot learn which ids exist in scopes it did not name.
 */
export async function replaceTargets(ctx: { store: Pick<EngineContext["store"], "getMemories"> }, scope: string, ids: readonly string[] | undefined): Promise<MemoryRecord[]> {
  const wanted = [...new Set(ids ?? [])];
  if (wanted.length === 0) return [];
  const byId = new Map((await ctx.store.getMemories(wanted)).map((m) => [m.id, m]));
  return wanted.map((id) => {
    const m = byId.get(id);
    if (!m || m.scope !== scope) {
      throw new HindsightError("INVALID_INPUT", `replaces: no memory with id ${id} in scope ${scope}`, { field: "replaces", details: { id } });
    }
    if (m.status !== "active") {
      const newer = m.supersededBy ? ` (superseded by ${m.supersededBy})` : "";
      throw new HindsightError("INVALID_INPUT", `replaces: memory ${id} is ${m.status}, not active${newer}`, { field: "replaces", details: { id, status: m.status } });
    }
    return m;
  });
}

/** The named memories as superseded by the new one, the way a rule supersede leaves them (history kept, never recalled). */
export function supersededByCaller(targets: MemoryRecord[], newId: string, now: number): MemoryRecord[] {
  return targets.map((m) => ({ ...m, status: "superseded", supersededBy: newId, statusReason: REPLACED_BY_CALLER, updatedAt: now }));
}
