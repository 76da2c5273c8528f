import { z } from "zod";
import type { EngineContext } from "../context.js";
import { embedOne } from "../context.js";
import { HindsightError } from "../errors.js";
import { wireField } from "../wire.js";
import { IsoTimeSchema, LIMITS } from "../model/inputs.js";
import { MemoryTypeSchema, searchText, type Layer, type MemoryRecord, type MemoryType } from "../model/memory.js";
import { parseInput } from "../validate.js";
import { guardText } from "../guard/index.js";
import { audit } from "../write/writer.js";

/** What an edit may change; every other field is the engine's to keep. */
export const EditPatchSchema = z.object({
  content: z
    .string()
    .transform((s) => s.trim())
    .pipe(z.string().min(1, "must not be empty").max(LIMITS.contentChars, `must be at most ${LIMITS.contentChars} characters`))
    .optional(),
  type: MemoryTypeSchema.optional(),
  confidence: z.number().min(0, "must be between 0 and 1").max(1, "must be between 0 and 1").optional(),
  /** ISO date or date-time; null clears it (valid until said otherwise). */
  validUntil: IsoTimeSchema.nullable().optional(),
  pinned: z.boolean().optional(),
});
export type EditPatch = z.input<typeof EditPatchSchema>;
export const EDIT_FIELDS = ["content", "type", "confidence", "validUntil", "pinned"] as const;

export interface EditResult {
  memory: MemoryRecord;
  /** The fields that changed, as the wire names them (names only: the audit log never holds content). */
  changed: string[];
  /** True when the content changed and the vector was rebuilt. */
  reembedded: boolean;
  /** True when the guard quarantined the new content. */
  flagged: boolean;
  reason: string;
}

/** Validates a patch: unknown fields and bad values are INVALID_INPUT naming the field; an empty patch is refused. */
export function parseEditPatch(patch: unknown): z.output<typeof EditPatchSchema> {
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) {
    throw new HindsightError("INVALID_INPUT", "edit: the patch must be an object", { field: "patch" });
  }
  for (const key of Object.keys(patch)) {
    if (!(EDIT_FIELDS as readonly string[]).includes(key)) {
      throw new HindsightError("INVALID_INPUT", `edit: ${wireField(key)}: cannot be edited (editable: ${EDIT_FIELDS.map(wireField).join(", ")})`, { field: wireField(key) });
    }
  }
  const p = parseInput(EditPatchSchema, patch, "edit");
  if (Object.values(p).every((v) => v === undefined)) {
    throw new HindsightError("INVALID_INPUT", `edit: give at least one of ${EDIT_FIELDS.map(wireField).join(", ")}`, { field: "patch" });
  }
  return p;
}

function layerFor(type: MemoryType, confidence: number, l3Min: number): Layer {
  if (type === "task_state") return "L1";
  if (type === "event" || confidence < l3Min) return "L2";
  return "L3";
}

async function load(ctx: EngineContext, id: string): Promise<MemoryRecord> {
  const [m] = await ctx.store.getMemories([id]);
  if (!m) throw new HindsightError("NOT_FOUND", `no memory with id ${id}`, { field: "id" });
  return m;
}

/**
 * Changes a memory in place. New content goes through the guard again (a secret is refused and
 * nothing changes; an injection is stored quarantined) and is re-embedded; a new type or
 * confidence re-derives the layer.
 */
export async function editMemory(ctx: EngineContext, id: string, patch: z.output<typeof EditPatchSchema>): Promise<EditResult> {
  const existing = await load(ctx, id);
  const now = ctx.clock.now();
  const next: MemoryRecord = { ...existing };
  const changed: string[] = [];
  let flagged = false;
  let reason = "edited";

  const contentChanged = patch.content !== undefined && patch.content !== existing.content;
  if (contentChanged && patch.content !== undefined) {
    const verdict = await guardText(patch.content);
    if (verdict.kind === "secret") {
      await audit(ctx, "refuse", existing.scope, [existing.id], [], `edit ${verdict.reason}`);
      throw new HindsightError("GUARD_REFUSED", `edit ${verdict.reason}; the memory is unchanged`, { field: "content" });
    }
    next.content = patch.content;
    changed.push("content");
    if (verdict.kind === "injection") {
      next.status = "quarantined";
      next.statusReason = verdict.reason;
      flagged = true;
      reason = verdict.reason;
    }
  }
  if (patch.type !== undefined && patch.type !== existing.type) {
    next.type = patch.type;
    changed.push("type");
  }
  if (patch.confidence !== undefined && patch.confidence !== existing.confidence) {
    next.confidence = patch.confidence;
    changed.push("confidence");
  }
  if (patch.validUntil !== undefined && patch.validUntil !== existing.validUntil) {
    next.validUntil = patch.validUntil;
    changed.push("valid_until");
  }
  if (patch.pinned !== undefined && patch.pinned !== existing.pinned) {
    next.pinned = patch.pinned;
    changed.push("pinned");
  }
  if (changed.includes("type") || changed.includes("confidence")) {
    next.layer = layerFor(next.type, next.confidence, ctx.config.write.l3MinConfidence);
  }
  if (changed.length === 0) return { memory: existing, changed, reembedded: false, flagged: false, reason: "nothing changed" };

  next.updatedAt = now;
  if (contentChanged) {
    next.embeddingModel = ctx.model.id;
    const vector = await embedOne(ctx, searchText(next));
    await ctx.store.putMemories([{ record: next, vector }]);
  } else {
    await ctx.store.updateMemories([next]);
  }
  if (flagged) await audit(ctx, "quarantine", next.scope, [next.id], [], `edit ${reason}`);
  else await audit(ctx, "edit", next.scope, [next.id], [], `edited ${changed.join(", ")}`);
  return { memory: next, changed, reembedded: contentChanged, flagged, reason };
}

/** Pins or unpins a memory: a pinned memory does not decay and is never compressed. */
export async function pinMemory(ctx: EngineContext, id: string, pinned: boolean): Promise<MemoryRecord> {
  const existing = await load(ctx, id);
  if (existing.pinned === pinned) return existing;
  const next: MemoryRecord = { ...existing, pinned, updatedAt: ctx.clock.now() };
  await ctx.store.updateMemories([next]);
  await audit(ctx, "edit", next.scope, [next.id], [], pinned ? "pinned" : "unpinned");
  return next;
}
