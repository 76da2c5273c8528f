import { HindsightError } from "../core/errors.js";
import { join } from "node:path";
import type { EngineConfigInput } from "../core/config.js";
import { MemoryEngine } from "../core/engine.js";
import type { Clock, Logger, MemoryStore, RecallCache, Reranker, ScopeLeases } from "../core/ports.js";
import { llmClientFromEnv } from "../llm/openaiCompatible.js";
import { DEFAULT_EMBEDDING_MODEL, TransformersEmbedder } from "../models/transformersEmbedder.js";
import { localReranker } from "../models/rerankers.js";
import { LanceStore } from "../stores/lancedb/lanceStore.js";
import { OwnerLock } from "./ownerLock.js";
import { defaultHome, defaultModelDir } from "./paths.js";
import { upkeepLog } from "./storeFactory.js";

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
    ...(env.HINDSIGHT_EMBED_THREADS ? { threads: threadsOf(env.HINDSIGHT_EMBED_THREADS) } : {}),
  });
}

function threadsOf(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new HindsightError("INVALID_INPUT", "HINDSIGHT_EMBED_THREADS: must be a whole number from 1 to 64", { field: "HINDSIGHT_EMBED_THREADS" });
  return n;
}

/**
 * Stage 2 of recall (see models/rerankers.ts). HINDSIGHT_RERANKER=off disables it,
 * HINDSIGHT_RERANKER=<model id> picks a cross-encoder (downloaded when HINDSIGHT_ALLOW_DOWNLOAD=1).
 */
export function rerankerFromEnv(env: NodeJS.ProcessEnv = process.env): Reranker | null {
  return localReranker({
    embeddingModel: env.HINDSIGHT_MODEL || DEFAULT_EMBEDDING_MODEL,
    modelDir: defaultModelDir(env),
    cacheDir: join(defaultHome(env), "models"),
    allowDownload: env.HINDSIGHT_ALLOW_DOWNLOAD === "1",
    setting: env.HINDSIGHT_RERANKER,
  });
}

export interface LocalEngineOptions {
  dataDir?: string;
  scope: string;
  config?: EngineConfigInput;
  verbose?: boolean;
  /** Write leases shared with the other replicas on the same store (serve --redis-url). */
  leases?: ScopeLeases;
  /** Recall answers shared with the other replicas until their scope changes (serve --redis-url). */
  recallCache?: RecallCache;
}

/**
 * The embedded default opened by this process alone: the store folder's lock (STORE_LOCKED when
 * another process owns it), LanceDB under the data folder, the local model, the system clock.
 * `close` closes the engine and gives the folder up.
 */
export async function openLocalEngine(options: LocalEngineOptions & { role: string }): Promise<{ engine: MemoryEngine; store: LanceStore; close: () => Promise<void> }> {
  const dir = options.dataDir ?? join(defaultHome(), "store");
  const lock = await OwnerLock.acquire(dir, options.role);
  try {
    const store = new LanceStore({ dir, ...upkeepLog(stderrLogger(options.verbose ?? false)) });
    const engine = await openEngineOn(store, options);
    return {
      engine,
      store,
      close: async () => {
        try {
          await engine.close();
        } finally {
          await lock.release();
        }
      },
    };
  } catch (err) {
    await lock.release();
    throw err;
  }
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
      ...(options.leases ? { leases: options.leases } : {}),
      ...(options.recallCache ? { recallCache: options.recallCache } : {}),
    },
    { ...options.config, defaultScope: options.scope, actor: "cli" },
  );
  await engine.open();
  return engine;
}
