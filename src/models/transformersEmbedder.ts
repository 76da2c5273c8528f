import { availableParallelism } from "node:os";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { HindsightError } from "../core/errors.js";
import { MULTILINGUAL_E5_SMALL, profileFor } from "../core/model/profiles.js";
import type { EmbedKind, Embedder, ModelInfo } from "../core/ports.js";

/** Multilingual by default: Chinese and English memories are found by meaning, and across languages. */
export const DEFAULT_EMBEDDING_MODEL = MULTILINGUAL_E5_SMALL;

export interface TransformersEmbedderOptions {
  modelId?: string;
  /** Folder holding `<modelId>/config.json`, `tokenizer.json`, `onnx/…` (transformers.js localModelPath layout). */
  modelDir?: string;
  /** Download from the Hugging Face hub when the model is not in modelDir. */
  allowDownload?: boolean;
  /** Where downloads are cached. */
  cacheDir?: string;
  /** ONNX weights variant; "q8" is the int8 model_quantized.onnx. */
  dtype?: "q8" | "fp32" | "fp16" | "q4";
  /**
   * Texts per inference. Default 1: the int8 models quantize activations per tensor, over the whole
   * batch, so a text's vector moved with whatever it was embedded beside (cosine 0.997 to itself
   * alone, E5-small) — a memory's vector, and every threshold read on it, depended on timing. One at
   * a time costs ~1.7× on bulk embedding (64 sentences: 610 ms against 357 ms batched), nothing on a
   * query.
   */
  batchSize?: number;
  /**
   * ONNX intra-op threads. Default: two where there are two cores. A query embedding is most of a
   * recall and nothing else runs while it does: on a 2-core machine one E5-small query took 14.4 ms on
   * one thread and 11.4 ms on two; recall at 10k memories p50/p95 55/83 ms against 47/63 ms.
   */
  threads?: number;
  /** A Hugging Face–compatible mirror to download from instead of https://huggingface.co/ (corporate proxies, air-gapped mirrors). */
  remoteHost?: string;
  /** Download progress (file name, percent), for a progress bar. */
  onProgress?: (file: string, percent: number) => void;
}

type FeatureExtractor = (texts: string[], options: { pooling: "mean"; normalize: boolean }) => Promise<{ data: Float32Array; dims: number[] }>;

/** Mean-pooled, L2-normalised sentence embeddings with transformers.js (ONNX on the CPU), batched. */
export class TransformersEmbedder implements Embedder {
  private readonly modelId: string;
  private loading: Promise<{ extract: FeatureExtractor; info: ModelInfo }> | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: TransformersEmbedderOptions = {}) {
    this.modelId = options.modelId ?? DEFAULT_EMBEDDING_MODEL;
  }

  async info(): Promise<ModelInfo> {
    return (await this.load()).info;
  }

  async embed(input: string[], kind: EmbedKind = "passage"): Promise<Float32Array[]> {
    if (input.length === 0) return [];
    const { extract, info } = await this.load();
    const profile = profileFor(this.modelId);
    const prefix = kind === "query" ? profile.queryPrefix : profile.passagePrefix;
    const texts = prefix === "" ? input : input.map((t) => prefix + t);
    const batch = this.options.batchSize ?? 1;
    const run = async () => {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batch) {
        const chunk = texts.slice(i, i + batch);
        const t = await extract(chunk, { pooling: "mean", normalize: true });
        for (let j = 0; j < chunk.length; j++) out.push(t.data.slice(j * info.dimension, (j + 1) * info.dimension));
      }
      return out;
    };
    // One inference at a time: ONNX already uses every core, and interleaving only adds latency.
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private load(): Promise<{ extract: FeatureExtractor; info: ModelInfo }> {
    this.loading ??= this.doLoad().catch((err: unknown) => {
      this.loading = null;
      throw err;
    });
    return this.loading;
  }

  private async doLoad(): Promise<{ extract: FeatureExtractor; info: ModelInfo }> {
    const { env, pipeline } = await import("@huggingface/transformers");
    const modelDir = this.options.modelDir ? resolve(this.options.modelDir) : undefined;
    const local = modelDir !== undefined && existsSync(join(modelDir, this.modelId, "config.json"));
    const allowDownload = this.options.allowDownload ?? modelDir === undefined;
    if (modelDir) env.localModelPath = modelDir.endsWith("/") ? modelDir : `${modelDir}/`;
    if (this.options.cacheDir) env.cacheDir = this.options.cacheDir;
    if (this.options.remoteHost) env.remoteHost = this.options.remoteHost.endsWith("/") ? this.options.remoteHost : `${this.options.remoteHost}/`;
    // transformers.js settings are process-wide: without a folder of our own, an earlier engine's folder must not answer.
    env.allowLocalModels = modelDir !== undefined;
    env.allowRemoteModels = !local && allowDownload;
    if (!local && !allowDownload) throw this.unavailable(modelDir, "it is not in the model folder and downloads are off");
    try {
      const progress = this.options.onProgress;
      const extract = (await pipeline("feature-extraction", this.modelId, {
        dtype: this.options.dtype ?? "q8",
        // ONNX worker threads spin after each run by default; on a small machine that steals the CPU
        // the vector search needs right after the query is embedded.
        session_options: { intraOpNumThreads: this.options.threads ?? Math.min(2, availableParallelism()), interOpNumThreads: 1, extra: { session: { intra_op: { allow_spinning: "0" } } } },
        ...(progress
          ? {
              progress_callback: (p: { status?: string; file?: string; progress?: number }) => {
                if (p.status === "progress" && p.file) progress(p.file, p.progress ?? 0);
              },
            }
          : {}),
      })) as unknown as FeatureExtractor;
      const probe = await extract(["dimension probe"], { pooling: "mean", normalize: true });
      const dimension = probe.dims[probe.dims.length - 1] ?? 0;
      return { extract, info: { id: this.modelId, dimension } };
    } catch (err) {
      throw this.unavailable(modelDir, (err as Error).message, err);
    }
  }

  private unavailable(modelDir: string | undefined, why: string, cause?: unknown): HindsightError {
    const where = modelDir ? `the model folder ${modelDir}` : "no model folder (HINDSIGHT_MODEL_DIR is not set)";
    return new HindsightError(
      "MODEL_UNAVAILABLE",
      `cannot load the embedding model ${this.modelId} from ${where}: ${why}. ` +
        `Set HINDSIGHT_MODEL_DIR to a folder that contains ${this.modelId}/config.json, tokenizer.json and onnx/model_quantized.onnx, ` +
        `or allow a download from the Hugging Face hub with HINDSIGHT_ALLOW_DOWNLOAD=1 (needs network access).`,
      { cause },
    );
  }
}
