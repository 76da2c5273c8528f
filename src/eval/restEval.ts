import type { MemoryApi } from "../core/memoryApi.js";
import { InMemoryStore } from "../stores/memory/memoryStore.js";
import { parseCasesFile, runCases, type EvalReport } from "./runner.js";

/**
 * The eval runner of POST /api/v1/eval: validates the posted cases file (CASES_INVALID naming the
 * field) and runs every case on a fresh InMemoryStore with the serving engine's embedder, so the
 * served store is never read or written. Pass it as `evaluate` to src/http/app.ts createHttpHandler.
 */
export async function evaluatePostedCases(casesFile: unknown, engine: MemoryApi): Promise<EvalReport> {
  const file = parseCasesFile(casesFile);
  return runCases(file, { embedder: engine.embedderForEval(), newStore: async () => new InMemoryStore() });
}
