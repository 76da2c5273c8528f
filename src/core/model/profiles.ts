import type { EngineConfig } from "../config.js";
import { isMostlyCjk } from "../text/cjk.js";

/**
 * What the engine must know about an embedding model to read its similarities. Cosines are not
 * comparable across models: E5's unrelated pairs sit at 0.75-0.85 where MiniLM's sit near 0.1, so
 * every threshold belongs to the model, fitted on our own cases (`hindsight bench thresholds`).
 */
export interface ModelProfile {
  /** Text put before a query and a stored passage: how the model was trained (E5: "query: " / "passage: "). */
  queryPrefix: string;
  passagePrefix: string;
  /** Its vectors carry meaning for Chinese text (an English vocabulary maps CJK to [UNK]). */
  readsCjk: boolean;
  /** Same scope and type, this close, no changed value: a restatement. */
  dedupSimilarity: number;
  /** Below this two statements are about different things. */
  topicSimilarity: number;
  /** A statement this close with a changed value restates the same thing with a new value. */
  restatementSimilarity: number;
  /** Two statements this close with different values, said within the tie window, are reported as a possible conflict (both stay). */
  conflictSimilarity: number;
  /** Loosest closeness at which a memory holding a value another statement names is about the same thing. */
  namedValueTopic: number;
  /** Cosine mapped to relevance evidence: (cos - low) / (high - low). */
  cosineLow: number;
  cosineHigh: number;
  /** Added to both ends when query and memory are both Chinese: E5 puts unrelated Chinese pairs about 0.08 closer than English ones. */
  cjkCosineShift: number;
  /** Added to both ends when one side is Chinese and the other is not: E5 puts even related cross-language pairs lower (unrelated ~0.71-0.76, related 0.77-0.86). */
  crossLanguageShift: number;
  /**
   * Chinese query and Chinese memory: read the memory as a query too (E5's symmetric mode) and map
   * (cos - this) / (high - low). Asymmetric Chinese cosines of unrelated and paraphrased pairs
   * overlap (0.85-0.87 both); read symmetrically a paraphrase stands above them. Undefined: not used.
   */
  cjkSymmetricLow?: number;
  /** Two Chinese passages: similarity = 1 - (1 - cos)·stretch, so E5's unrelated Chinese pairs (~0.87) land where English ones do (~0.79). */
  cjkStretch: number;
  /**
   * An extracted statement with no value in it whose vector leans this much nearer chatter than durable
   * statements (write/chatter.ts) is dropped as chatter, read as it was said (first person). Undefined: the
   * model's neighbourhoods were not fitted, and only the rule gate decides. E5-small 0.015: leave-one-out on
   * the examples, 32 / 135 chatter caught and 0 / 137 durable dropped (at 0.02, 25 and 0; reading the
   * third-person rewrite as well, 0.02 caught 27 and dropped one).
   */
  chatterLean?: number;
}

export const MULTILINGUAL_E5_SMALL = "Xenova/multilingual-e5-small";
export const MINILM_L6 = "Xenova/all-MiniLM-L6-v2";

const MINILM: ModelProfile = {
  queryPrefix: "",
  passagePrefix: "",
  readsCjk: false,
  dedupSimilarity: 0.9,
  topicSimilarity: 0.62,
  restatementSimilarity: 0.85,
  conflictSimilarity: 0.85,
  namedValueTopic: 0.3,
  cosineLow: 0.15,
  cosineHigh: 0.65,
  cjkCosineShift: 0,
  crossLanguageShift: 0,
  cjkStretch: 1,
};

const E5_SMALL: ModelProfile = {
  queryPrefix: "query: ",
  passagePrefix: "passage: ",
  readsCjk: true,
  dedupSimilarity: 0.94,
  topicSimilarity: 0.87,
  restatementSimilarity: 0.96,
  conflictSimilarity: 0.925,
  namedValueTopic: 0.8,
  cosineLow: 0.76,
  cosineHigh: 0.88,
  cjkCosineShift: 0.08,
  crossLanguageShift: -0.03,
  cjkSymmetricLow: 0.828,
  cjkStretch: 1.6,
  chatterLean: 0.015,
};

const PROFILES: Record<string, ModelProfile> = { [MINILM_L6]: MINILM, [MULTILINGUAL_E5_SMALL]: E5_SMALL };

/**
 * The profile of a model id; a model we have not fitted gets the family's profile when its name
 * says it is an E5 model, else MiniLM's (English, no prefixes) — every value can be overridden in config.
 */
export function profileFor(modelId: string): ModelProfile {
  const known = PROFILES[modelId];
  if (known) return known;
  return /(^|\/)(multilingual-)?e5-/i.test(modelId) ? E5_SMALL : MINILM;
}

export interface Thresholds extends ModelProfile {
  modelId: string;
}

/** The model's profile with what the configuration sets explicitly on top. */
export function thresholds(config: EngineConfig, modelId: string): Thresholds {
  const p = profileFor(modelId);
  return {
    ...p,
    modelId,
    dedupSimilarity: config.write.dedupSimilarity ?? p.dedupSimilarity,
    topicSimilarity: config.write.topicSimilarity ?? p.topicSimilarity,
    cosineLow: config.recall.cosineLow ?? p.cosineLow,
    cosineHigh: config.recall.cosineHigh ?? p.cosineHigh,
  };
}

/** The vectors say nothing about this text for this model: callers use lexical evidence instead. */
export function unreadable(text: string, t: Pick<ModelProfile, "readsCjk">): boolean {
  return !t.readsCjk && isMostlyCjk(text);
}
