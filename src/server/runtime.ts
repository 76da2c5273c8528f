import { join } from "node:path";
import type { EngineConfigInput } from "../core/config.js";
import { MemoryEngine } from "../core/engine.js";
import type { Clock, Logger, MemoryStore } from "../core/ports.js";
import { llmClientFromEnv } from "../llm/openaiCompatible.js";
import { TransformersEmbedder } from "../models/transformersEmbedder.js";
import { DEFAULT_RERANKER_MODEL, TransformersReranker, rerankerIsLocal } from "../models/transformersReranker.js";
import { LanceStore } from "../stores/lancedb/lanceStore.js";
import { defaultHome, defaultModelDir } from "./paths.js";

export const systemClock: Clock = { now: () => Date.now() };

/** Logs to stderr only: stdout belongs to command output (and to the MCP protocol in stdio mode). */
export function stderrLogger(verbose: boolean): Logger {
  const log = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    process.stderr.write(`[hindsight] ${level} ${message}${fields ? ` ${JSON.stringify(fields)}` : ""}\n`);
  };
  const quiet = () => undefined;
  return { debug: verbose ? log("debug") : quiet, info: verbose ? log("info") : quiet, warn: log("warn"), error: log("error") };
}

export function embedderFromEnv(env: NodeJS.ProcessEnv = process.env): TransformersEmbedder {
  const modelDir = defaultModelDir(env);
  return new TransformersEmbedder({
    ...(env.HINDSIGHT_MODEL ? { modelId: env.HINDSIGHT_MODEL } : {}),
    ...(modelDir ? { modelDir } : {}),
    allowDownload: env.HINDSIGHT_ALLOW_DOWNLOAD === "1" || modelDir === undefined,
    cacheDir: join(defaultHome(env), "models"),
  });
}

/**
 * The cross-encoder when it can be had without surprise: in the model folder, or downloadable when
 * downloads are allowed (HINDSIGHT_ALLOW_DOWNLOAD=1); otherwise recall uses fused relevance.
 * HINDSIGHT_RERANKER=off disables it, HINDSIGHT_RERANKER=<model id> picks another one.
 */
export function rerankerFromEnv(env: NodeJS.ProcessEnv = process.env): TransformersReranker | null {
  if (env.HINDSIGHT_RERANKER === "off") return null;
  const modelId = env.HINDSIGHT_RERANKER || DEFAULT_RERANKER_MODEL;
  const modelDir = defaultModelDir(env);
  const allowDownload = env.HINDSIGHT_ALLOW_DOWNLOAD === "1";
  if (!rerankerIsLocal(modelDir, modelId) && !allowDownload) return null;
  return new TransformersReranker({ modelId, ...(modelDir ? { modelDir } : {}), allowDownload, cacheDir: join(defaultHome(env), "models") });
}

export interface LocalEngineOptions {
  dataDir?: string;
  scope: string;
  config?: EngineConfigInput;
  verbose?: boolean;
}

/** The embedded default: LanceDB under the data folder, the local embedding model, the system clock. */
export async function openLocalEngine(options: LocalEngineOptions): Promise<{ engine: MemoryEngine; store: LanceStore }> {
  const dir = options.dataDir ?? join(defaultHome(), "store");
  const store = new LanceStore({ dir });
  const engine = await openEngineOn(store, options);
  return { engine, store };
}

/** The engine over any store (LanceDB, Qdrant) with the local embedding model, the optional LLM and reranker, the system clock. */
export async function openEngineOn(store: MemoryStore, options: Omit<LocalEngineOptions, "dataDir">): Promise<MemoryEngine> {
  const engine = new MemoryEngine(
    {
      store,
      embedder: embedderFromEnv(),
      clock: systemClock,
      logger: stderrLogger(options.verbose ?? false),
      llm: llmClientFromEnv(process.env),
      reranker: rerankerFromEnv(process.env),
    },
    { ...options.config, defaultScope: options.scope, actor: "cli" },
  );
  await engine.open();
  return engine;
}
