import type { MemoryEngine } from "../../core/engine.js";
import { scopeForFolder } from "../../server/paths.js";
import { openLocalEngine } from "../../server/runtime.js";

/** Opens the embedded default engine for one command (scope from --scope or the current folder) and always closes it. */
export async function withEngine<T>(values: { scope?: string | undefined; data?: string | undefined; verbose?: boolean | undefined }, fn: (engine: MemoryEngine) => Promise<T>): Promise<T> {
  const { engine } = await openLocalEngine({
    scope: values.scope ?? scopeForFolder(process.cwd()),
    ...(values.data ? { dataDir: values.data } : {}),
    verbose: values.verbose ?? false,
  });
  try {
    return await fn(engine);
  } finally {
    await engine.close();
  }
}

