import type { EngineContext } from "../context.js";
import { embedOne } from "../context.js";
import type { IngestParams } from "../model/inputs.js";
import type { MemoryRecord, TurnRecord } from "../model/memory.js";
import { turnText } from "../model/turnText.js";
import { splitSentences } from "../text/sentences.js";
import { extractRules, extractVerbatim, readTakeBack, type ExtractedItem } from "./extract.js";
import { contentTokens, contentTokenSet } from "../text/tokens.js";
import { guardOptional, guardText, REDACTION_MARK, type GuardVerdict } from "../guard/index.js";
import { extractWithLlm, llmFailureReason } from "./llmExtract.js";
import type { Heard } from "./recentMessages.js";
import { audit, commitWrite, prepareWrite, type PreparedWrite, type WriteContext, type WriteResult } from "./writer.js";

export interface IngestResult {
  turnId: string;
  /** Which extractor decided: "llm" when one is configured and answered usefully, else "rules" (offline). */
  extractor: "rules" | "llm";
  /** Why a configured LLM was not used (timeout, error, invalid output); null when it was, or when none is configured. */
  fallbackReason: string | null;
  /** True when the guard redacted part of the raw turn before it was logged. */
  redacted: boolean;
  results: WriteResult[];
  /**
   * Memories the previous turn of the session stored that this one took back ("当我没说", "ignore what I just
   * said"): archived, and the memories they had replaced active again. Empty when the turn took nothing back.
   */
  takenBack: TakenBack[];
}

export interface TakenBack {
  id: string;
  content: string;
  /** Memories the taken-back one had replaced, active again. */
  restored: string[];
}

function sessionKey(scope: string, sessionId: string | null): string {
  return `${scope}\u0000${sessionId ?? ""}`;
}

/**
 * The question the previous message of this session asked, if any: "Researching adoption agencies"
 * answers "What are your plans for the summer?" and is only found through it.
 */
function questionIn(last: Heard | null, now: number, windowMs: number): string | null {
  if (!last || now - last.at > windowMs) return null;
  const questions = splitSentences(last.text).filter((s) => /[?？]\s*$/.test(s));
  return questions.length > 0 ? questions.slice(-2).join(" ") : null;
}

/** What L0 keeps of one side of a turn: secrets redacted; an injection not at all (it must never come back from recall). */
function logged(v: GuardVerdict): string {
  return v.kind === "injection" ? `${REDACTION_MARK}instruction injection]` : v.redacted;
}

/** A turn made ready outside the scope's queue: guarded, embedded, extracted, each item guarded and embedded. */
export interface PreparedTurn {
  turn: TurnRecord;
  vector: Float32Array;
  /** The audit line of a turn the guard flagged (a secret redacted, an injection withheld). */
  flagged: { operation: "refuse" | "quarantine"; detail: string } | null;
  extractor: IngestResult["extractor"];
  fallbackReason: string | null;
  redacted: boolean;
  writes: PreparedWrite[];
  /** The turn only takes back what the speaker said in the turn before (extract.ts readTakeBack). */
  takesBack: boolean;
  /** The words that point at the one thing taken back ("门禁那条先别记"), null when the whole turn is. */
  pointer: string | null;
}

/**
 * The L0 row made ready (secrets redacted, an injected side withheld), then extraction, then each
 * item made ready for the write path. Both sides and the speaker and ref are guarded; the turn is
 * kept out of the L0 fallback when any of them was flagged. Nothing here reads or writes the store,
 * so it runs outside the scope's queue (an LLM extraction of one project never waits for another's).
 */
export async function prepareTurn(ctx: EngineContext, params: IngestParams, scope: string): Promise<PreparedTurn> {
  const now = ctx.clock.now();
  const place = ctx.recentMessages.claim(sessionKey(scope, params.sessionId ?? null));
  try {
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
    place.heard({ text: turn.assistant ?? turnText(turn), at: now });
    const spoken = turnText(turn);
    const vector = await embedOne(ctx, spoken);
    const secret = [verdict, reply, speaker, ref].find((v) => v?.kind === "secret");
    const injection = [verdict, reply].find((v) => v?.kind === "injection");
    const flagged = secret
      ? { operation: "refuse" as const, detail: `${secret.reason}; raw turn redacted` }
      : injection
        ? { operation: "quarantine" as const, detail: `${injection.reason}; raw turn kept out of recall` }
        : null;

    const context = ctx.config.write.sessionContext ? questionIn(await place.before, now, ctx.config.write.sessionContextWindowMs) : null;
    const { items, extractor, fallbackReason } = await extract(ctx, verdict, turn, context);
    const writes = await Promise.all(
      items.map((item) =>
        prepareWrite(ctx, {
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
        }, { text: spoken, vector }),
      ),
    );
    const takeBack = items.length === 0 && verdict.kind === "ok" ? readTakeBack(params.user) : { takesBack: false, pointer: null };
    return { turn, vector, flagged, extractor, fallbackReason, redacted: secret !== undefined, writes, ...takeBack };
  } finally {
    // A turn that failed before it was heard leaves the previous one as the session's last.
    place.heard(null);
  }
}

