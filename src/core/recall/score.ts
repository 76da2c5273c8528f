import type { EngineConfig } from "../config.js";
import type { MemoryRecord } from "../model/memory.js";

const DAY = 86_400_000;

export interface ScoreFactors {
  relevance: number;
  confidence: number;
  timeDecay: number;
  accessBoost: number;
}

/** time_decay = exp(-λ_type · days since last stated or confirmed). */
export function timeDecay(memory: Pick<MemoryRecord, "type" | "confirmedAt" | "pinned">, now: number, config: EngineConfig): number {
  if (memory.pinned) return 1;
  const days = Math.max(0, now - memory.confirmedAt) / DAY;
  return Math.exp(-config.decayPerDay[memory.type] * days);
}

export function accessBoost(accessCount: number, config: EngineConfig): number {
  return 1 - Math.exp(-accessCount / config.accessScale);
}

/** final = w_r·relevance + w_c·confidence + w_d·time_decay + w_a·access_boost (weights from configuration). */
export function finalScore(f: ScoreFactors, config: EngineConfig): number {
  return baseScore(f, config) + config.weights.access * f.accessBoost;
}

/** The score without use: what a memory earns by what it says and how sure and recent it is. */
function baseScore(f: ScoreFactors, config: EngineConfig): number {
  const w = config.weights;
  return w.relevance * f.relevance + w.confidence * f.confidence + w.timeDecay * f.timeDecay;
}

interface Ranked {
  score: number;
  factors: ScoreFactors;
}

/**
 * Use may only reorder memories that are about equally relevant: a memory's access boost counts up
 * to the point where it would pass one that is more relevant by more than `recall.accessMargin` and
 * ranks above it without use. Being read often says a memory is useful, not that it answers this
 * query: a note about the office plants, read every morning, must not become the answer to a question
 * about the release schedule. Only candidates that passed the relevance floor are given here, so use
 * never brings back an unrelated memory either.
 *
 * Sets each item's counted boost (factors.accessBoost) and score; `boost` is the boost before any
 * limit (so a second call, after a cross-encoder changed relevance, starts from the full boost).
 */
export function countAccess<T extends Ranked>(items: T[], boost: (item: T) => number, config: EngineConfig): void {
  const margin = config.recall.accessMargin;
  const wa = config.weights.access;
  const base = items.map((m) => baseScore(m.factors, config));
  items.forEach((m, i) => {
    const own = base[i] as number;
    // The lowest base score of a clearly more relevant memory that ranks above this one without use.
    let ceiling = Infinity;
    items.forEach((other, j) => {
      if (j !== i && other.factors.relevance > m.factors.relevance + margin && (base[j] as number) >= own) ceiling = Math.min(ceiling, base[j] as number);
    });
    const b = boost(m);
    const full = own + wa * b;
    // ceiling >= own, so a limited boost stays >= 0 (and wa > 0 whenever full > ceiling).
    m.factors.accessBoost = full <= ceiling ? b : (ceiling - own) / wa;
    m.score = Math.min(full, ceiling);
  });
}

/** Best first; on equal scores the more relevant memory first (a boost limited by countAccess ties with the one it may not pass). */
export function byRank(a: Ranked, b: Ranked): number {
  return b.score - a.score || b.factors.relevance - a.factors.relevance;
}
