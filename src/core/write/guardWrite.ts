import { guardFields, type FieldsVerdict } from "../guard/index.js";
import type { WriteRequest } from "./writer.js";

/**
 * The guard's verdict on everything a write would store and return: content, subject, tags, source
 * refs and the question it answers. A request extracted from a turn the guard quarantined stays
 * quarantined even when its own sentence looks harmless: the turn is the unit an attacker wrote.
 */
export async function guardWrite(req: WriteRequest): Promise<FieldsVerdict> {
  const verdict = await guardFields({ content: req.content, subject: req.subject, tags: req.tags, sourceRefs: req.sourceRefs, context: req.context });
  if (verdict.kind === "ok" && req.quarantineReason) return { kind: "injection", reason: req.quarantineReason, field: "content" };
  return verdict;
}