/**
 * The decide-and-commit step of a prepared turn, in the scope's queue: the L0 row, each item in
 * order, then the turn's links to what it became (in a batch, all of it is stored together).
 */
export async function commitTurn(ctx: WriteContext, prepared: PreparedTurn): Promise<IngestResult> {
  const { turn } = prepared;
  await ctx.store.putTurns([{ record: turn, vector: prepared.vector }]);
  if (prepared.flagged) await audit(ctx, prepared.flagged.operation, turn.scope, [], [turn.id], prepared.flagged.detail);
  const results: WriteResult[] = [];
  for (const write of prepared.writes) results.push(await commitWrite(ctx, write));
  const memoryIds = [...new Set(results.filter((r) => r.id !== null && r.action !== "quarantined").map((r) => r.id as string))];
  // A raw line that carried an injected instruction stays out of the L0 fallback too.
  const injected = results.some((r) => r.action === "quarantined");
  if (memoryIds.length > 0 || injected) {
    await ctx.store.updateTurns([{ ...turn, memoryIds, ...(injected ? { status: "redacted" as const, user: `${REDACTION_MARK}instruction injection]` } : {}) }]);
  }
  const takenBack = prepared.takesBack ? await takeBackPreviousTurn(ctx, turn, prepared.pointer) : [];
  return { turnId: turn.id, extractor: prepared.extractor, fallbackReason: prepared.fallbackReason, redacted: prepared.redacted, results, takenBack };
}

/**
 * The speaker took back their previous turn: what that turn of the same session stored (within the
 * correction window, by the extractor, not merged into an older memory) is archived — kept as history, out
 * of recall — and what it had replaced is active again. Never more than that one turn.
 */
async function takeBackPreviousTurn(ctx: WriteContext, turn: TurnRecord, pointer: string | null): Promise<TakenBack[]> {
  const window = ctx.config.write.correctionWindowMs;
  // The latest earlier turn of the session; of two logged at the same instant, the one logged later (turns are listed in the order stored).
  let before: TurnRecord | undefined;
  for (const t of await ctx.store.listTurns({ scope: turn.scope })) {
    if (t.id !== turn.id && t.sessionId === turn.sessionId && t.at <= turn.at && turn.at - t.at <= window && (!before || t.at >= before.at)) before = t;
  }
  if (!before || before.memoryIds.length === 0) return [];
  const pointed = pointer === null ? [] : contentTokens(pointer);
  const stored = (await ctx.store.getMemories(before.memoryIds)).filter(
    (m) =>
      m.status === "active" &&
      m.source === "extractor" &&
      m.createdAt >= before.at &&
      m.sourceTurns.includes(before.id) &&
      // Pointed at one thing, only a memory that names it is taken back; the others that turn stored stand.
      (pointed.length === 0 || namesAll(contentTokenSet(m.content), pointed)),
  );
  if (stored.length === 0) return [];
  const now = ctx.clock.now();
  const replaced = await ctx.store.getMemories([...new Set(stored.flatMap((m) => m.supersedes))]);
  const changed: MemoryRecord[] = [];
  const out: TakenBack[] = [];
  for (const m of stored) {
    const restored = replaced.filter((r) => r.status === "superseded" && r.supersededBy === m.id);
    changed.push({ ...m, status: "archived", statusReason: "taken back by the speaker in the next turn", updatedAt: now });
    for (const r of restored) changed.push({ ...r, status: "active", supersededBy: null, statusReason: null, updatedAt: now });
    out.push({ id: m.id, content: m.content, restored: restored.map((r) => r.id) });
  }
  await ctx.store.updateMemories(changed);
  await audit(ctx, "edit", turn.scope, changed.map((c) => c.id), [before.id, turn.id], `taken back by the speaker: archived ${stored.length}, restored ${changed.length - stored.length}`);
  return out;
}

function namesAll(words: Set<string>, pointed: string[]): boolean {
  return pointed.every((w) => words.has(w));
}

/** The whole ingest path, for callers that hold the scope's queue already. */
export async function ingestTurn(ctx: EngineContext, params: IngestParams, scope: string): Promise<IngestResult> {
  return commitTurn(ctx, await prepareTurn(ctx, params, scope));
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
      rules: ctx.config.write.rules,
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
