import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { EngineConfigInput } from "../../core/config.js";
import type { Embedder, MemoryStore } from "../../core/ports.js";
import type { CasesFile } from "../../eval/cases.js";
import type { LanceStore } from "../../stores/lancedb/lanceStore.js";
import type { LocomoSample } from "../locomoData.js";
import { runLatencyCompare } from "./latencyCompare.js";
import { engineSubject, graphSubject, runLocomoCompare, type LocomoSubject } from "./locomoCompare.js";
import type { MachineInfo } from "./machine.js";
import type { StartHindsightMcp, StartKnowledgeGraph } from "./ports.js";
import { runSuiteOnEngine, runSuiteOnGraph, scoreSuite, type SuiteResult } from "./regressionCompare.js";
import type { CompareResult } from "./result.js";
import { engineConfigOf, HINDSIGHT_MCP, isServerMemory, SYSTEMS, type LatencySystemId, type SystemId } from "./systems.js";
import { checkTargets } from "./targets.js";

export interface CompareOptions {
  systems: SystemId[];
  locomo?: { file: string; samples: LocomoSample[]; conversations?: number; ks: number[] };
  regression?: Array<{ file: string; cases: CasesFile }>;
  latency?: { sizes: number[]; hindsightSizes: number[]; queries: number; writes: number; k: number };
  embedder: Embedder;
  /** Scratch folder for stores and memory files (emptied as each store is done with). */
  workDir: string;
  openLanceStore: (dir: string) => LanceStore;
  /** Needed when a server-memory system is selected. */
  startGraph?: StartKnowledgeGraph;
  /** hindsight over its own MCP stdio server, for transport-matched latency (optional). */
  startHindsightMcp?: StartHindsightMcp;
  command: string;
  machine: MachineInfo;
  now: () => Date;
  onProgress?: (message: string) => void;
}

/**
 * `hindsight bench compare`: every selected system on the same LoCoMo conversations, the same
 * regression cases and the same synthetic latency workload, in one run; targets judged from the numbers.
 */
export async function runCompare(options: CompareOptions): Promise<CompareResult> {
  const started = options.now();
  const t0 = performance.now();
  const engines = options.systems.filter((s) => engineConfigOf(s) !== null);
  const graphs = options.systems.filter(isServerMemory);
  if (graphs.length > 0 && !options.startGraph) throw new Error("bench compare: server-memory is selected but no way to start it was given");

  let storeCounter = 0;
  const dirs = new Map<MemoryStore, string>();
  const freshLance = async (name: string): Promise<MemoryStore> => {
    const dir = join(options.workDir, "stores", `${++storeCounter}-${name.replace(/[^a-z0-9_-]/gi, "_")}`);
    const store = options.openLanceStore(dir);
    dirs.set(store, dir);
    return store;
  };
  const dispose = async (store: MemoryStore): Promise<void> => {
    await store.close();
    const dir = dirs.get(store);
    dirs.delete(store);
    if (dir) await rm(dir, { recursive: true, force: true });
  };

  let locomo: CompareResult["locomo"] = null;
  if (options.locomo) {
    const lo = options.locomo;
    // Configurations that store alike (the reductions: every turn verbatim) share one ingest per conversation.
    const byWrite = new Map<string, Array<{ system: SystemId; config: EngineConfigInput }>>();
    for (const id of engines) {
      const config = engineConfigOf(id) ?? {};
      const key = JSON.stringify(config.write ?? {});
      byWrite.set(key, [...(byWrite.get(key) ?? []), { system: id, config }]);
    }
    const subjects: LocomoSubject[] = [...byWrite.values()].map((configs) => engineSubject(configs, { embedder: options.embedder, newStore: freshLance, disposeStore: dispose }));
    if (graphs.length > 0 && options.startGraph) subjects.push(graphSubject(graphs, options.startGraph, (sample) => join(options.workDir, "graphs", `locomo-${sample}-${++storeCounter}.jsonl`)));
    await mkdir(join(options.workDir, "graphs"), { recursive: true });
    const results = await runLocomoCompare(lo.samples, subjects, { ks: lo.ks, ...(lo.conversations ? { conversations: lo.conversations } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
    locomo = { file: lo.file, conversations: Math.min(lo.conversations ?? lo.samples.length, lo.samples.length), k: lo.ks, results: ordered(options.systems, results) };
    await rm(join(options.workDir, "stores"), { recursive: true, force: true });
  }

  let regression: CompareResult["regression"] = null;
  if (options.regression && options.regression.length > 0) {
    regression = [];
    for (const suite of options.regression) {
      const results: Partial<Record<SystemId, SuiteResult>> = {};
      for (const id of options.systems) {
        const config = engineConfigOf(id);
        if (config !== null) {
          results[id] = scoreSuite(await runSuiteOnEngine(suite.cases, { embedder: options.embedder, newStore: freshLance, disposeStore: dispose, config }));
        } else if (options.startGraph) {
          await mkdir(join(options.workDir, "graphs"), { recursive: true });
          const mode = id === "server-memory-keywords" ? "keywords" : "question";
          results[id] = scoreSuite(await runSuiteOnGraph(suite.cases, options.startGraph, (c, s) => join(options.workDir, "graphs", `case-${++storeCounter}-${c}-${s}.jsonl`), mode));
        }
        options.onProgress?.(`regression ${suite.file}: ${id} ${results[id]?.passed}/${results[id]?.expressible}`);
      }
      regression.push({ file: suite.file, cases: suite.cases.cases.length, results });
      await rm(join(options.workDir, "stores"), { recursive: true, force: true });
    }
  }

  let latency: CompareResult["latency"] = null;
  if (options.latency) {
    const l = options.latency;
    const dir = join(options.workDir, "latency");
    await mkdir(dir, { recursive: true });
    const rows = await runLatencyCompare({
      systems: options.systems,
      sizes: l.sizes,
      hindsightSizes: options.systems.includes("hindsight") ? l.hindsightSizes : [],
      queries: l.queries,
      writes: l.writes,
      k: l.k,
      embedder: options.embedder,
      workDir: dir,
      openLanceStore: options.openLanceStore,
      ...(options.startGraph ? { startGraph: options.startGraph } : {}),
      ...(options.startHindsightMcp ? { startHindsightMcp: options.startHindsightMcp } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    latency = { queries: l.queries, writes: l.writes, k: l.k, sizes: l.sizes, hindsight_sizes: l.hindsightSizes, rows };
    await rm(dir, { recursive: true, force: true });
  }

  const shown: LatencySystemId[] = [...options.systems, ...(latency?.rows.some((r) => r.system === HINDSIGHT_MCP) ? [HINDSIGHT_MCP as LatencySystemId] : [])];
  const base = {
    generated_at: started.toISOString(),
    command: options.command,
    machine: options.machine,
    systems: shown.map((id) => ({ id, label: SYSTEMS[id].label, description: SYSTEMS[id].description })),
    locomo,
    regression,
    latency,
    duration_s: Math.round((performance.now() - t0) / 1000),
    embedding_model: (await options.embedder.info()).id,
  };
  return { ...base, targets: checkTargets(base) };
}

/** Results keyed in the order the systems were asked for (JSON keeps insertion order; tables and charts follow it). */
function ordered<T>(systems: SystemId[], results: Partial<Record<SystemId, T>>): Partial<Record<SystemId, T>> {
  const out: Partial<Record<SystemId, T>> = {};
  for (const id of systems) if (results[id] !== undefined) out[id] = results[id];
  return out;
}
