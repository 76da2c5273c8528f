import type { EngineConfig } from "../config.js";
import { unreadable, type Thresholds } from "../model/profiles.js";
import { isMostlyCjk, writtenInCjk } from "../text/cjk.js";
import { contentTokenSet, coverage } from "../text/tokens.js";
import { clamp01, cosine } from "../text/vector.js";

export interface QueryFeatures {
  text: string;
  vector: Float32Array;
  tokens: Set<string>;
  /** The embedding model cannot read this query (CJK with an English model): vector evidence is ignored. */
  cjk: boolean;
  /** The model's thresholds the evidence is calibrated with. */
  model: Thresholds;
  /** The query is mostly Chinese (read once per query: calibration shifts depend on both sides' language). */
  zh: boolean;
}

export function queryFeatures(text: string, vector: Float32Array, model: Thresholds): QueryFeatures {
  return { text, vector, tokens: contentTokenSet(text), cjk: unreadable(text, model), model, zh: writtenInCjk(text) };
}

export interface RelevanceParts {
  cosine: number;
  /** Full-text score relative to the best full-text hit of this query (0 when not a full-text hit). */
  fullText: number;
  /** Share of the query's content tokens found in the text. */
  coverage: number;
  /** Fused relevance in [0, 1]. */
  relevance: number;
  /** Absolute evidence, comparable across queries: compared with the relevance floor. */
  evidence: number;
  /** The evidence without the symmetric Chinese reading (equal to evidence when it was not used). */
  plainEvidence: number;
  /** The model could not read the query or the text: relevance rests on full-text rank and coverage only. */
  wordsOnly: boolean;
}

/**
 * Relevance without a cross-encoder: calibrated cosine, full-text rank and term coverage fused.
 * Rank-relative full text orders candidates; the floor uses only absolute evidence (cosine,
 * coverage) so an unrelated query cannot pass it by being the best of a bad lot.
 */
export function fuseRelevance(q: QueryFeatures, text: string, vector: Float32Array, fullTextNorm: number, config: EngineConfig, symmetric?: Float32Array, label?: string): RelevanceParts {
  const r = config.recall;
  // A subject the caller gave names what the memory is about in the caller's words ("用户的编辑器" for "我写 Go 用 GoLand"):
  // the question's words found there count as found in the memory.
  const cov = coverage(q.tokens, contentTokenSet(label ? `${text} ${label}` : text));
  const docZh = writtenInCjk(text);
  const docCjk = !q.model.readsCjk && isMostlyCjk(text);
  const shift = q.zh && docZh ? q.model.cjkCosineShift : q.zh !== docZh ? q.model.crossLanguageShift : 0;
  const calibrated = (c: number, low: number) => clamp01((c - low) / (q.model.cosineHigh - q.model.cosineLow));
  const plainCos = q.cjk || docCjk ? 0 : cosine(q.vector, vector);
  const plainCal = calibrated(plainCos, q.model.cosineLow + shift);
  const symmetricLow = q.zh && docZh ? q.model.cjkSymmetricLow : undefined;
  const read = symmetric && symmetricLow !== undefined ? { cos: cosine(q.vector, symmetric), low: symmetricLow } : null;
  const cos = read ? read.cos : plainCos;
  const cosCal = read ? calibrated(read.cos, read.low) : plainCal;
  if (q.cjk || docCjk) {
    const relevance = 0.5 * cov + 0.5 * fullTextNorm * Math.min(1, cov * 2);
    return { cosine: cos, fullText: fullTextNorm, coverage: cov, relevance, evidence: cov, plainEvidence: cov, wordsOnly: true };
  }
  const f = r.fusion;
  const total = f.vector + f.fullText + f.coverage || 1;
  const relevance = (f.vector * cosCal + f.fullText * fullTextNorm + f.coverage * cov) / total;
  return { cosine: cos, fullText: fullTextNorm, coverage: cov, relevance, evidence: Math.max(cosCal, cov * 0.9), plainEvidence: Math.max(plainCal, cov * 0.9), wordsOnly: false };
}

/** How far the best candidate's cosine must stand above every other one to count as the answer on rank alone. */
const DISTINCT_MARGIN = 0.06;

/**
 * The candidate the query clearly points at, though its absolute evidence is under the floor, or -1.
 * Chinese pairs sit close together in E5's space (unrelated ones up to ~0.87), so an absolute floor
 * that keeps unrelated Chinese out also drops a true paraphrase ("这人忌口吗" → "对虾过敏"); one
 * memory far closer than every other candidate is evidence the floor cannot see. Needs at least
 * three candidates, and half the floor, so that "best of a bad lot" does not pass.
 */
export function distinctBest(parts: RelevanceParts[], floor: number): number {
  if (parts.length < 3) return -1;
  const order = parts.map((p, i) => ({ cos: p.cosine, i })).sort((a, b) => b.cos - a.cos);
  const [best, second] = order;
  if (!best || !second || best.cos - second.cos < DISTINCT_MARGIN) return -1;
  const p = parts[best.i]!;
  return p.evidence >= floor / 2 && p.evidence < floor ? best.i : -1;
}

/**
 * Names a question gives in Latin script, written as names (a capital and a lowercase letter): "Grafana 的告警发到哪个群"
 * → grafana, "iOS 包谁来签" → ios. An all-capital acronym ("API", "CI") is often said in other words, so it is no name here.
 */
export function latinNames(text: string): string[] {
  return (text.match(/[A-Za-z][A-Za-z0-9.+#-]{2,}/g) ?? []).filter((w) => /[A-Z]/.test(w) && /[a-z]/.test(w)).map((w) => w.toLowerCase());
}

/**
 * Whether the symmetric Chinese reading may speak for a memory: a question that names a thing ("Kafka 的分区数是多少")
 * is not answered by a paraphrase that never names it, however close the two sit in the model's space.
 */
export function mayReadSymmetric(query: string, text: string): boolean {
  const names = latinNames(query);
  const lower = text.toLowerCase();
  return names.length === 0 || names.some((n) => lower.includes(n));
}
