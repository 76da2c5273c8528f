import { MINILM_L6 } from "../core/model/profiles.js";
import type { Reranker } from "../core/ports.js";
import { EmbeddingReranker } from "./embeddingReranker.js";
import { TransformersEmbedder } from "./transformersEmbedder.js";
import { DEFAULT_RERANKER_MODEL, TransformersReranker, rerankerIsLocal } from "./transformersReranker.js";

export interface RerankerChoice {
  /** The main embedding model: a second opinion from the same model would only repeat it. */
  embeddingModel: string;
  modelDir: string | undefined;
  cacheDir: string;
  allowDownload: boolean;
  /** "off", a cross-encoder's model id, or undefined for the default. */
  setting?: string | undefined;
}

/**
 * Stage 2 when it can be had without surprise: a cross-encoder in the model folder (or downloadable
 * when downloads are allowed), else the small English embedding model as a second opinion when it
 * is in the model folder and is not already the main model; otherwise none, and recall uses fused relevance.
 */
export function localReranker(c: RerankerChoice): Reranker | null {
  if (c.setting === "off") return null;
  const crossEncoder = c.setting || DEFAULT_RERANKER_MODEL;
  if (rerankerIsLocal(c.modelDir, crossEncoder) || c.allowDownload) {
    return new TransformersReranker({ modelId: crossEncoder, ...(c.modelDir ? { modelDir: c.modelDir } : {}), allowDownload: c.allowDownload, cacheDir: c.cacheDir });
  }
  if (c.embeddingModel === MINILM_L6 || !rerankerIsLocal(c.modelDir, MINILM_L6)) return null;
  // One thread: it reads the query while the main model does, and two models on two threads each fight
  // for two cores (recall at 10k memories p50/p95 52/72 ms against 47/63 ms with this one on one).
  const second = new TransformersEmbedder({ modelId: MINILM_L6, ...(c.modelDir ? { modelDir: c.modelDir } : {}), allowDownload: false, cacheDir: c.cacheDir, threads: 1 });
  return new EmbeddingReranker(MINILM_L6, second);
}
