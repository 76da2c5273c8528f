import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { HindsightError } from "../core/errors.js";
import type { Reranker } from "../core/ports.js";

export const DEFAULT_RERANKER_MODEL = "Xenova/ms-marco-MiniLM-L-6-v2";

export interface TransformersRerankerOptions {
  modelId?: string;
  modelDir?: string;
  allowDownload?: boolean;
  cacheDir?: string;
  dtype?: "q8" | "fp32";
}

interface Loaded {
  tokenize: (queries: string[], options: { text_pair: string[]; padding: boolean; truncation: boolean }) => unknown;
  run: (inputs: unknown) => Promise<{ logits: { data: Float32Array | number[]; dims: number[] } }>;
}

/** Is a cross-encoder available without asking the network: the model folder holds it. */
export function rerankerIsLocal(modelDir: string | undefined, modelId = DEFAULT_RERANKER_MODEL): boolean {
  return modelDir !== undefined && existsSync(join(resolve(modelDir), modelId, "config.json"));
}

/**
 * A transformers.js cross-encoder (ms-marco MiniLM by default): one relevance in [0, 1] per
 * (query, document) pair, the sigmoid of the model's logit. Loaded on first use.
 */
export class TransformersReranker implements Reranker {
  readonly id: string;
  readonly kind = "cross-encoder" as const;
  private loading: Promise<Loaded> | null = null;

  constructor(private readonly options: TransformersRerankerOptions = {}) {
    this.id = options.modelId ?? DEFAULT_RERANKER_MODEL;
  }

  async warm(): Promise<void> {
    await this.load();
  }

  async score(query: string, documents: string[]): Promise<number[]> {
    if (documents.length === 0) return [];
    const { tokenize, run } = await this.load();
    const inputs = tokenize(
      documents.map(() => query),
      { text_pair: documents, padding: true, truncation: true },
    );
    const { logits } = await run(inputs);
    const width = logits.dims[logits.dims.length - 1] ?? 1;
    return documents.map((_, i) => 1 / (1 + Math.exp(-Number(logits.data[i * width]))));
  }

  private load(): Promise<Loaded> {
    this.loading ??= this.doLoad().catch((err: unknown) => {
      this.loading = null;
      throw err;
    });
    return this.loading;
  }

  private async doLoad(): Promise<Loaded> {
    const { env, AutoTokenizer, AutoModelForSequenceClassification } = await import("@huggingface/transformers");
    const local = rerankerIsLocal(this.options.modelDir, this.id);
    if (this.options.modelDir) env.localModelPath = `${resolve(this.options.modelDir)}/`;
    if (this.options.cacheDir) env.cacheDir = this.options.cacheDir;
    env.allowRemoteModels = !local && (this.options.allowDownload ?? false);
    if (!local && !env.allowRemoteModels) {
      throw new HindsightError(
        "MODEL_UNAVAILABLE",
        `the cross-encoder ${this.id} is not in ${this.options.modelDir ?? "the model folder (HINDSIGHT_MODEL_DIR is not set)"}; put it there or set HINDSIGHT_ALLOW_DOWNLOAD=1`,
      );
    }
    try {
      const tokenizer = await AutoTokenizer.from_pretrained(this.id);
      const model = await AutoModelForSequenceClassification.from_pretrained(this.id, {
        dtype: this.options.dtype ?? "q8",
        session_options: { intraOpNumThreads: 1, interOpNumThreads: 1 },
      });
      return {
        tokenize: (q, o) => tokenizer(q, o),
        run: (inputs) => model(inputs as Record<string, unknown>) as Promise<{ logits: { data: Float32Array; dims: number[] } }>,
      };
    } catch (err) {
      throw new HindsightError("MODEL_UNAVAILABLE", `cannot load the cross-encoder ${this.id}: ${(err as Error).message}`, { cause: err });
    }
  }
}
