import { join } from "node:path";
import type { EngineConfigInput } from "../../core/config.js";
import { MemoryEngine } from "../../core/engine.js";
import type { Embedder } from "../../core/ports.js";
import { SteppedClock } from "../../eval/runner.js";
import type { LanceStore } from "../../stores/lancedb/lanceStore.js";
import { syntheticMemory, syntheticQuery } from "../synthetic.js";
import { graphRecall, type GraphRecallMode } from "./graphRecall.js";
import type { StartHindsightMcp, StartKnowledgeGraph } from "./ports.js";
import { p50p95, round3, timed } from "./stats.js";
import { engineConfigOf, HINDSIGHT_MCP, isServerMemory, type LatencySystemId, type SystemId } from "./systems.js";

export interface LatencyRow {
  system: LatencySystemId;
  /** Memories in the store when timing began. */
  n: number;
  write_p50_ms: number;
  write_p95_ms: number;
  recall_p50_ms: number;
  recall_p95_ms: number;
  /** Share of the timed recalls that returned at least one result (a search that finds nothing is cheap). */
  recall_hit_rate: number;
}

export interface LatencyOptions {
  systems: SystemId[];
  /** Store sizes every selected system is timed at. */
  sizes: number[];
  /** Further sizes for hindsight (default configuration) alone. */
  hindsightSizes: number[];
  queries: number;
  writes: number;
  k: number;
  embedder: Embedder;
  workDir: string;
  openLanceStore: (dir: string) => LanceStore;
  startGraph?: StartKnowledgeGraph;
  startHindsightMcp?: StartHindsightMcp;
  onProgress?: (message: string) => void;
}

const SCOPE = "project:bench";
const WARMUP = 20;
const IMPORT_BATCH = 5000;
const GRAPH_BATCH = 1000;

interface Timings {
  write: number[];
  recall: number[];
  hits: number;
}

function row(system: LatencySystemId, n: number, t: Timings): LatencyRow {
  const w = p50p95(t.write);
  const r = p50p95(t.recall);
  return { system, n, write_p50_ms: w.p50, write_p95_ms: w.p95, recall_p50_ms: r.p50, recall_p95_ms: r.p95, recall_hit_rate: round3(t.recall.length === 0 ? 0 : t.hits / t.recall.length) };
}

/** Memories written while timing: past the bulk-loaded ones, a separate range per system so none is a duplicate. */
function writeIndex(n: number, slot: number, writes: number, i: number): number {
  return n + slot * writes + i;
}

/**
 * Write and recall latency on synthetic project memories (src/bench/synthetic.ts), warm, one call at
 * a time. Every system gets the same n memories, the same queries and the same k; writes are new
 * memories, one call each. hindsight stores are bulk-loaded once per size (importMemories) and each
 * configuration then runs on that folder in turn; the official server is filled with create_entities
 * in batches, then timed through its tools.
 */
export async function runLatencyCompare(options: LatencyOptions): Promise<LatencyRow[]> {
  const rows: LatencyRow[] = [];
  const engineSystems = options.systems.filter((s) => engineConfigOf(s) !== null);
  const graphModes = options.systems.filter(isServerMemory);
  const sizes = [...new Set([...options.sizes, ...options.hindsightSizes])].sort((a, b) => a - b);
  for (const n of sizes) {
    const everyone = options.sizes.includes(n);
    const engines = everyone ? engineSystems : engineSystems.filter((s) => s === "hindsight");
    if (engines.length > 0) rows.push(...(await timeEngines(options, n, engines, everyone && engines.includes("hindsight") && options.startHindsightMcp !== undefined)));
    if (everyone && graphModes.length > 0 && options.startGraph) rows.push(...(await timeGraph(options, n, graphModes, options.startGraph)));
  }
  return rows;
}

async function withEngine<T>(options: LatencyOptions, dir: string, config: EngineConfigInput, run: (engine: MemoryEngine, clock: SteppedClock) => Promise<T>): Promise<T> {
  const clock = new SteppedClock(Date.UTC(2026, 0, 2));
  const engine = new MemoryEngine({ store: options.openLanceStore(dir), embedder: options.embedder, clock }, { ...config, defaultScope: SCOPE, actor: "bench" });
  await engine.open();
  try {
    return await run(engine, clock);
  } finally {
    await engine.close();
  }
}

