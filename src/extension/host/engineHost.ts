// The heavy half of the extension, bundled on its own (dist/engineHost.js) and loaded on first use:
// activation must not load LanceDB, ONNX or the model.
import { performance } from "node:perf_hooks";
import { join } from "node:path";
import type { EngineConfigInput } from "../../core/config.js";
import { MemoryEngine } from "../../core/engine.js";
import type { LlmClient, Logger } from "../../core/ports.js";
import { OpenAiCompatibleClient } from "../../llm/openaiCompatible.js";
import { buildProfile } from "../../core/ops/profile.js";
import { localReranker } from "../../models/rerankers.js";
import { DEFAULT_EMBEDDING_MODEL, TransformersEmbedder } from "../../models/transformersEmbedder.js";
import { systemClock } from "../../server/runtime.js";
import { OwnerLock } from "../../server/ownerLock.js";
import { startServer, type RunningServer } from "../../server/serve.js";
import { upkeepLog } from "../../server/storeFactory.js";
import { LanceStore } from "../../stores/lancedb/lanceStore.js";

export interface LocalMemoryOptions {
  storePath: string;
  /** Folder with local models (transformers.js layout); undefined: download into cacheDir when allowed. */
  modelPath: string | undefined;
  /** Embedding model id (transformers.js); undefined: the engine's default (multilingual E5). */
  modelId?: string;
  allowDownload: boolean;
  /** A Hugging Face–compatible mirror (empty: the hub). */
  remoteHost?: string;
  cacheDir: string;
  config: EngineConfigInput;
  /** 0: a free port. */
  port: number;
  /** Bearer tokens the server accepts (the session token, and the long-lived one for other agents). */
  tokens: string[];
  logger: Logger;
  llm: LlmClient | null;
  onDownload?: (file: string, percent: number) => void;
}

/** The engine, its store and the loopback server, as one unit the extension starts and stops. */
export interface LocalMemory {
  engine: MemoryEngine;
  server: RunningServer;
  /** The profile markdown of a scope (pinned, high-confidence constraints and preferences). */
  profile(scope: string): Promise<string>;
  close(): Promise<void>;
}

export async function startLocalMemory(o: LocalMemoryOptions): Promise<LocalMemory> {
  const embedder = new TransformersEmbedder({
    ...(o.modelId ? { modelId: o.modelId } : {}),
    ...(o.modelPath ? { modelDir: o.modelPath } : {}),
    allowDownload: o.allowDownload,
    cacheDir: o.cacheDir,
    ...(o.remoteHost ? { remoteHost: o.remoteHost } : {}),
    ...(o.onDownload ? { onProgress: o.onDownload } : {}),
  });
  const reranker = localReranker({ embeddingModel: o.modelId ?? DEFAULT_EMBEDDING_MODEL, modelDir: o.modelPath, cacheDir: o.cacheDir, allowDownload: false });
  // The editor owns the store while it runs: `hindsight mcp` and the CLI become its clients.
  const lock = await OwnerLock.acquire(o.storePath, "vscode");
  const store = new LanceStore({ dir: o.storePath, ...upkeepLog(o.logger) });
  const engine = new MemoryEngine(
    { store, embedder, clock: systemClock, logger: o.logger, llm: o.llm, reranker, timer: () => performance.now() },
    o.config,
  );
  let server: RunningServer;
  try {
    await engine.open();
    server = await startServer({ engine, tokens: o.tokens, port: o.port, host: "127.0.0.1", rate: 0, logger: o.logger });
    await lock.publish(server.url, o.tokens[0] as string);
  } catch (err) {
    await engine.close().catch(() => undefined);
    await lock.release();
    if ((err as NodeJS.ErrnoException).code === "EADDRINUSE") {
      throw new Error(`port ${o.port} on 127.0.0.1 is in use: set hindsight.server.port to another port, or to 0 for a free one`, { cause: err });
    }
    throw err;
  }
  return {
    engine,
    server,
    profile: (scope) => buildProfile(engine, scope),
    close: async () => {
      try {
        await server.close();
        await engine.close();
      } finally {
        await lock.release();
      }
    },
  };
}

/** An OpenAI-compatible client for the configured endpoint (lives here so the light bundle stays light). */
export function endpointLlm(baseUrl: string, model: string, apiKey: string | undefined): LlmClient {
  return new OpenAiCompatibleClient({ baseUrl, model, ...(apiKey ? { apiKey } : {}) });
}

export const modelCacheDir = (globalStorage: string): string => join(globalStorage, "models");
