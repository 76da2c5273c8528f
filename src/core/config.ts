import { z } from "zod";
import { parseInput } from "./validate.js";

const Weight = z.number().min(0).max(1);
const Lambda = z.number().min(0).max(10);

export const EngineConfigSchema = z.object({
  /** final = relevance·w.relevance + confidence·w.confidence + time_decay·w.timeDecay + access_boost·w.access */
  weights: z
    .object({ relevance: Weight, confidence: Weight, timeDecay: Weight, access: Weight })
    .default({ relevance: 0.6, confidence: 0.2, timeDecay: 0.15, access: 0.05 }),
  /** time_decay = exp(-λ·days since the memory was last stated); long-lived kinds decay slowly. */
  decayPerDay: z
    .object({ preference: Lambda, fact: Lambda, constraint: Lambda, task_state: Lambda, event: Lambda })
    .default({ preference: 0.005, fact: 0.01, constraint: 0.005, task_state: 0.1, event: 0.02 }),
  /** access_boost = 1 - exp(-access_count / accessScale) */
  accessScale: z.number().positive().default(5),
  recall: z
    .object({
      defaultK: z.number().int().min(1).max(50).default(5),
      vectorCandidates: z.number().int().min(1).max(200).default(20),
      textCandidates: z.number().int().min(1).max(200).default(20),
      /** Candidates whose evidence of relevance is below this are dropped: an unrelated query recalls nothing. */
      relevanceFloor: z.number().min(0).max(1).default(0.3),
      /** Cosine similarity mapped to [0,1] evidence: (cos - low) / (high - low). */
      cosineLow: z.number().min(-1).max(1).default(0.15),
      cosineHigh: z.number().min(-1).max(1).default(0.65),
      /** Blend of the fused relevance: vector evidence, full-text rank evidence, query-term coverage. */
      fusion: z
        .object({ vector: Weight, fullText: Weight, coverage: Weight })
        .default({ vector: 0.55, fullText: 0.25, coverage: 0.2 }),
      fallbackToL0: z.boolean().default(true),
    })
    .default({
      defaultK: 5,
      vectorCandidates: 20,
      textCandidates: 20,
      relevanceFloor: 0.3,
      cosineLow: 0.15,
      cosineHigh: 0.65,
      fusion: { vector: 0.55, fullText: 0.25, coverage: 0.2 },
      fallbackToL0: true,
    }),
  write: z
    .object({
      /** Same scope and type with at least this similarity and no changed value: a restatement. */
      dedupSimilarity: z.number().min(0).max(1).default(0.9),
      /** Below this similarity two statements are about different things and cannot contradict. */
      topicSimilarity: z.number().min(0).max(1).default(0.62),
      /** Same, for CJK text (lexical Dice over character bigrams). */
      topicSimilarityCjk: z.number().min(0).max(1).default(0.4),
      /** Contradictions closer in time than this with equal confidence are undecidable: both stay, flagged. */
      tieWindowMs: z.number().int().min(0).default(60_000),
      defaultConfidence: z.number().min(0).max(1).default(0.8),
      /** Extracted memories below this confidence go to L2 (episodic) only. */
      l3MinConfidence: z.number().min(0).max(1).default(0.6),
      /** Longest extracted memory, in characters (CJK characters count three). */
      maxMemoryChars: z.number().int().min(40).max(4000).default(240),
    })
    .default({
      dedupSimilarity: 0.9,
      topicSimilarity: 0.62,
      topicSimilarityCjk: 0.4,
      tieWindowMs: 60_000,
      defaultConfidence: 0.8,
      l3MinConfidence: 0.6,
      maxMemoryChars: 240,
    }),
  defaultScope: z.string().default("project:default"),
  /** Who is acting, recorded in the audit log. */
  actor: z.string().default("engine"),
});

export type EngineConfig = z.output<typeof EngineConfigSchema>;
export type EngineConfigInput = z.input<typeof EngineConfigSchema>;

export function resolveConfig(input: unknown = {}): EngineConfig {
  return parseInput(EngineConfigSchema, input, "config");
}
