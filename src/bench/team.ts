// Load on the team server as agents make it: several MCP clients, each with its own scoped token,
// recalling and writing at once for a fixed time; then every acknowledged write is looked up again.
import type { MemoryEngine } from "../core/engine.js";
import { connectMcpHttp, type McpToolClient } from "../mcp/client.js";
import { syntheticMemory, syntheticQuery } from "./synthetic.js";

/**
 * The server under test, started by the caller (bench does not depend on src/server): one token per
 * project asked for; `urls`: one per replica (clients are spread over them), the first also in `url`.
 * `cacheCounts`: the replicas' recall-cache hits and misses, when they share one.
 */
export type StartTeamServer = (
  projects: string[],
) => Promise<{ url: string; urls?: string[]; tokens: string[]; close(): Promise<void>; cacheCounts?: () => Promise<{ hits: number; misses: number }> }>;

export interface TeamBenchOptions {
  /** The served engine, opened (its store is seeded here before the clients start). */
  engine: MemoryEngine;
  serve: StartTeamServer;
  clients?: number;
  seconds?: number;
  /** Share of operations that are writes (the rest are recalls). */
  writeRatio?: number;
  /** Memories imported per project before the clock starts. */
  seed?: number;
  /** Clients share projects: client i works in project i % projects. */
  projects?: number;
  /**
   * Distinct questions per project (a team asks the same things again: "how do we deploy?"), drawn
   * with a skew towards the first ones; absent, every recall asks a new question.
   */
  questions?: number;
  onProgress?: (message: string) => void;
}

interface Written {
  client: number;
  project: string;
  content: string;
  id: string | null;
  action: string;
}

export interface TeamBenchResult {
  clients: number;
  projects: number;
  seconds: number;
  write_ratio: number;
  seeded_per_project: number;
  operations: number;
  recalls: number;
  writes: number;
  throughput_ops_per_s: number;
  recall_p50_ms: number;
  recall_p95_ms: number;
  write_p50_ms: number;
  write_p95_ms: number;
  all_p95_ms: number;
  errors: number;
  error_samples: string[];
  write_actions: Record<string, number>;
  /** Writes the server acknowledged with a memory id. */
  writes_acknowledged: number;
  /** Of those, found again afterwards with the content written (or the memory it was merged into). */
  writes_verified: number;
  writes_lost: number;
  /** The run was cut by the hard stop (something hung): the figures are partial. */
  hard_stopped: boolean;
  replicas: number;
  /** With repeated questions: the first ask of each question in the run, and the asks after it. */
  recall_first_p50_ms: number | null;
  recall_first_p95_ms: number | null;
  recall_repeat_p50_ms: number | null;
  recall_repeat_p95_ms: number | null;
  /** hits / (hits + misses) of the shared recall cache during the load, when there is one. */
  cache_hit_rate: number | null;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number) * 10) / 10;
}

/** A deterministic pseudo-random sequence per client (the mix is reproducible). */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}

/** One REST GET with the client's token (the verification pass; node's fetch). */
async function getJson(url: string, token: string): Promise<{ status: number; body: unknown }> {
  const r = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  return { status: r.status, body: await r.json().catch(() => null) };
}

/**
 * `clients` MCP clients over streamable HTTP (one scoped token each) run a mix of memory_recall and
 * memory_write for `seconds`, each op as soon as the previous one answered; then every write the
 * server acknowledged is read back over REST. Bounded: clients stop at the deadline, and a hard stop
 * (deadline + 60 s) ends the run even if a call hangs.
 */
