// The store the editor uses, opened in the owner process the extension starts (`hindsight owner`),
// never in the extension host: LanceDB, ONNX and the model live and die outside VS Code.
import { performance } from "node:perf_hooks";
import type { EngineConfigInput } from "../core/config.js";
import { MemoryEngine } from "../core/engine.js";
import { HindsightError } from "../core/errors.js";
import type { LlmClient, Logger } from "../core/ports.js";
import { localReranker } from "../models/rerankers.js";
import { DEFAULT_EMBEDDING_MODEL, TransformersEmbedder } from "../models/transformersEmbedder.js";
import { LanceStore } from "../stores/lancedb/lanceStore.js";
import { OwnerLock } from "./ownerLock.js";
import { systemClock } from "./runtime.js";
import { startServer, type RunningServer } from "./serve.js";
import { upkeepLog } from "./storeFactory.js";

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
  /** Bearer tokens the server accepts: the first is published in the lock for clients (the session token), then any others. */
  tokens: string[];
  logger: Logger;
  llm: LlmClient | null;
  onDownload?: (file: string, percent: number) => void;
}

/** The engine, its store and the loopback server, as one unit the owner process starts and stops. */
export interface LocalMemory {
  engine: MemoryEngine;
  server: RunningServer;
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
  // The editor's owner holds the store while the editor runs: `hindsight mcp` and the CLI become its clients.
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
    // The second opinion reads the store's memories while the owner waits for its first recalls.
    void engine.readAhead();
  } catch (err) {
    await engine.close().catch(() => undefined);
    await lock.release();
    if ((err as NodeJS.ErrnoException).code === "EADDRINUSE") {
      throw new HindsightError("ADDRESS_IN_USE", `port ${o.port} on 127.0.0.1 is in use: set hindsight.server.port to another port, or to 0 for a free one`, { cause: err });
    }
    throw err;
  }
  return {
    engine,
    server,
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
