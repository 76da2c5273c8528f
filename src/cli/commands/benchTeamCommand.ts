import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runTeamBench } from "../../bench/team.js";
import { HindsightError } from "../../core/errors.js";
import { openEngineOn } from "../../server/runtime.js";
import { startServer } from "../../server/serve.js";
import { storeFor } from "../../server/storeFactory.js";
import { TokenFileAuth } from "../../server/tokenAuth.js";
import { createToken } from "../../server/tokenFile.js";
import { print, printJson } from "../output.js";

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
      json: { type: "boolean" },
    },
  });
  const writeRatio = Number(values["write-ratio"]);
  if (!(writeRatio >= 0 && writeRatio <= 1)) throw new HindsightError("INVALID_INPUT", "--write-ratio: must be between 0 and 1", { field: "--write-ratio" });
  const root = await mkdtemp(join(tmpdir(), "hindsight-bench-team-"));
  const prefix = `bench_${process.pid}`;
  const { store, where } = storeFor(values.store, {
    dataDir: join(root, "store"),
    qdrantUrl: values["qdrant-url"] ?? process.env.HINDSIGHT_QDRANT_URL,
    qdrantApiKey: process.env.QDRANT_API_KEY,
    qdrantPrefix: prefix,
  });
  const engine = await openEngineOn(store, { scope: "team:bench" });
  try {
    const r = await runTeamBench({
      engine,
      clients: positive(values.clients, "--clients", true),
      seconds: positive(values.seconds, "--seconds", false),
      writeRatio,
      seed: Number(values.seed),
      projects: positive(values.projects, "--projects", true),
      serve: async (projects) => {
        const tokensPath = join(root, "tokens.json");
        const tokens: string[] = [];
        // rate 0: the bench measures the server, not the default per-token limit.
        for (const [i, project] of projects.entries()) tokens.push((await createToken(tokensPath, { id: `bench-${i}`, scopes: ["read", "write"], projects: [project], rate: 0 }, new Date())).token);
        const { auth } = await TokenFileAuth.open(tokensPath, { defaults: { rate: 20, burst: 60 } });
        const running = await startServer({ engine, authenticator: auth, host: "127.0.0.1", port: 0 });
        return { url: running.url, tokens, close: () => running.close(500) };
      },
      onProgress: (m) => process.stderr.write(`${m}\n`),
    });
    if (values.json) printJson({ store: where.replace(root, "<tmp>"), ...r });
    else {
      print(`team server, ${r.clients} MCP clients on ${r.projects} projects, ${r.seconds} s, ${Math.round(r.write_ratio * 100)}% writes (${where.replace(root, "<tmp>")}; ${r.seeded_per_project} memories seeded per project)`);
      print(`operations ${r.operations} (${r.recalls} recalls, ${r.writes} writes): ${r.throughput_ops_per_s} ops/s; p95 of all ${r.all_p95_ms} ms`);
      print(`memory_recall p50 ${r.recall_p50_ms} ms  p95 ${r.recall_p95_ms} ms`);
      print(`memory_write  p50 ${r.write_p50_ms} ms  p95 ${r.write_p95_ms} ms  (${Object.entries(r.write_actions).map(([k, v]) => `${k} ${v}`).join(", ")})`);
      print(`errors ${r.errors}; writes acknowledged ${r.writes_acknowledged}, found again ${r.writes_verified}, lost ${r.writes_lost}${r.hard_stopped ? "; HARD-STOPPED (partial)" : ""}`);
      for (const e of r.error_samples) print(`  ${e}`);
    }
    return r.errors === 0 && r.writes_lost === 0 && !r.hard_stopped ? 0 : 1;
  } finally {
    await engine.close();
    if (values.store === "qdrant") await dropBenchCollections(store);
    await rm(root, { recursive: true, force: true });
  }
}

/** A Qdrant bench leaves nothing behind on the server. */
async function dropBenchCollections(store: unknown): Promise<void> {
  const drop = (store as { dropAll?: () => Promise<void> }).dropAll;
  if (drop) await drop.call(store).catch(() => undefined);
}
