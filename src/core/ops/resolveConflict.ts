import type { EngineContext } from "../context.js";
import { HindsightError } from "../errors.js";
import type { MemoryRecord } from "../model/memory.js";
import { audit } from "../write/writer.js";

/** Which side of a reported conflict stands: one of the two ids, or both (they do not contradict after all). */
export type ConflictKeep = "a" | "b" | "both";

export interface ResolveConflictResult {
  kept: MemoryRecord[];
  superseded: MemoryRecord[];
}

/**
 * Settles a conflict a person decided. Keeping one side supersedes the other (it stays in the store,
 * with its history, and is never recalled again); keeping both unlinks them so neither is reported
 * as a conflict again. Refused unless the two are active and linked.
 */
export async function resolveConflict(ctx: EngineContext, aId: string, bId: string, keep: ConflictKeep): Promise<ResolveConflictResult> {
  if (aId === bId) throw new HindsightError("INVALID_INPUT", "resolveConflict: b must differ from a", { field: "b" });
  const found = await ctx.store.getMemories([aId, bId]);
  const a = found.find((m) => m.id === aId);
  const b = found.find((m) => m.id === bId);
  if (!a) throw new HindsightError("NOT_FOUND", `no memory with id ${aId}`, { field: "a" });
  if (!b) throw new HindsightError("NOT_FOUND", `no memory with id ${bId}`, { field: "b" });
  if (!a.conflictsWith.includes(b.id) && !b.conflictsWith.includes(a.id)) {
    throw new HindsightError("INVALID_INPUT", `resolveConflict: ${aId} and ${bId} are not in conflict`, { field: "b" });
  }
  const now = ctx.clock.now();
  const unlink = (m: MemoryRecord, other: MemoryRecord): MemoryRecord => ({
    ...m,
    conflictsWith: m.conflictsWith.filter((id) => id !== other.id),
    updatedAt: now,
  });
  let nextA = unlink(a, b);
  let nextB = unlink(b, a);
  if (keep === "a") nextB = { ...nextB, status: "superseded", supersededBy: a.id, statusReason: "conflict resolved: the other memory was kept" };
  if (keep === "b") nextA = { ...nextA, status: "superseded", supersededBy: b.id, statusReason: "conflict resolved: the other memory was kept" };
  await ctx.store.updateMemories([nextA, nextB]);
  await audit(ctx, "edit", a.scope, [a.id, b.id], [], `conflict resolved: kept ${keep === "both" ? "both" : keep === "a" ? a.id : b.id}`);
  const all = [nextA, nextB];
  return { kept: all.filter((m) => m.status === "active"), superseded: all.filter((m) => m.status === "superseded") };
}
