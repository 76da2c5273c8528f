import type { EngineConfig } from "../config.js";
import { isMostlyCjk } from "../text/cjk.js";
import { contentTokenSet, coverage } from "../text/tokens.js";
import { clamp01, cosine } from "../text/vector.js";

export interface QueryFeatures {
  text: string;
  vector: Float32Array;
  tokens: Set<string>;
  /** The embedding model cannot read CJK: vector evidence is ignored for such queries. */
  cjk: boolean;
}

export function queryFeatures(text: string, vector: Float32Array): QueryFeatures {
  return { text, vector, tokens: contentTokenSet(text), cjk: isMostlyCjk(text) };
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
}

/**
 * Relevance without a cross-encoder: calibrated cosine, full-text rank and term coverage fused.
 * Rank-relative full text orders candidates; the floor uses only absolute evidence (cosine,
 * coverage) so an unrelated query cannot pass it by being the best of a bad lot.
 */
export function fuseRelevance(q: QueryFeatures, text: string, vector: Float32Array, fullTextNorm: number, config: EngineConfig): RelevanceParts {
  const r = config.recall;
  const cov = coverage(q.tokens, contentTokenSet(text));
  const docCjk = isMostlyCjk(text);
  const cos = q.cjk || docCjk ? 0 : cosine(q.vector, vector);
  const cosCal = clamp01((cos - r.cosineLow) / (r.cosineHigh - r.cosineLow));
  if (q.cjk || docCjk) {
    const relevance = 0.5 * cov + 0.5 * fullTextNorm * Math.min(1, cov * 2);
    return { cosine: cos, fullText: fullTextNorm, coverage: cov, relevance, evidence: cov };
  }
  const f = r.fusion;
  const total = f.vector + f.fullText + f.coverage || 1;
  const relevance = (f.vector * cosCal + f.fullText * fullTextNorm + f.coverage * cov) / total;
  return { cosine: cos, fullText: fullTextNorm, coverage: cov, relevance, evidence: Math.max(cosCal, cov * 0.9) };
}
