import type { RecallProfile } from "./recallProfile.js";
import { MemoryEngine } from "../core/engine.js";
import type { EngineConfigInput } from "../core/config.js";
import type { Embedder, MemoryStore, Reranker } from "../core/ports.js";
import { SteppedClock } from "../eval/runner.js";
import { LocomoFileSchema, normaliseEvidence, sessionsOf, turnContent, type LocomoSample } from "./locomoData.js";

/** The pause between the last ingested turn and the first question. */
const QUESTIONS_AFTER_MS = 3000;

export const CATEGORY_NAMES: Record<string, string> = { "1": "multi-hop", "2": "temporal", "3": "open-domain", "4": "single-hop" };

export interface LocomoOptions {
  ks: number[];
  conversations?: number;
  newStore: (sampleId: string) => Promise<MemoryStore>;
  disposeStore?: (store: MemoryStore) => Promise<void>;
  embedder: Embedder;
  reranker?: Reranker | null;
  config?: EngineConfigInput;
  onProgress?: (message: string) => void;
  /** Where recall time goes (bench locomo --profile). */
  profile?: RecallProfile;
  /** A fresh copy of the ingested store of a conversation, for one variant's questions; without it, they are asked on the store itself. */
  copyStore?: (sampleId: string, variant: string) => Promise<MemoryStore>;
  /** Stores kept between runs (bench locomo --stores DIR): one that already holds its conversation is not ingested again. */
  kept?: { has: (sampleId: string) => Promise<boolean>; add: (sampleId: string) => Promise<void> };
}

export interface LocomoResult {
  k: number[];
  questions: number;
  overall: Record<string, number>;
  by_category: Record<string, Record<string, number>>;
  /** Extra figures for the text report (not part of --json's fixed shape). */
  extra: {
    meanOfCategories: Record<string, number>;
    allHit: Record<string, number>;
    linkedPerQuestion: Record<string, number>;
    questionsByCategory: Record<string, number>;
    turns: number;
    memories: number;
    ingestSeconds: number;
    recallMsP50: number;
    recallMsP95: number;
  };
}

export function parseLocomo(json: unknown): LocomoSample[] {
  return LocomoFileSchema.parse(json);
}

/** Turns of one session ingested concurrently. */
const INGEST_WINDOW = 16;

/** Recall settings compared on the same ingested conversations (bench locomo --cv). */
export interface LocomoVariant {
  name: string;
  /** The retrieval the variant belongs to ("old": vector and full text; "new": four retrievers). */
  system: string;
  config: EngineConfigInput;
}

/** One scored question under one setting. */
export interface QuestionScore {
  conversation: string;
  category: string;
  recall: Record<string, number>;
  allHit: Record<string, number>;
  linked: Record<string, number>;
}

/**
 * Evidence recall@k: each conversation is its own store; every turn is ingested through the normal
 * write path (session date as the time, dia_id as the source reference); each scored question is
 * recalled once and the dia_ids linked to the top-k memories are compared with its evidence.
 */
export async function runLocomo(samples: LocomoSample[], options: LocomoOptions): Promise<LocomoResult> {
  const { results, stats } = await scoreLocomo(samples, options, [{ name: "default", system: "default", config: options.config ?? {} }]);
  return summarise(results.get("default") ?? [], options.ks, stats);
}

/**
 * The same conversations recalled under several settings: each conversation is ingested once and each
 * variant asks its questions on its own copy of that store, so the access counts one variant's recalls
 * leave behind never reorder another's.
 */
export async function scoreLocomo(
  samples: LocomoSample[],
  options: LocomoOptions,
  variants: LocomoVariant[],
): Promise<{ results: Map<string, QuestionScore[]>; stats: RunStats }> {
  const results = new Map<string, QuestionScore[]>(variants.map((v) => [v.name, []]));
  const stats: RunStats = { turns: 0, memories: 0, ingestSeconds: 0, recallTimes: [] };
  for (const sample of samples.slice(0, options.conversations ?? samples.length)) {
    const sessions = sessionsOf(sample);
    const validIds = new Set(sessions.flatMap((s) => s.turns.map((t) => t.dia_id)));
    const store = await options.newStore(sample.sample_id);
    const reused = (await options.kept?.has(sample.sample_id)) ?? false;
    const clock = new SteppedClock();
    const first = variants[0] as LocomoVariant;
    const copies = options.copyStore !== undefined;
    let engine = engineFor(sample, store, clock, options, options.config ?? {});
    try {
      await engine.open();
      if (!reused) {
        const t0 = performance.now();
        stats.turns += await ingestConversation(engine, clock, sessions);
        stats.ingestSeconds += (performance.now() - t0) / 1000;
        // Questions come after the conversation, as they do to a live store: by then its writes have
        // paused long enough for the store's idle upkeep (LanceStore idleUpkeepMs) to compact them.
        await new Promise((r) => setTimeout(r, QUESTIONS_AFTER_MS));
        await options.kept?.add(sample.sample_id);
      } else stats.turns += validIds.size;
      stats.memories += await engine.count();
      const last = sessions[sessions.length - 1];
      const askedAt = (last?.at ?? 0) + 86_400_000;
      if (copies) await engine.close();
      for (const variant of variants) {
        if (copies) {
          engine = engineFor(sample, await (options.copyStore as NonNullable<LocomoOptions["copyStore"]>)(sample.sample_id, variant.name), clock, options, variant.config);
          await engine.open();
        } else engine.reconfigure(engineConfig(sample, variant.config));
        clock.set(askedAt);
        // Questions come to a long-running owner, whose second opinion has read the store (MemoryEngine.readAhead).
        await engine.readAhead();
        try {
          const scores = await askQuestions(engine, sample, validIds, options, variant === first ? stats.recallTimes : []);
          (results.get(variant.name) as QuestionScore[]).push(...scores);
        } finally {
          if (copies) await engine.close();
        }
        options.onProgress?.(`${sample.sample_id}: ${variant.name} scored`);
      }
    } finally {
      if (!copies) await engine.close();
      await options.disposeStore?.(store);
    }
  }
  return { results, stats };
}

