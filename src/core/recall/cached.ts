import type { Logger, RecallCache } from "../ports.js";
import { reachOf, wordsFindNothingNew, type RecallReach } from "./reach.js";
import type { RecallParams } from "../model/inputs.js";
import type { RecallResult } from "./types.js";

/** This process's recall-cache counts since it started (the /metrics view of the cache). */
export interface RecallCacheCounts {
  hits: number;
  misses: number;
  /** Milliseconds the hits did not spend: each hit's time against the mean time of a computed answer. */
  savedMs: number;
  /** Total time of computed answers (for that mean). */
  computedMs: number;
}

export const noCacheCounts = (): RecallCacheCounts => ({ hits: 0, misses: 0, savedMs: 0, computedMs: 0 });

/**
 * What makes two recalls the same question: its words, k, filters and fallback, and what reads them
 * (the model and the whole configuration, so a changed setting never serves an answer of the old one).
 * A recall in a session is not cached: its working memory changes with every turn.
 */
export function recallKey(p: RecallParams, modelId: string, config: object): string | null {
  if (p.sessionId !== undefined) return null;
  return JSON.stringify([p.query, p.k ?? null, p.types ?? null, p.layers ?? null, p.fallback ?? null, modelId, configText(config)]);
}

/** The configuration as text, once per configuration object (reconfigure() makes a new one): not on every recall. */
const configTexts = new WeakMap<object, string>();
function configText(config: object): string {
  let text = configTexts.get(config);
  if (text === undefined) configTexts.set(config, (text = JSON.stringify(config)));
  return text;
}

/**
 * A recall through the shared cache: the kept answer when no change to its scope since could have
 * reached it (reach.ts), else the answer computed now, kept for the next asker. A change that shares
 * only search terms with the question is judged by `searchWords`, the answer's word searches asked
 * again (far cheaper than the answer: no embedding, no reading). A cache that fails is passed by (the
 * answer is computed, as without a cache): it is a shortcut, never a reason to fail a read.
 */
export async function throughCache(
  cache: RecallCache,
  scope: string,
  key: string,
  compute: (onReach: (reach: RecallReach) => void) => Promise<RecallResult>,
  counts: RecallCacheCounts,
  timer: () => number,
  logger: Logger,
  searchWords?: () => Promise<string[]>,
): Promise<{ result: RecallResult; cached: boolean }> {
  const started = timer();
  const looked = await cache.lookup(scope, key).catch((err: unknown) => {
    logger.debug("recall cache unavailable; computing the answer", { error: String(err) });
    return null;
  });
  const kept = looked?.kept;
  const since = looked?.since;
  if (looked && kept && since && (await stillAnswers(kept.reach, since.map((change) => reachOf(kept.reach, change)), searchWords, logger))) {
    counts.hits++;
    const mean = counts.misses > 0 ? counts.computedMs / counts.misses : 0;
    counts.savedMs += Math.max(0, mean - (timer() - started));
    // Kept again as of now: the next ask need not judge the same changes again.
    if (since.length > 0) void cache.keep(looked.slot, kept).catch((err: unknown) => logger.debug("could not keep a recall answer", { error: String(err) }));
    return { result: kept.result, cached: true };
  }
  let reach: RecallReach | null = null;
  const result = await compute((r) => (reach = r));
  counts.misses++;
  counts.computedMs += timer() - started;
  if (looked && reach) void cache.keep(looked.slot, { result, reach }).catch((err: unknown) => logger.debug("could not keep a recall answer", { error: String(err) }));
  return { result, cached: false };
}

/** No change reached the answer; one that shares only words did not bring the word searches anything new. */
async function stillAnswers(reach: RecallReach, verdicts: Array<"yes" | "by words" | "no">, searchWords: (() => Promise<string[]>) | undefined, logger: Logger): Promise<boolean> {
  if (verdicts.includes("yes")) return false;
  if (!verdicts.includes("by words")) return true;
  if (!searchWords) return false;
  const now = await searchWords().catch((err: unknown) => {
    logger.debug("could not ask the word searches again; computing the answer", { error: String(err) });
    return null;
  });
  return now !== null && wordsFindNothingNew(reach, now);
}
