import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runTeamBench } from "../../bench/team.js";
import { HindsightError } from "../../core/errors.js";
import { openEngineOn } from "../../server/runtime.js";
import { startServer, type RunningServer } from "../../server/serve.js";
import { storeFor } from "../../server/storeFactory.js";
import { TokenFileAuth } from "../../server/tokenAuth.js";
import { createToken } from "../../server/tokenFile.js";
import { print, printJson } from "../output.js";
import type { MemoryEngine } from "../../core/engine.js";
import { connectRedis, parseRedisUrl, type RedisLink } from "../../server/redis/connection.js";
import { RedisScopeLeases } from "../../server/redis/leases.js";
import { RedisRecallCache } from "../../server/redis/recallCache.js";

function positive(value: string, field: string, integer: boolean): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
    throw new HindsightError("INVALID_INPUT", `${field}: must be a positive ${integer ? "integer" : "number"}`, { field });
  }
  return n;
}

/**
 * `hindsight bench team`: the team server in this process on 127.0.0.1 (LanceDB in a scratch folder,
 * or Qdrant with --store qdrant --qdrant-url), a tokens file with one scoped token per project, and
 * `--clients` MCP clients running mixed recall/write for `--seconds`; then every acknowledged write is read back.
 */
export async function benchTeamCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      clients: { type: "string", default: "4" },
      seconds: { type: "string", default: "120" },
      "write-ratio": { type: "string", default: "0.3" },
      seed: { type: "string", default: "500" },
      projects: { type: "string", default: "2" },
      store: { type: "string", default: "lancedb" },
      "qdrant-url": { type: "string" },
      "redis-url": { type: "string" },
      replicas: { type: "string", default: "1" },
      questions: { type: "string" },
      json: { type: "boolean" },
    },
  });
  const writeRatio = Number(values["write-ratio"]);
  if (!(writeRatio >= 0 && writeRatio <= 1)) throw new HindsightError("INVALID_INPUT", "--write-ratio: must be between 0 and 1", { field: "--write-ratio" });
  const replicaCounts = values.replicas.split(",").map((x) => positive(x, "--replicas", true));
  const redisUrl = values["redis-url"] ?? process.env.HINDSIGHT_REDIS_URL;
  if (redisUrl !== undefined) parseRedisUrl(redisUrl);
  if (replicaCounts.some((n) => n > 1) && values.store !== "qdrant") {
    throw new HindsightError("INVALID_INPUT", "--replicas: replicas share one store only on Qdrant (--store qdrant --qdrant-url URL); a LanceDB store has one owner process", { field: "--replicas" });
  }
  if (replicaCounts.some((n) => n > 1) && redisUrl === undefined) {
    throw new HindsightError("INVALID_INPUT", "--replicas: replicas decide writes one at a time through leases in Redis: give --redis-url", { field: "--replicas" });
  }
  const rows: Array<Awaited<ReturnType<typeof runTeamBench>> & { store: string }> = [];
  for (const [run, replicas] of replicaCounts.entries()) rows.push(await benchReplicas(values, replicas, writeRatio, redisUrl, run));
  if (values.json) printJson(rows.length === 1 ? rows[0] : { runs: rows });
  else for (const r of rows) printRun(r);
  return rows.every((r) => r.errors === 0 && r.writes_lost === 0 && !r.hard_stopped) ? 0 : 1;
}

type Values = { clients: string; seconds: string; seed: string; projects: string; store: string; "qdrant-url"?: string; questions?: string };

