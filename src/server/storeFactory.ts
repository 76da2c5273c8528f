import { HindsightError } from "../core/errors.js";
import type { MemoryStore } from "../core/ports.js";
import { LanceStore } from "../stores/lancedb/lanceStore.js";
import { QdrantStore } from "../stores/qdrant/qdrantStore.js";

export const STORE_KINDS = ["lancedb", "qdrant"] as const;

export interface StoreChoice {
  dataDir: string;
  qdrantUrl?: string | undefined;
  /** Read from QDRANT_API_KEY by the command: never a command-line argument (it would show in `ps`). */
  qdrantApiKey?: string | undefined;
  qdrantPrefix?: string | undefined;
}

/** The store behind a server: LanceDB in the data folder (one box), or a Qdrant server (a team's shared store). */
export function storeFor(kind: string, options: StoreChoice): { store: MemoryStore; where: string } {
  if (kind === "lancedb") return { store: new LanceStore({ dir: options.dataDir }), where: `LanceDB at ${options.dataDir}` };
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
