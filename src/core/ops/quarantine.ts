import type { EngineContext } from "../context.js";
import { HindsightError } from "../errors.js";
import { forgetMemories, type ForgetResult } from "../forget/forget.js";
import type { MemoryRecord } from "../model/memory.js";
import { guardFields, type FieldsVerdict } from "../guard/index.js";
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

/** A released memory and what the guard says about it now (rules change; a person may overrule them). */
export interface ReleaseResult {
  memory: MemoryRecord;
  guard: Pick<FieldsVerdict, "kind" | "reason" | "field">;
}

/**
 * A person decided the memory is fine: it becomes active (and recallable) as it is, and the result
 * shows the guard's current verdict so the person sees what they overrule. An injection verdict is
 * theirs to overrule; a secret is not (it would be recalled and exported): GUARD_REFUSED, nothing changes.
 */
export async function releaseQuarantined(ctx: EngineContext, id: string): Promise<ReleaseResult> {
  const m = await loadQuarantined(ctx, id);
  const guard = await guardFields({ content: m.content, subject: m.subject, tags: m.tags, sourceRefs: m.sourceRefs, context: m.context });
  if (guard.kind === "secret") {
    await audit(ctx, "refuse", m.scope, [m.id], [], `release ${guard.reason}`);
    throw new HindsightError("GUARD_REFUSED", `release ${guard.reason}; the memory stays quarantined`, { field: "id" });
  }
  const next: MemoryRecord = { ...m, status: "active", statusReason: `released by ${ctx.config.actor}`, updatedAt: ctx.clock.now() };
  await ctx.store.updateMemories([next]);
  await audit(ctx, "quarantine", next.scope, [next.id], [], `released from quarantine by ${ctx.config.actor}${guard.kind === "injection" ? " over the guard's verdict" : ""}`);
  return { memory: next, guard };
}

/** Deletes a quarantined memory and deletes or redacts the L0 turns it came from, exactly as forget does (audited as forget). */
export async function deleteQuarantined(ctx: EngineContext, id: string): Promise<ForgetResult> {
  const m = await loadQuarantined(ctx, id);
  return forgetMemories(ctx, { id: m.id }, m.scope);
}