/** One run: `replicas` servers, each with its own engine on the one store (and the one Redis), the clients spread over them. */
async function benchReplicas(values: Values, replicas: number, writeRatio: number, redisUrl: string | undefined, run: number) {
  const root = await mkdtemp(join(tmpdir(), "hindsight-bench-team-"));
  const prefix = `bench_${process.pid}_${run}`;
  const open = () =>
    storeFor(values.store, {
      dataDir: join(root, "store"),
      qdrantUrl: values["qdrant-url"] ?? process.env.HINDSIGHT_QDRANT_URL,
      qdrantApiKey: process.env.QDRANT_API_KEY,
      qdrantPrefix: prefix,
    });
  const links: RedisLink[] = redisUrl !== undefined ? Array.from({ length: replicas }, () => connectRedis(redisUrl)) : [];
  const engines: MemoryEngine[] = [];
  const stores: unknown[] = [];
  let where = "";
  try {
    for (let i = 0; i < replicas; i++) {
      const { store, where: w } = open();
      where = w;
      stores.push(store);
      const redis = links[i];
      engines.push(
        await openEngineOn(store, {
          scope: "team:bench",
          ...(redis ? { leases: new RedisScopeLeases({ redis: redis.client, prefix }), recallCache: new RedisRecallCache({ redis: redis.client, prefix }) } : {}),
        }),
      );
    }
    const r = await runTeamBench({
      engine: engines[0] as MemoryEngine,
      clients: positive(values.clients, "--clients", true),
      seconds: positive(values.seconds, "--seconds", false),
      writeRatio,
      seed: Number(values.seed),
      projects: positive(values.projects, "--projects", true),
      ...(values.questions !== undefined ? { questions: positive(values.questions, "--questions", true) } : {}),
      serve: async (projects) => {
        const tokensPath = join(root, "tokens.json");
        const tokens: string[] = [];
        // rate 0: the bench measures the server, not the default per-token limit.
        for (const [i, project] of projects.entries()) tokens.push((await createToken(tokensPath, { id: `bench-${i}`, scopes: ["read", "write"], projects: [project], rate: 0 }, new Date())).token);
        const servers: RunningServer[] = [];
        for (const [i, engine] of engines.entries()) {
          const { auth } = await TokenFileAuth.open(tokensPath, { defaults: { rate: 20, burst: 60 } });
          const redis = links[i];
          servers.push(await startServer({ engine, authenticator: auth, host: "127.0.0.1", port: 0, ...(redis ? { redis, redisPrefix: prefix } : {}) }));
        }
        return {
          url: servers[0]!.url,
          urls: servers.map((x) => x.url),
          tokens,
          close: async () => {
            for (const x of servers) await x.close(500);
          },
          ...(redisUrl !== undefined
            ? {
                cacheCounts: async () => {
                  const all = await Promise.all(engines.map((e) => e.stats()));
                  return { hits: all.reduce((a, x) => a + (x.recallCache?.hits ?? 0), 0), misses: all.reduce((a, x) => a + (x.recallCache?.misses ?? 0), 0) };
                },
              }
            : {}),
        };
      },
      onProgress: (m) => process.stderr.write(`[${replicas} replica${replicas > 1 ? "s" : ""}] ${m}\n`),
    });
    return { store: where.replace(root, "<tmp>"), ...r };
  } finally {
    for (const e of engines) await e.close();
    if (values.store === "qdrant" && stores[0]) await dropBenchCollections(stores[0]);
    if (links[0]) await dropKeys(links[0], prefix);
    for (const l of links) await l.close();
    await rm(root, { recursive: true, force: true });
  }
}

function printRun(r: Awaited<ReturnType<typeof benchReplicas>>): void {
  print(`team server, ${r.replicas} replica(s), ${r.clients} MCP clients on ${r.projects} projects, ${r.seconds} s, ${Math.round(r.write_ratio * 100)}% writes (${r.store}; ${r.seeded_per_project} memories seeded per project)`);
  print(`operations ${r.operations} (${r.recalls} recalls, ${r.writes} writes): ${r.throughput_ops_per_s} ops/s; p95 of all ${r.all_p95_ms} ms`);
  print(`memory_recall p50 ${r.recall_p50_ms} ms  p95 ${r.recall_p95_ms} ms`);
  if (r.recall_first_p50_ms !== null) {
    const rate = r.cache_hit_rate === null ? "" : `; recall cache hit rate ${(r.cache_hit_rate * 100).toFixed(1)}%`;
    print(`  first ask of a question p50 ${r.recall_first_p50_ms} ms  p95 ${r.recall_first_p95_ms} ms; asked again p50 ${r.recall_repeat_p50_ms} ms  p95 ${r.recall_repeat_p95_ms} ms${rate}`);
  }
  print(`memory_write  p50 ${r.write_p50_ms} ms  p95 ${r.write_p95_ms} ms  (${Object.entries(r.write_actions).map(([k, v]) => `${k} ${v}`).join(", ")})`);
  print(`errors ${r.errors}; writes acknowledged ${r.writes_acknowledged}, found again ${r.writes_verified}, lost ${r.writes_lost}${r.hard_stopped ? "; HARD-STOPPED (partial)" : ""}`);
  for (const e of r.error_samples) print(`  ${e}`);
}

/** The bench's keys leave Redis with it. */
async function dropKeys(link: RedisLink, prefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await link.client.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
    if (keys.length > 0) await link.client.del(...keys);
    cursor = next;
  } while (cursor !== "0");
}

/** A Qdrant bench leaves nothing behind on the server. */
async function dropBenchCollections(store: unknown): Promise<void> {
  const drop = (store as { dropAll?: () => Promise<void> }).dropAll;
  if (drop) await drop.call(store).catch(() => undefined);
}
