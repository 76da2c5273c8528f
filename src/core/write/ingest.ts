import type { EngineContext } from "../context.js";
import { embedOne } from "../context.js";
import type { IngestParams } from "../model/inputs.js";
import type { TurnRecord } from "../model/memory.js";
import { splitSentences } from "../text/sentences.js";
import { extractRules, extractVerbatim, type ExtractedItem } from "./extract.js";
import { guardOptional, guardText, REDACTION_MARK, type GuardVerdict } from "../guard/index.js";
import { extractWithLlm, llmFailureReason } from "./llmExtract.js";
import { audit, writeMemory, type WriteResult } from "./writer.js";

export interface IngestResult {
  turnId: string;
  /** Which extractor decided: "llm" when one is configured and answered usefully, else "rules" (offline). */
  extractor: "rules" | "llm";
  /** Why a configured LLM was not used (timeout, error, invalid output); null when it was, or when none is configured. */
  fallbackReason: string | null;
  /** True when the guard redacted part of the raw turn before it was logged. */
  redacted: boolean;
  results: WriteResult[];
}

/** Text of a turn as the L0 index sees it (speaker included so names are searchable). */
export function turnText(turn: Pick<TurnRecord, "speaker" | "user">): string {
  return turn.speaker ? `${turn.speaker}: ${turn.user}` : turn.user;
}

const CONTEXT_WINDOW_MS = 30 * 60_000;

function sessionKey(scope: string, sessionId: string | null): string {
  return `${scope}\u0000${sessionId ?? ""}`;
}

/**
 * The question the previous message of this session asked, if any: "Researching adoption agencies"
 * answers "What are your plans for the summer?" and is only found through it.
 */
function questionBefore(ctx: EngineContext, scope: string, sessionId: string | null, now: number): string | null {
  const last = ctx.lastMessage.get(sessionKey(scope, sessionId));
  if (!last || now - last.at > CONTEXT_WINDOW_MS) return null;
  const questions = splitSentences(last.text).filter((s) => /[?？]\s*$/.test(s));
  return questions.length > 0 ? questions.slice(-2).join(" ") : null;
}

/** What L0 keeps of one side of a turn: secrets redacted; an injection not at all (it must never come back from recall). */
function logged(v: GuardVerdict): string {
  return v.kind === "injection" ? `${REDACTION_MARK}instruction injection]` : v.redacted;
}

/**
 * L0 first (secrets redacted, an injected side withheld), then extraction, then the write path for
 * each item. Both sides and the speaker and ref are guarded; the turn is kept out of the L0 fallback
 * when any of them was flagged.
 */
export async function ingestTurn(ctx: EngineContext, params: IngestParams, scope: string): Promise<IngestResult> {
  const now = ctx.clock.now();
  const verdict = await guardText(params.user);
  const [reply, speaker, ref] = await Promise.all([guardOptional(params.assistant), guardOptional(params.speaker), guardOptional(params.ref)]);
  const turn: TurnRecord = {
    id: ctx.newId(),
    scope,
    sessionId: params.sessionId ?? null,
    speaker: speaker?.redacted ?? null,
    user: logged(verdict),
    assistant: reply ? logged(reply) : null,
    ref: ref?.redacted ?? null,
    at: now,
    status: [verdict, reply, speaker, ref].every((v) => v === null || v.kind === "ok") ? "active" : "redacted",
    memoryIds: [],
  };
  await ctx.store.putTurns([{ record: turn, vector: await embedOne(ctx, turnText(turn)) }]);
  const secret = [verdict, reply, speaker, ref].find((v) => v?.kind === "secret");
  const injection = [verdict, reply].find((v) => v?.kind === "injection");
  if (secret) await audit(ctx, "refuse", scope, [], [turn.id], `${secret.reason}; raw turn redacted`);
  else if (injection) await audit(ctx, "quarantine", scope, [], [turn.id], `${injection.reason}; raw turn kept out of recall`);

  const context = ctx.config.write.sessionContext ? questionBefore(ctx, scope, params.sessionId ?? null, now) : null;
  ctx.lastMessage.set(sessionKey(scope, params.sessionId ?? null), {
    text: turn.assistant ?? turnText(turn),
    at: now,
  });
  const { items, extractor, fallbackReason } = await extract(ctx, verdict, turn, context);
  const results: WriteResult[] = [];
  for (const item of items) {
    results.push(
      await writeMemory(ctx, {
        ...item,
        // No time phrase is not "valid forever": the kind's default applies (task state is working memory).
        validUntil: item.validUntil ?? undefined,
        scope,
        source: "extractor",
        sessionId: params.sessionId,
        sourceTurns: [turn.id],
        sourceRefs: turn.ref ? [turn.ref] : [],
        speaker: turn.speaker,
        context,
        quarantineReason: verdict.kind === "injection" ? verdict.reason : undefined,
      }),
    );
  }
  const memoryIds = [...new Set(results.filter((r) => r.id !== null && r.action !== "quarantined").map((r) => r.id as string))];
  // A raw line that carried an injected instruction stays out of the L0 fallback too.
  const injected = results.some((r) => r.action === "quarantined");
  if (memoryIds.length > 0 || injected) {
    await ctx.store.updateTurns([{ ...turn, memoryIds, ...(injected ? { status: "redacted" as const, user: `${REDACTION_MARK}instruction injection]` } : {}) }]);
  }
  return { turnId: turn.id, extractor, fallbackReason, redacted: secret !== undefined, results };
}

interface Extraction {
  items: ExtractedItem[];
  extractor: IngestResult["extractor"];
  fallbackReason: string | null;
}

/**
 * The configured LLM when there is one, the rule extractor otherwise or when the LLM fails (the
 * reason is reported). The LLM only ever sees the redacted turn; a turn the guard flags as an
 * injection is not handed to it (the model is the injection's target), the rules keep it verbatim
 * so the writer can quarantine it.
 */
async function extract(ctx: EngineContext, verdict: GuardVerdict, turn: TurnRecord, context: string | null): Promise<Extraction> {
  const rules = () =>
    extractRules(verdict.redacted, {
      now: turn.at,
      speaker: turn.speaker,
      maxMemoryChars: ctx.config.write.maxMemoryChars,
      defaultConfidence: ctx.config.write.defaultConfidence,
    });
  if (ctx.config.write.extraction === "verbatim") {
    return { items: extractVerbatim(verdict.redacted, turn.speaker, ctx.config.write.defaultConfidence), extractor: "rules", fallbackReason: null };
  }
  if (!ctx.llm) return { items: rules(), extractor: "rules", fallbackReason: null };
  if (verdict.kind === "injection") {
    return { items: rules(), extractor: "rules", fallbackReason: "turn looks like an instruction injection: not sent to the llm" };
  }
  try {
    const items = await extractWithLlm(ctx.llm, verdict.redacted, {
      now: turn.at,
      speaker: turn.speaker,
      context,
      turnId: turn.id,
      timeoutMs: ctx.config.write.llmTimeoutMs,
    });
    return { items, extractor: "llm", fallbackReason: null };
  } catch (err) {
    const reason = llmFailureReason(err);
    ctx.logger.warn("llm extraction failed; the rule extractor decided", { llm: ctx.llm.id, turnId: turn.id, reason });
    return { items: rules(), extractor: "rules", fallbackReason: reason };
  }
}
