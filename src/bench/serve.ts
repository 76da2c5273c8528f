// The benchmark measures what an MCP client sees, so it drives the server with the SDK's own client
// (src/mcp holds the SDK's server side; nothing here is imported by the server or the engine).
import { PassThrough } from "node:stream";
import { bridgeStdio, type BridgeSession } from "../mcp/bridge.js";
import { connectMcpHttp, connectMcpStreams, type McpToolClient } from "../mcp/client.js";
import { MemoryEngine } from "../core/engine.js";
import type { Clock, Embedder } from "../core/ports.js";
import type { LanceStore } from "../stores/lancedb/lanceStore.js";
import { syntheticMemory, syntheticQuery } from "./synthetic.js";
import { percentile } from "./perf.js";

export interface ServeBenchResult {
  n: number;
  mcp_recall_p50_ms: number;
  mcp_recall_p95_ms: number;
  mcp_write_p50_ms: number;
  mcp_write_p95_ms: number;
  /** Through `hindsight mcp`'s relay (stdio in, the owner's /mcp out), as another agent on the store reaches it. */
  relay_recall_p50_ms: number;
  relay_recall_p95_ms: number;
  relay_write_p50_ms: number;
  relay_write_p95_ms: number;
  engine_recall_p50_ms: number;
  engine_recall_p95_ms: number;
  engine_write_p50_ms: number;
  engine_write_p95_ms: number;
}

/** The HTTP server under test (src/server's startServer, passed in: bench does not depend on server). */
export type StartServer = (options: { engine: MemoryEngine; tokens: string[]; host: string; port: number; rate: number }) => Promise<{ url: string; close(graceMs?: number): Promise<void> }>;

export interface ServeBenchOptions {
  n: number;
  startServer: StartServer;
  embedder: Embedder;
  store: LanceStore;
  clock: Clock;
  recalls?: number;
  writes?: number;
  onProgress?: (message: string) => void;
}

const BENCH_TOKEN = "bench-serve-token-0123456789abcdef";

function summary(times: number[]): [number, number] {
  const sorted = [...times].sort((a, b) => a - b);
  return [Math.round(percentile(sorted, 0.5) * 10) / 10, Math.round(percentile(sorted, 0.95) * 10) / 10];
}

async function timed(count: number, op: (i: number) => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await op(i);
    times.push(performance.now() - t);
  }
  return times;
}

/**
 * The cost of the server: n synthetic memories bulk-imported into a fresh LanceDB store, the server
 * started in-process on 127.0.0.1:0, then memory_recall and memory_write timed warm through an MCP
 * client over streamable HTTP, and the same operations directly on the engine for comparison.
 */
export async function runServeBench(options: ServeBenchOptions): Promise<ServeBenchResult> {
  const { n, store } = options;
  const recalls = options.recalls ?? 200;
  const writes = options.writes ?? 100;
  const engine = new MemoryEngine({ store, embedder: options.embedder, clock: options.clock }, { defaultScope: "project:bench", actor: "bench" });
  await engine.open();
  let running: Awaited<ReturnType<StartServer>> | null = null;
  let client: McpToolClient | null = null;
  let relayed: McpToolClient | null = null;
  let relay: BridgeSession | null = null;
  try {
    for (let i = 0; i < n; i += 5000) {
      const batch = [];
      for (let j = i; j < Math.min(n, i + 5000); j++) batch.push(syntheticMemory(j));
      await engine.importMemories(batch);
      options.onProgress?.(`imported ${Math.min(n, i + 5000)} of ${n}`);
    }
    await store.optimize();

    running = await options.startServer({ engine, tokens: [BENCH_TOKEN], host: "127.0.0.1", port: 0, rate: 0 });
    client = await connectMcpHttp(running.url, BENCH_TOKEN, "hindsight-bench");
    const call = client.call;
    const toRelay = new PassThrough();
    const fromRelay = new PassThrough();
    const url = running.url;
    relay = await bridgeStdio({ scope: "project:bench", stdin: toRelay, stdout: fromRelay, connect: async () => ({ url, token: BENCH_TOKEN }) });
    relayed = await connectMcpStreams(fromRelay, toRelay, "hindsight-bench-relay");
    const viaRelay = relayed.call;

    // Warm both paths (model, caches, HTTP keep-alive) before timing.
    for (let i = 0; i < 20; i++) {
      await call("memory_recall", { query: syntheticQuery(i), k: 10 });
      await viaRelay("memory_recall", { query: syntheticQuery(i), k: 10 });
      await engine.recall({ query: syntheticQuery(i), k: 10 });
    }
    options.onProgress?.("warm; timing recalls");
    const mcpRecall = await timed(recalls, (i) => call("memory_recall", { query: syntheticQuery(i + 7), k: 10 }));
    const relayRecall = await timed(recalls, (i) => viaRelay("memory_recall", { query: syntheticQuery(i + 7), k: 10 }));
    const engineRecall = await timed(recalls, async (i) => {
      await engine.recall({ query: syntheticQuery(i + 7), k: 10 });
    });
    options.onProgress?.("timing writes");
    // New, distinct memories (indexes past the imported ones) through the full write path.
    const mcpWrite = await timed(writes, (i) => call("memory_write", syntheticMemory(n + i) as unknown as Record<string, unknown>));
    const relayWrite = await timed(writes, (i) => viaRelay("memory_write", syntheticMemory(n + writes + i) as unknown as Record<string, unknown>));
    const engineWrite = await timed(writes, async (i) => {
      await engine.write(syntheticMemory(n + 2 * writes + i));
    });

    const [mr50, mr95] = summary(mcpRecall);
    const [mw50, mw95] = summary(mcpWrite);
    const [rr50, rr95] = summary(relayRecall);
    const [rw50, rw95] = summary(relayWrite);
    const [er50, er95] = summary(engineRecall);
    const [ew50, ew95] = summary(engineWrite);
    return {
      n,
      mcp_recall_p50_ms: mr50,
      mcp_recall_p95_ms: mr95,
      mcp_write_p50_ms: mw50,
      mcp_write_p95_ms: mw95,
      relay_recall_p50_ms: rr50,
      relay_recall_p95_ms: rr95,
      relay_write_p50_ms: rw50,
      relay_write_p95_ms: rw95,
      engine_recall_p50_ms: er50,
      engine_recall_p95_ms: er95,
      engine_write_p50_ms: ew50,
      engine_write_p95_ms: ew95,
    };
  } finally {
    await client?.close().catch(() => undefined);
    await relayed?.close().catch(() => undefined);
    await relay?.close().catch(() => undefined);
    await running?.close(500);
    await engine.close();
  }
}