async function timeEngines(options: LatencyOptions, n: number, systems: SystemId[], viaMcp: boolean): Promise<LatencyRow[]> {
  const dir = join(options.workDir, `hindsight-${n}`);
  const progress = (m: string): void => options.onProgress?.(`latency n=${n}: ${m}`);
  await withEngine(options, dir, {}, async (engine) => {
    for (let i = 0; i < n; i += IMPORT_BATCH) {
      const batch = [];
      for (let j = i; j < Math.min(n, i + IMPORT_BATCH); j++) batch.push(syntheticMemory(j));
      await engine.importMemories(batch);
      progress(`imported ${Math.min(n, i + IMPORT_BATCH)}`);
    }
    if ((await engine.count()) !== n) throw new Error(`latency: the hindsight store holds ${await engine.count()} memories, expected ${n}`);
  });
  const optimize = options.openLanceStore(dir);
  await optimize.open(await options.embedder.info());
  await optimize.optimize();
  await optimize.close();

  const timings = new Map<LatencySystemId, Timings>();
  // Recalls first, on the store exactly as loaded; then writes, each system into its own range.
  for (const system of systems) {
    const t: Timings = { write: [], recall: [], hits: 0 };
    timings.set(system, t);
    await withEngine(options, dir, engineConfigOf(system) ?? {}, async (engine) => {
      for (let i = 0; i < WARMUP; i++) await engine.recall({ query: syntheticQuery(i), k: options.k });
      for (let i = 0; i < options.queries; i++) {
        const { ms, value } = await timed(() => engine.recall({ query: syntheticQuery(i + 7), k: options.k }));
        t.recall.push(ms);
        if (value.memories.length > 0) t.hits++;
      }
    });
    progress(`${system} recalls timed`);
  }
  if (viaMcp && options.startHindsightMcp) {
    const t: Timings = { write: [], recall: [], hits: 0 };
    timings.set(HINDSIGHT_MCP, t);
    const mcp = await options.startHindsightMcp(dir, SCOPE);
    try {
      for (let i = 0; i < WARMUP; i++) await mcp.recall(syntheticQuery(i), options.k);
      for (let i = 0; i < options.queries; i++) {
        const { ms, value } = await timed(() => mcp.recall(syntheticQuery(i + 7), options.k));
        t.recall.push(ms);
        if (value > 0) t.hits++;
      }
      for (let i = 0; i < options.writes; i++) {
        const m = syntheticMemory(writeIndex(n, systems.length, options.writes, i));
        t.write.push((await timed(() => mcp.write(m.content, m.type))).ms);
      }
    } finally {
      await mcp.close();
    }
    progress(`${HINDSIGHT_MCP} timed`);
  }
  for (const [slot, system] of systems.entries()) {
    const t = timings.get(system) as Timings;
    await withEngine(options, dir, engineConfigOf(system) ?? {}, async (engine, clock) => {
      for (let i = 0; i < options.writes; i++) {
        clock.set(clock.now() + 60_000);
        const m = syntheticMemory(writeIndex(n, slot, options.writes, i));
        t.write.push((await timed(() => engine.write(m))).ms);
      }
    });
    progress(`${system} writes timed`);
  }
  return [...timings.entries()].map(([system, t]) => row(system, n, t));
}

async function timeGraph(options: LatencyOptions, n: number, modes: Array<"server-memory" | "server-memory-keywords">, start: StartKnowledgeGraph): Promise<LatencyRow[]> {
  const graph = await start(join(options.workDir, `server-memory-${n}.jsonl`));
  const progress = (m: string): void => options.onProgress?.(`latency n=${n}: ${m}`);
  try {
    for (let i = 0; i < n; i += GRAPH_BATCH) {
      const batch = [];
      for (let j = i; j < Math.min(n, i + GRAPH_BATCH); j++) {
        const m = syntheticMemory(j);
        batch.push({ name: `memory ${j}`, entityType: m.type, observations: [m.content] });
      }
      await graph.createEntities(batch);
    }
    const held = (await graph.readGraph()).length;
    if (held !== n) throw new Error(`latency: server-memory holds ${held} entities, expected ${n}`);
    progress(`server-memory filled with ${n} entities`);
    const recalls = new Map<string, Timings>();
    for (const system of modes) {
      const mode: GraphRecallMode = system === "server-memory-keywords" ? "keywords" : "question";
      const t: Timings = { write: [], recall: [], hits: 0 };
      for (let i = 0; i < WARMUP; i++) await graphRecall(graph, syntheticQuery(i), options.k, mode);
      for (let i = 0; i < options.queries; i++) {
        const { ms, value } = await timed(() => graphRecall(graph, syntheticQuery(i + 7), options.k, mode));
        t.recall.push(ms);
        if (value.length > 0) t.hits++;
      }
      recalls.set(system, t);
      progress(`${system} recalls timed`);
    }
    // One write path serves both query styles: its timings belong to both rows.
    const writes: number[] = [];
    for (let i = 0; i < options.writes; i++) {
      const index = writeIndex(n, 0, options.writes, i);
      const m = syntheticMemory(index);
      const { ms, value } = await timed(() => graph.createEntities([{ name: `memory ${index}`, entityType: m.type, observations: [m.content] }]));
      if (value.length !== 1) throw new Error(`latency: server-memory did not store memory ${index}`);
      writes.push(ms);
    }
    progress("server-memory writes timed");
    const out = modes.map((system) => row(system, n, { ...(recalls.get(system) as Timings), write: writes }));
    return out;
  } finally {
    await graph.close();
  }
}
