import type { EngineContext } from "../context.js";
import { HindsightError } from "../errors.js";
import { forgetMemories, type ForgetResult } from "../forget/forget.js";
import type { MemoryRecord } from "../model/memory.js";
import { audit } from "../write/writer.js";

/** Memories the guard quarantined (never recalled): statusReason says why. */
export async function listQuarantined(ctx: EngineContext, scope: string): Promise<MemoryRecord[]> {
  const found = await ctx.store.listMemories({ scope, statuses: ["quarantined"] });
  return found.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1));
}

async function loadQuarantined(ctx: EngineContext, id: string): Promise<MemoryRecord> {
  const [m] = await ctx.store.getMemories([id]);
  if (!m) throw new HindsightError("NOT_FOUND", `no memory with id ${id}`, { field: "id" });
  if (m.status !== "quarantined") throw new HindsightError("INVALID_INPUT", `id: memory ${id} is not quarantined (status ${m.status})`, { field: "id" });
  return m;
}

/**
 * A person decided the memory is fine: it becomes active (and recallable) as it is. The guard is
 * not run again; statusReason records who released it.
 */
export async function releaseQuarantined(ctx: EngineContext, id: string): Promise<MemoryRecord> {
  const m = await loadQuarantined(ctx, id);
  const next: MemoryRecord = { ...m, status: "active", statusReason: `released by ${ctx.config.actor}`, updatedAt: ctx.clock.now() };
  await ctx.store.updateMemories([next]);
  await audit(ctx, "quarantine", next.scope, [next.id], [], `released from quarantine by ${ctx.config.actor}`);
  return next;
}

/** Deletes a quarantined memory and deletes or redacts the L0 turns it came from, exactly as forget does (audited as forget). */
export async function deleteQuarantined(ctx: EngineContext, id: string): Promise<ForgetResult> {
  const m = await loadQuarantined(ctx, id);
  return forgetMemories(ctx, { id: m.id }, m.scope);
}
