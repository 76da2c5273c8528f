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

interface Scored {
  category: string;
  recall: Record<string, number>;
  allHit: Record<string, number>;
  linked: Record<string, number>;
}

export function parseLocomo(json: unknown): LocomoSample[] {
  return LocomoFileSchema.parse(json);
}

/** Turns of one session ingested concurrently. */
const INGEST_WINDOW = 16;

/**
 * Evidence recall@k: each conversation is its own store; every turn is ingested through the normal
 * write path (session date as the time, dia_id as the source reference); each scored question is
 * recalled once and the dia_ids linked to the top-k memories are compared with its evidence.
 */
export async function runLocomo(samples: LocomoSample[], options: LocomoOptions): Promise<LocomoResult> {
  const maxK = Math.max(...options.ks);
  const scored: Scored[] = [];
  let turns = 0;
  let memories = 0;
  let ingestMs = 0;
  const recallTimes: number[] = [];
  for (const sample of samples.slice(0, options.conversations ?? samples.length)) {
    const clock = new SteppedClock();
    const store = await options.newStore(sample.sample_id);
    const engine = new MemoryEngine({ store, embedder: options.embedder, reranker: options.reranker ?? null, clock }, { ...options.config, defaultScope: `project:${sample.sample_id}`, actor: "bench" });
    await engine.open();
    const profile = options.profile;
    if (profile) {
      profile.watch("store", store, ["searchMemoriesByVector", "searchMemoriesByText", "getMemories", "searchTurnsByVector", "searchTurnsByText", "getTurns", "listTurns", "updateMemories"]);
      profile.watch("embedder", options.embedder, ["embed"]);
      if (options.reranker) profile.watch("reranker", options.reranker, ["score"]);
    }
    try {
      const sessions = sessionsOf(sample);
      const validIds = new Set<string>();
      const t0 = performance.now();
      for (const session of sessions) {
        // A client replaying a conversation keeps several turns in flight: they are judged in order and stored in batches.
        let inFlight: Array<Promise<unknown>> = [];
        for (const [i, turn] of session.turns.entries()) {
          validIds.add(turn.dia_id);
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
      ingestMs += performance.now() - t0;
      // Questions come after the conversation, as they do to a live store: by then its writes have
      // paused long enough for the store's idle upkeep (LanceStore idleUpkeepMs) to compact them.
      await new Promise((r) => setTimeout(r, QUESTIONS_AFTER_MS));
      memories += await engine.count();
      const last = sessions[sessions.length - 1];
      clock.set((last?.at ?? 0) + 86_400_000);
      for (const qa of sample.qa) {
        const category = String(qa.category);
        if (!(category in CATEGORY_NAMES)) continue;
        const evidence = normaliseEvidence(qa.evidence, validIds);
        if (evidence.length === 0) continue;
        const t = performance.now();
        const r = profile ? await profile.measure(() => engine.recall({ query: qa.question, k: maxK })) : await engine.recall({ query: qa.question, k: maxK });
        recallTimes.push(performance.now() - t);
        const s: Scored = { category, recall: {}, allHit: {}, linked: {} };
        for (const k of options.ks) {
          const linked = new Set(r.memories.slice(0, k).flatMap((m) => m.sourceRefs));
          const hit = evidence.filter((e) => linked.has(e)).length;
          s.recall[k] = hit / evidence.length;
          s.allHit[k] = hit === evidence.length ? 1 : 0;
          s.linked[k] = linked.size;
        }
        scored.push(s);
      }
      options.onProgress?.(`${sample.sample_id}: ${sessions.length} sessions ingested, ${scored.length} questions scored so far`);
    } finally {
      await engine.close();
      await options.disposeStore?.(store);
    }
  }
  return summarise(scored, options.ks, { turns, memories, ingestSeconds: ingestMs / 1000, recallTimes });
}

function mean(xs: number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function summarise(scored: Scored[], ks: number[], stats: { turns: number; memories: number; ingestSeconds: number; recallTimes: number[] }): LocomoResult {
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
