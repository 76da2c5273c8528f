import type { EngineConfig } from "./config.js";
import type { VectorCache } from "./model/vectorCache.js";
import type { RecentMessages } from "./write/recentMessages.js";
import { thresholds, type Thresholds } from "./model/profiles.js";
import type { Clock, EmbedKind, Embedder, LlmClient, Logger, MemoryStore, ModelInfo, Reranker } from "./ports.js";

/** Everything a pipeline stage needs, resolved once when the engine opens. */
export interface EngineContext {
  store: MemoryStore;
  embedder: Embedder;
  clock: Clock;
  logger: Logger;
  config: EngineConfig;
  model: ModelInfo;
  reranker: Reranker | null;
  llm: LlmClient | null;
  newId: () => string;
  /** Last message heard per scope and session: an answer is only standalone with the question before it. */
  recentMessages: RecentMessages;
  /** Memory texts embedded as queries, for the symmetric reading of Chinese (ModelProfile.cjkSymmetricLow). */
  symmetric: VectorCache;
}

export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

export async function embedOne(ctx: EngineContext, text: string, kind: EmbedKind = "passage"): Promise<Float32Array> {
  const [v] = await ctx.embedder.embed([text], kind);
  if (!v) throw new Error("embedder returned no vector");
  return v;
}

/** Similarity thresholds for the model this engine reads vectors with, with configuration on top. */
export function thresholdsOf(ctx: Pick<EngineContext, "config" | "model">): Thresholds {
  return thresholds(ctx.config, ctx.model.id);
}
