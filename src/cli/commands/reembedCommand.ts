import { parseArgs } from "node:util";
import { MemoryEngine } from "../../core/engine.js";
import { OwnerLock } from "../../server/ownerLock.js";
import { embedderFromEnv, systemClock } from "../../server/runtime.js";
import { LanceStore } from "../../stores/lancedb/lanceStore.js";
import { print, printJson } from "../output.js";
import { storeDir } from "./engineSession.js";

/**
 * Rewrites every stored vector with the configured embedding model (after changing HINDSIGHT_MODEL).
 * It needs the store to itself (STORE_LOCKED names the owner to stop first); the new tables become
 * current in one step, so an interrupted run leaves the old store as it was.
 */
export async function reembedCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { data: { type: "string" }, json: { type: "boolean" } } });
  const dir = storeDir(values);
  const lock = await OwnerLock.acquire(dir, "reembed");
  try {
    const store = new LanceStore({ dir });
    const embedder = embedderFromEnv();
    const before = await store.storedModel();
    const counts = await MemoryEngine.reembedStore(store, embedder, systemClock);
    const after = await embedder.info();
    await store.close();
    if (values.json) printJson({ memories: counts.memories, turns: counts.turns, from: before?.id ?? null, to: after.id });
    else print(`re-embedded ${counts.memories} memories and ${counts.turns} turns: ${before?.id ?? "(empty store)"} -> ${after.id}`);
    return 0;
  } finally {
    await lock.release();
  }
}
