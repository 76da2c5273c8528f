import { HindsightError } from "../core/errors.js";
import type { Logger, MemoryStore } from "../core/ports.js";
import { LanceStore } from "../stores/lancedb/lanceStore.js";
import { QdrantStore } from "../stores/qdrant/qdrantStore.js";

export const STORE_KINDS = ["lancedb", "qdrant"] as const;

export interface StoreChoice {
  dataDir: string;
  qdrantUrl?: string | undefined;
  /** Read from QDRANT_API_KEY by the command: never a command-line argument (it would show in `ps`). */
  qdrantApiKey?: string | undefined;
  qdrantPrefix?: string | undefined;
  /** Told about store upkeep that failed after a write was stored (the write stays acknowledged). */
  logger?: Logger;
}

/** The store behind a server: LanceDB in the data folder (one box), or a Qdrant server (a team's shared store). */
export function storeFor(kind: string, options: StoreChoice): { store: MemoryStore; where: string } {
  if (kind === "lancedb") return { store: new LanceStore({ dir: options.dataDir, ...upkeepLog(options.logger) }), where: `LanceDB at ${options.dataDir}` };
  if (kind === "qdrant") {
    if (!options.qdrantUrl) {
      throw new HindsightError("INVALID_INPUT", "--qdrant-url: required with --store qdrant (or set HINDSIGHT_QDRANT_URL), e.g. http://qdrant:6333", { field: "--qdrant-url" });
    }
    const store = new QdrantStore({
      url: options.qdrantUrl,
      ...(options.qdrantApiKey ? { apiKey: options.qdrantApiKey } : {}),
      ...(options.qdrantPrefix ? { prefix: options.qdrantPrefix } : {}),
    });
    return { store, where: store.location };
  }
  throw new HindsightError("INVALID_INPUT", `--store: expected ${STORE_KINDS.join(" or ")}, got "${kind}"`, { field: "--store" });
}

/** LanceStore's upkeep failures, logged as warnings (the write before them is stored). */
export function upkeepLog(logger: Logger | undefined): { onMaintenanceError?: (error: unknown, table: string) => void } {
  return logger ? { onMaintenanceError: (error, table) => logger.warn("store upkeep failed; it is retried after the next write", { table, error: String(error) }) } : {};
}
