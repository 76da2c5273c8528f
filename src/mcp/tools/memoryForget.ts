import { z } from "zod";
import { HindsightError } from "../../core/errors.js";
import { LIMITS, scopeArg } from "./fields.js";
import { defineTool } from "./types.js";

export const memoryForgetTool = defineTool({
  name: "memory_forget",
  title: "Forget memories",
  description:
    "Permanently forget memories, including the raw conversation lines that hold them; an audit entry records that something was forgotten, not what. " +
    "Use it only when the user asks to forget something, or a memory is plainly wrong and should not merely be superseded. " +
    "Give exactly what to forget: an id (the x memory_recall shows as \"[id x]\", or the id memory_write returned), a query (only strong matches go), " +
    "or match words that must all appear (raw conversation turns holding them go too).",
  inputSchema: {
    id: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('Id of the memory to forget, exactly as memory_recall shows it (the x in "[id x]") or as memory_write returned it.'),
    query: z.string().min(1).max(LIMITS.queryChars).optional().describe(`Forget memories that strongly match this description (1-${LIMITS.queryChars} characters).`),
    match: z
      .array(z.string().min(1).max(200).describe("A word or phrase."))
      .min(1)
      .max(LIMITS.matchTerms)
      .optional()
      .describe(`Forget memories and raw turns whose text contains all of these words or phrases (1-${LIMITS.matchTerms} items, case-insensitive).`),
    scope: scopeArg().optional(),
  },
  outputSchema: {
    forgotten: z.number().int().describe("How many memories were forgotten."),
    ids: z.array(z.string()).describe("Their ids."),
    turns: z.number().int().describe("Raw conversation turns deleted or redacted because they held what was forgotten."),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(engine, args) {
    if (args.id === undefined && args.query === undefined && args.match === undefined) {
      throw new HindsightError("INVALID_INPUT", "forget: give one of id, query or match", { field: "query" });
    }
    const r = await engine.forget({ id: args.id, query: args.query, match: args.match, scope: args.scope });
    const text = r.forgotten === 0 ? "Nothing matched; nothing was forgotten." : `Forgot ${r.forgotten} ${r.forgotten === 1 ? "memory" : "memories"}: ${r.ids.join(", ")}.`;
    return { structuredContent: { forgotten: r.forgotten, ids: r.ids, turns: r.turns }, content: [{ type: "text", text }] };
  },
});
