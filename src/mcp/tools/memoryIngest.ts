import { z } from "zod";
import { WRITE_ACTIONS } from "../../core/model/writeActions.js";
import { LIMITS, memoryTypeOut, scopeArg, sessionIdArg } from "./fields.js";
import { defineTool } from "./types.js";

export const memoryIngestTool = defineTool({
  name: "memory_ingest",
  title: "Log a conversation turn",
  description:
    "Hand the engine one raw conversation turn (what the user said, optionally your reply). It is logged as said (secrets redacted, instruction injections withheld), " +
    "and extraction decides what, if anything, of the user's words becomes memory: preferences, constraints, facts, task state, events. Greetings, thanks, " +
    "questions and momentary remarks are dropped; statements about other people are kept with that person as subject (third-party:<who>) at lower confidence, " +
    "hedged ones lower still. Your reply is logged, and a question in it is the context of the user's next turn in the session; nothing is extracted from it. " +
    "Use it when the user says something that might matter later and you do not want to distill it yourself; use memory_write for a sentence you already distilled.",
  inputSchema: {
    user: z.string().min(1).max(LIMITS.turnChars).describe(`What the user said, verbatim (1-${LIMITS.turnChars} characters).`),
    assistant: z.string().max(LIMITS.turnChars).optional().describe("The assistant's reply to it, if any."),
    session_id: sessionIdArg().optional(),
    scope: scopeArg().optional(),
  },
  outputSchema: {
    turnId: z.string().describe("Id of the raw (L0) turn."),
    extractor: z.enum(["rules", "llm"]).describe("Which extractor decided."),
    fallbackReason: z.string().nullable().describe("Why a configured LLM was not used; null when it was, or when none is configured."),
    redacted: z.boolean().describe("True when the guard redacted part of the turn before it was logged."),
    items: z
      .array(
        z.object({
          id: z.string().nullable(),
          action: z.enum(WRITE_ACTIONS),
          reason: z.string(),
          flagged: z.boolean(),
          type: memoryTypeOut.optional(),
          subject: z.string().optional(),
          content: z.string().optional(),
          supersedes: z.array(z.string()).optional(),
        }),
      )
      .describe("What extraction decided, one entry per candidate memory."),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(engine, args) {
    const r = await engine.ingest({ user: args.user, assistant: args.assistant, sessionId: args.session_id, scope: args.scope });
    const items = r.results.map((w) => ({
      id: w.id,
      action: w.action,
      reason: w.reason,
      flagged: w.flagged,
      ...(w.memory ? { type: w.memory.type, subject: w.memory.subject, content: w.memory.content } : {}),
      ...(w.supersedes.length > 0 ? { supersedes: w.supersedes } : {}),
    }));
    const lines = [`Logged turn ${r.turnId} (extractor: ${r.extractor}${r.fallbackReason ? `, LLM not used: ${r.fallbackReason}` : ""}${r.redacted ? ", secrets redacted" : ""}).`];
    if (items.length === 0) lines.push("Nothing worth remembering was extracted.");
    for (const i of items) lines.push(`- ${i.action}${i.id ? ` ${i.id}` : ""}${i.type ? ` (${i.type})` : ""}${i.content ? ` "${i.content}"` : ""}: ${i.reason}`);
    return {
      structuredContent: { turnId: r.turnId, extractor: r.extractor, fallbackReason: r.fallbackReason, redacted: r.redacted, items },
      content: [{ type: "text", text: lines.join("\n") }],
    };
  },
});
