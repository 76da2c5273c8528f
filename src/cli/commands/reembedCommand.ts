import { join } from "node:path";
import { parseArgs } from "node:util";
import { MemoryEngine } from "../../core/engine.js";
import { defaultHome } from "../../server/paths.js";
import { embedderFromEnv, systemClock } from "../../server/runtime.js";
import { LanceStore } from "../../stores/lancedb/lanceStore.js";
import { print } from "../output.js";

/** Rewrites every stored vector with the configured embedding model (after changing HINDSIGHT_MODEL). */
export async function reembedCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { data: { type: "string" } } });
  const store = new LanceStore({ dir: values.data ?? join(defaultHome(), "store") });
  const embedder = embedderFromEnv();
  const before = await store.storedModel();
  const counts = await MemoryEngine.reembedStore(store, embedder, systemClock);
  const after = await embedder.info();
  await store.close();
  print(`re-embedded ${counts.memories} memories and ${counts.turns} turns: ${before?.id ?? "(empty store)"} -> ${after.id}`);
  return 0;
}