export async function runTeamBench(options: TeamBenchOptions): Promise<TeamBenchResult> {
  const clients = options.clients ?? 4;
  const seconds = options.seconds ?? 120;
  const writeRatio = options.writeRatio ?? 0.3;
  const seed = options.seed ?? 500;
  const projectCount = Math.max(1, Math.min(options.projects ?? 2, clients));
  const projects = Array.from({ length: projectCount }, (_, i) => `project:bench-${i}`);
  const progress = options.onProgress ?? (() => undefined);

  for (const [p, project] of projects.entries()) {
    const batch = Array.from({ length: seed }, (_, i) => ({ ...syntheticMemory(p * 1_000_000 + i), scope: project }));
    for (let i = 0; i < batch.length; i += 1000) await options.engine.importMemories(batch.slice(i, i + 1000));
  }
  progress(`seeded ${seed} memories in each of ${projectCount} projects`);

  const server = await options.serve(projects);
  const urls = server.urls && server.urls.length > 0 ? server.urls : [server.url];
  const cacheBefore = server.cacheCounts ? await server.cacheCounts() : null;
  const asked = new Set<string>();
  const firstMs: number[] = [];
  const repeatMs: number[] = [];
  const mcp: McpToolClient[] = [];
  const recallMs: number[] = [];
  const writeMs: number[] = [];
  const written: Written[] = [];
  const errorSamples: string[] = [];
  let errors = 0;
  let hardStopped = false;
  try {
    for (let c = 0; c < clients; c++) mcp.push(await connectMcpHttp(urls[c % urls.length] as string, server.tokens[c % projectCount] as string, `bench-team-${c}`));
    progress(`${clients} clients connected; running ${seconds} s`);
    const started = performance.now();
    const deadline = started + seconds * 1000;

    const runClient = async (c: number): Promise<void> => {
      const client = mcp[c] as McpToolClient;
      const project = projects[c % projectCount] as string;
      const next = rng(c + 1);
      for (let i = 0; performance.now() < deadline && !hardStopped; i++) {
        const isWrite = next() < writeRatio;
        const t = performance.now();
        try {
          if (isWrite) {
            const m = syntheticMemory(10_000_000 + c * 100_000 + i);
            const content = `${m.content} (bench client ${c}, write ${i})`;
            const r = await client.callStructured("memory_write", { content, type: m.type });
            writeMs.push(performance.now() - t);
            written.push({ client: c, project, content, id: typeof r.id === "string" ? r.id : null, action: String(r.action) });
          } else {
            // A skewed draw (the square of a uniform one): the first questions come up most, as a team's usual ones do.
            const q = options.questions ? Math.floor(next() ** 2 * options.questions) : c * 1000 + i;
            await client.callStructured("memory_recall", { query: syntheticQuery(q), k: 10 });
            const ms = performance.now() - t;
            recallMs.push(ms);
            if (options.questions) {
              const key = `${project}\0${q}`;
              (asked.has(key) ? repeatMs : firstMs).push(ms);
              asked.add(key);
            }
          }
        } catch (err) {
          errors++;
          if (errorSamples.length < 5) errorSamples.push(`client ${c}: ${(err as Error).message}`);
        }
      }
    };

    let timer: NodeJS.Timeout | undefined;
    const hardStop = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        hardStopped = true;
        resolve();
      }, seconds * 1000 + 60_000);
    });
    await Promise.race([Promise.all(Array.from({ length: clients }, (_, c) => runClient(c))), hardStop]);
    clearTimeout(timer);
    const elapsed = (performance.now() - started) / 1000;
    progress(`load done after ${elapsed.toFixed(1)} s; verifying ${written.length} writes`);

    // Nothing written was lost: every acknowledged id is there, in its project, with what was written
    // (a write the engine merged into an existing memory names that memory: it must exist).
    let verified = 0;
    const acknowledged = written.filter((w) => w.id !== null);
    for (const w of acknowledged) {
      const token = server.tokens[projects.indexOf(w.project)] as string;
      const r = await getJson(`${server.url}/api/v1/memories/${encodeURIComponent(w.id as string)}`, token);
      const memory = (r.body as { memory?: { scope?: string; content?: string } } | null)?.memory;
      const sameContent = w.action === "added" || w.action === "superseded" ? memory?.content === w.content : true;
      if (r.status === 200 && memory?.scope === w.project && sameContent) verified++;
      else if (errorSamples.length < 10) errorSamples.push(`lost: ${w.action} ${w.id} (HTTP ${r.status})`);
    }

    const cacheAfter = server.cacheCounts ? await server.cacheCounts() : null;
    const cacheAsked = cacheBefore && cacheAfter ? cacheAfter.hits + cacheAfter.misses - cacheBefore.hits - cacheBefore.misses : 0;
    const fs = [...firstMs].sort((a, b) => a - b);
    const ps = [...repeatMs].sort((a, b) => a - b);
    const orNull = (xs: number[], p: number) => (xs.length > 0 ? percentile(xs, p) : null);
    const actions: Record<string, number> = {};
    for (const w of written) actions[w.action] = (actions[w.action] ?? 0) + 1;
    const rs = [...recallMs].sort((a, b) => a - b);
    const ws = [...writeMs].sort((a, b) => a - b);
    const all = [...recallMs, ...writeMs].sort((a, b) => a - b);
    return {
      clients,
      projects: projectCount,
      seconds: Math.round(elapsed * 10) / 10,
      write_ratio: writeRatio,
      seeded_per_project: seed,
      operations: all.length,
      recalls: rs.length,
      writes: ws.length,
      throughput_ops_per_s: Math.round((all.length / elapsed) * 10) / 10,
      recall_p50_ms: percentile(rs, 0.5),
      recall_p95_ms: percentile(rs, 0.95),
      write_p50_ms: percentile(ws, 0.5),
      write_p95_ms: percentile(ws, 0.95),
      all_p95_ms: percentile(all, 0.95),
      errors,
      error_samples: errorSamples,
      write_actions: actions,
      writes_acknowledged: acknowledged.length,
      writes_verified: verified,
      writes_lost: acknowledged.length - verified,
      hard_stopped: hardStopped,
      replicas: urls.length,
      recall_first_p50_ms: orNull(fs, 0.5),
      recall_first_p95_ms: orNull(fs, 0.95),
      recall_repeat_p50_ms: orNull(ps, 0.5),
      recall_repeat_p95_ms: orNull(ps, 0.95),
      cache_hit_rate: cacheBefore && cacheAfter && cacheAsked > 0 ? Math.round(((cacheAfter.hits - cacheBefore.hits) / cacheAsked) * 1000) / 1000 : null,
    };
  } finally {
    for (const client of mcp) await client.close().catch(() => undefined);
    await server.close();
  }
}
