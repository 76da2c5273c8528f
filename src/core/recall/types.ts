import type { Layer, MemoryType } from "../model/memory.js";
import type { ScoreFactors } from "./score.js";

export interface RecalledMemory {
  id: string;
  /** "L0" for raw turns returned by the fallback. */
  layer: Layer | "L0";
  type: MemoryType | null;
  subject: string | null;
  content: string;
  confidence: number;
  score: number;
  factors: ScoreFactors;
  /**
   * Where relevance came from: a cross-encoder, fused vector/full-text evidence, or the words alone
   * ("full-text": the embedding model could not read the query or the memory, so no vector counted).
   */
  relevanceSource: "cross-encoder" | "bi-encoder" | "fused" | "full-text";
  createdAt: number;
  confirmedAt: number;
  validUntil: number | null;
  sourceTurns: string[];
  sourceRefs: string[];
  conflictsWith: string[];
}

export interface RecallConflict {
  ids: [string, string];
  subject: string;
  reason: string;
}

export interface RecallResult {
  query: string;
  scope: string;
  memories: RecalledMemory[];
  conflicts: RecallConflict[];
  /** True when nothing distilled was relevant and the answer came from raw L0 turns. */
  usedFallback: boolean;
  /** Ready-to-inject block for an agent's context. */
  text: string;
}
