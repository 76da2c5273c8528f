import { z } from "zod";
import { HindsightError, errorText } from "../../core/errors.js";
import type { IngestResult } from "../../core/write/ingest.js";
import { WRITE_ACTIONS } from "../../core/model/writeActions.js";
import { LIMITS, memoryTypeOut, scopeArg, sessionIdArg } from "./fields.js";
import { defineTool } from "./types.js";

/** Turns one call may carry: a long session's catch-up, small enough to answer within a client's timeout. */
const MAX_TURNS = 100;

const TurnOut = z.object({
  turn_id: z.string().nullable().describe("Id of the raw (L0) turn; null when this turn failed (see error)."),
  error: z.string().optional().describe('Why this turn was not logged ("CODE: message"); the other turns were.'),
  extractor: z.enum(["rules", "llm"]).describe("Which extractor decided."),
  fallback_reason: z.string().nullable().describe("Why a configured LLM was not used; null when it was, or when none is configured."),
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
  taken_back: z
    .array(z.object({ id: z.string(), content: z.string(), restored: z.array(z.string()).describe("Memories it had replaced, active again.") }))
    .optional()
    .describe("Memories the session's previous turn stored that this turn took back (\"ignore what I just said\"): archived, kept as history."),
});

export const memoryIngestTool = defineTool({
  name: "memory_ingest",
  title: "Log a conversation turn",
  description:
    "Hand the engine one raw conversation turn (what the user said, optionally your reply). It is logged as said (secrets redacted, instruction injections withheld), " +
    "and extraction decides what, if anything, of the user's words becomes memory: preferences, constraints, facts, task state, events. Greetings, thanks, " +
    "questions and momentary remarks are dropped; statements about other people are kept with that person as subject (third-party:<who>) at lower confidence, " +
    "hedged ones lower still. Your reply is logged, and a question in it is the context of the user's next turn in the session; nothing is extracted from it. " +
    "Use it when the user says something that might matter later and you do not want to distill it yourself; use memory_write for a sentence you already distilled. " +
    `To hand over a stretch of conversation at once (catching up after a session), pass \`turns\` (at most ${MAX_TURNS}, in the order they were said) instead of \`user\`: ` +
    "they are judged in order, each seeing the ones before it, and stored together.",
  inputSchema: {
    user: z.string().min(1).max(LIMITS.turnChars).optional().describe(`What the user said, verbatim (1-${LIMITS.turnChars} characters). Give this or turns.`),
    assistant: z.string().max(LIMITS.turnChars).optional().describe("The assistant's reply to it, if any."),
    turns: z
      .array(
        z.object({
          user: z.string().min(1).max(LIMITS.turnChars).describe("What the user said, verbatim."),
          assistant: z.string().max(LIMITS.turnChars).optional().describe("The assistant's reply to it, if any."),
        }),
      )
      .min(1)
      .max(MAX_TURNS)
      .optional()
      .describe(`Several turns of one session, oldest first (1-${MAX_TURNS}); give this or user.`),
    session_id: sessionIdArg().optional(),
    scope: scopeArg().optional(),
  },
  outputSchema: {
    turns: z.array(TurnOut).describe("One entry per turn logged, in the order given (one entry when user was given)."),
    turn_id: z.string().optional().describe("Id of the raw (L0) turn, when one turn was given (user); the same as turns[0].turn_id."),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(engine, args) {
    if ((args.user === undefined) === (args.turns === undefined)) {
      throw new HindsightError("INVALID_INPUT", "memory_ingest: give user (one turn) or turns (several), not both and not neither", { field: args.user === undefined ? "user" : "turns" });
    }
    if (args.turns && args.assistant !== undefined) {
      throw new HindsightError("INVALID_INPUT", "memory_ingest: with turns, each turn carries its own assistant reply", { field: "assistant" });
    }
    const given = args.turns ?? [{ user: args.user as string, assistant: args.assistant }];
    // Called together, in order: the engine decides them one after another against the ones before and stores them as one batch.
    const settled = await Promise.allSettled(given.map((t) => engine.ingest({ user: t.user, assistant: t.assistant, sessionId: args.session_id, scope: args.scope })));
    if (args.user !== undefined && settled[0]?.status === "rejected") throw settled[0].reason;
    const turns = settled.map((r) => (r.status === "fulfilled" ? turnOut(r.value) : failedTurn(r.reason)));
    const lines = turns.flatMap(turnLines);
    return {
      structuredContent: { turns, ...(args.user !== undefined ? { turn_id: turns[0]?.turn_id ?? undefined } : {}) },
      content: [{ type: "text", text: lines.join("\n") }],
    };
  },
});

function turnOut(r: IngestResult): z.output<typeof TurnOut> {
  return {
    turn_id: r.turnId,
    extractor: r.extractor,
    fallback_reason: r.fallbackReason,
    redacted: r.redacted,
    items: r.results.map((w) => ({
      id: w.id,
      action: w.action,
      reason: w.reason,
      flagged: w.flagged,
      ...(w.memory ? { type: w.memory.type, subject: w.memory.subject, content: w.memory.content } : {}),
      ...(w.supersedes.length > 0 ? { supersedes: w.supersedes } : {}),
    })),
    ...(r.takenBack.length > 0 ? { taken_back: r.takenBack } : {}),
  };
}

/** A turn of several that failed: said in its place, so the ones stored are never reported as failed. */
function failedTurn(err: unknown): z.output<typeof TurnOut> {
  return { turn_id: null, error: errorText(err), extractor: "rules", fallback_reason: null, redacted: false, items: [] };
}

function turnLines(out: z.output<typeof TurnOut>): string[] {
  if (out.error !== undefined) return [`Turn not logged: ${out.error}`];
  const lines = [`Logged turn ${out.turn_id} (extractor: ${out.extractor}${out.fallback_reason ? `, LLM not used: ${out.fallback_reason}` : ""}${out.redacted ? ", secrets redacted" : ""}).`];
  if (out.items.length === 0 && !out.taken_back) lines.push("Nothing worth remembering was extracted.");
  for (const b of out.taken_back ?? []) lines.push(`- taken back ${b.id} "${b.content}": archived${b.restored.length > 0 ? `; active again: ${b.restored.join(", ")}` : ""}`);
  for (const i of out.items) lines.push(`- ${i.action}${i.id ? ` ${i.id}` : ""}${i.type ? ` (${i.type})` : ""}${i.content ? ` "${i.content}"` : ""}: ${i.reason}`);
  return lines;
}
