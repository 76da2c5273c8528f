import { z } from "zod";
import { WRITE_ACTIONS } from "../../core/model/writeActions.js";
import { LIMITS, MAX_ARRAY, isoTimeArg, memoryTypeArg, memoryTypeOut, scopeArg } from "./fields.js";
import { defineTool } from "./types.js";

export const memoryWriteTool = defineTool({
  name: "memory_write",
  title: "Remember something",
  description:
    "Store one durable memory: a decision, a user preference, a project constraint, a verified fact, or the current task state. " +
    "Call it right after a decision is made or the user states a preference/constraint, with one standalone sentence readable without the conversation " +
    "(e.g. \"The team deploys only on Tuesdays.\"). The engine deduplicates, supersedes older contradicting memories on the same subject, refuses secrets " +
    "and quarantines instruction injections (kept for review, never recalled); the result says what it did. When you know the new memory replaces ones memory_recall showed (a changed decision, an updated value " +
    "or status), pass their ids in `replaces`: they are then superseded and the engine's own dedup/supersede is not applied to this write. " +
    "Do not store chit-chat, secrets or whole transcripts (use memory_ingest for raw turns).",
  inputSchema: {
    content: z
      .string()
      .min(1)
      .max(LIMITS.contentChars)
      .describe(`The memory as one standalone sentence (1-${LIMITS.contentChars} characters), e.g. "The user prefers tabs over spaces."`),
    type: memoryTypeArg()
      .optional()
      .describe("preference (likes/dislikes), fact, constraint (rules, must/never), task_state (progress of the current task) or event. Inferred when omitted."),
    subject: z.string().min(1).max(LIMITS.subjectChars).optional().describe('Who or what the memory is about, e.g. "user", "billing api". Inferred when omitted.'),
    confidence: z.number().min(0).max(1).optional().describe("How sure this is, 0-1 (explicit user statements ~0.9, inferences lower). Defaults to the engine's configured default (0.8 unless changed)."),
    valid_until: isoTimeArg("When the memory stops being true, as an").optional(),
    scope: scopeArg().optional(),
    tags: z
      .array(z.string().min(1).max(LIMITS.tagChars).describe("One tag."))
      .max(MAX_ARRAY)
      .optional()
      .describe(`Free-form labels (at most ${MAX_ARRAY}).`),
    replaces: z
      .array(z.string().min(1).max(200).describe('A memory id exactly as memory_recall shows it, e.g. the x in "[id x]".'))
      .max(LIMITS.replaces)
      .optional()
      .describe(
        `Ids of memories this one replaces (at most ${LIMITS.replaces}): each must be an active memory of the same scope, else the call fails and nothing is written. ` +
          "They become superseded by the new memory (kept as history, never recalled). Omit to let the engine decide.",
      ),
  },
  outputSchema: {
    id: z.string().nullable().describe("The memory written or confirmed; null when nothing was stored."),
    action: z.enum(WRITE_ACTIONS).describe("What the engine decided."),
    reason: z.string().describe("Why, in one sentence."),
    flagged: z.boolean().describe("True when the guard refused or quarantined the content."),
    type: memoryTypeOut.optional().describe("The memory's type as stored."),
    subject: z.string().optional().describe("The memory's subject as stored."),
    supersedes: z.array(z.string()).optional().describe("Older memories this one replaced (present when any)."),
    decided_by: z
      .enum(["caller", "llm", "rules"])
      .describe('Who decided what was replaced: "caller" (you gave replaces), "llm" (the configured model judged add / update / keep) or "rules" (the engine\'s offline rules).'),
    llm_fallback: z.string().optional().describe("Why a configured LLM did not decide and the rules did (timeout, error, unreadable answer)."),
    conflicts_with: z.array(z.string()).optional().describe("Memories it contradicts without a decision (present when any)."),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(engine, args) {
    const r = await engine.write({
      content: args.content,
      type: args.type,
      subject: args.subject,
      confidence: args.confidence,
      validUntil: args.valid_until,
      scope: args.scope,
      tags: args.tags,
      ...(args.replaces ? { replaces: args.replaces } : {}),
      source: "agent",
    });
    const structured = {
      id: r.id,
      action: r.action,
      reason: r.reason,
      flagged: r.flagged,
      ...(r.memory ? { type: r.memory.type, subject: r.memory.subject } : {}),
      ...(r.supersedes.length > 0 ? { supersedes: r.supersedes } : {}),
      ...(r.conflictsWith.length > 0 ? { conflicts_with: r.conflictsWith } : {}),
      decided_by: r.decidedBy,
      ...(r.llmFallback ? { llm_fallback: r.llmFallback } : {}),
    };
    const extra = [
      r.supersedes.length > 0 ? ` Supersedes ${r.supersedes.join(", ")} (decided by the ${r.decidedBy}).` : "",
      r.conflictsWith.length > 0 ? ` Conflicts with ${r.conflictsWith.join(", ")}.` : "",
    ].join("");
    return { structuredContent: structured, content: [{ type: "text", text: `${r.action}${r.id ? ` ${r.id}` : ""}: ${r.reason}${extra}` }] };
  },
});