interface RunStats {
  turns: number;
  memories: number;
  ingestSeconds: number;
  recallTimes: number[];
}

/** Each conversation is its own project scope. */
function engineConfig(sample: LocomoSample, config: EngineConfigInput): EngineConfigInput {
  return { ...config, defaultScope: `project:${sample.sample_id}`, actor: "bench" };
}

function engineFor(sample: LocomoSample, store: MemoryStore, clock: SteppedClock, options: LocomoOptions, config: EngineConfigInput): MemoryEngine {
  const engine = new MemoryEngine({ store, embedder: options.embedder, reranker: options.reranker ?? null, clock }, engineConfig(sample, config));
  const profile = options.profile;
  if (profile) {
    profile.watch("store", store, ["searchMemoriesByVector", "searchMemoriesByText", "searchMemoriesByEntities", "getMemories", "searchTurnsByVector", "searchTurnsByText", "getTurns", "listTurns", "updateMemories"]);
    profile.watch("embedder", options.embedder, ["embed"]);
    if (options.reranker) profile.watch("reranker", options.reranker, ["score"]);
  }
  return engine;
}

/** Every turn through the normal write path, in order; returns how many. */
async function ingestConversation(engine: MemoryEngine, clock: SteppedClock, sessions: ReturnType<typeof sessionsOf>): Promise<number> {
  let turns = 0;
  for (const session of sessions) {
    // A client replaying a conversation keeps several turns in flight: they are judged in order and stored in batches.
    let inFlight: Array<Promise<unknown>> = [];
    for (const [i, turn] of session.turns.entries()) {
      clock.set(session.at + i * 30_000);
      inFlight.push(engine.ingest({ user: turnContent(turn), speaker: turn.speaker, ref: turn.dia_id, sessionId: `session_${session.index}` }));
      turns++;
      if (inFlight.length >= INGEST_WINDOW) {
        await Promise.all(inFlight);
        inFlight = [];
      }
    }
    await Promise.all(inFlight);
  }
  return turns;
}

async function askQuestions(engine: MemoryEngine, sample: LocomoSample, validIds: Set<string>, options: LocomoOptions, recallTimes: number[]): Promise<QuestionScore[]> {
  const maxK = Math.max(...options.ks);
  const out: QuestionScore[] = [];
  const profile = options.profile;
  for (const qa of sample.qa) {
    const category = String(qa.category);
    if (!(category in CATEGORY_NAMES)) continue;
    const evidence = normaliseEvidence(qa.evidence, validIds);
    if (evidence.length === 0) continue;
    const t = performance.now();
    const r = profile ? await profile.measure(() => engine.recall({ query: qa.question, k: maxK })) : await engine.recall({ query: qa.question, k: maxK });
    recallTimes.push(performance.now() - t);
    const s: QuestionScore = { conversation: sample.sample_id, category, recall: {}, allHit: {}, linked: {} };
    for (const k of options.ks) {
      const linked = new Set(r.memories.slice(0, k).flatMap((m) => m.sourceRefs));
      const hit = evidence.filter((e) => linked.has(e)).length;
      s.recall[k] = hit / evidence.length;
      s.allHit[k] = hit === evidence.length ? 1 : 0;
      s.linked[k] = linked.size;
    }
    out.push(s);
  }
  return out;
}

function mean(xs: number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

export function summarise(scored: QuestionScore[], ks: number[], stats: RunStats): LocomoResult {
  const overall: Record<string, number> = {};
  const byCategory: Record<string, Record<string, number>> = {};
  const meanOfCategories: Record<string, number> = {};
  const allHit: Record<string, number> = {};
  const linkedPerQuestion: Record<string, number> = {};
  const questionsByCategory: Record<string, number> = {};
  const categories = Object.keys(CATEGORY_NAMES).filter((c) => scored.some((s) => s.category === c));
  for (const c of categories) {
    const qs = scored.filter((s) => s.category === c);
    questionsByCategory[c] = qs.length;
    byCategory[c] = Object.fromEntries(ks.map((k) => [String(k), round(mean(qs.map((s) => s.recall[k] as number)))]));
  }
  for (const k of ks) {
    overall[k] = round(mean(scored.map((s) => s.recall[k] as number)));
    meanOfCategories[k] = round(mean(categories.map((c) => byCategory[c]?.[String(k)] as number)));
    allHit[k] = round(mean(scored.map((s) => s.allHit[k] as number)));
    linkedPerQuestion[k] = round(mean(scored.map((s) => s.linked[k] as number)));
  }
  const sorted = [...stats.recallTimes].sort((a, b) => a - b);
  return {
    k: ks,
    questions: scored.length,
    overall,
    by_category: byCategory,
    extra: {
      meanOfCategories,
      allHit,
      linkedPerQuestion,
      questionsByCategory,
      turns: stats.turns,
      memories: stats.memories,
      ingestSeconds: Math.round(stats.ingestSeconds * 10) / 10,
      recallMsP50: Math.round((sorted[Math.floor(sorted.length / 2)] ?? 0) * 10) / 10,
      recallMsP95: Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0) * 10) / 10,
    },
  };
}
