import { access, cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runCompare } from "../../bench/compare/compare.js";
import { describeMachine } from "../../bench/compare/machine.js";
import { renderMarkdown, writeReport } from "../../bench/compare/report.js";
import { parseSavedResult, type CompareResult } from "../../bench/compare/result.js";
import { SYSTEM_IDS, type SystemId } from "../../bench/compare/systems.js";
import { checkTargets } from "../../bench/compare/targets.js";
import { CATEGORY_NAMES, parseLocomo, runLocomo, scoreLocomo, summarise, type LocomoOptions, type QuestionScore } from "../../bench/locomo.js";
import type { LocomoSample } from "../../bench/locomoData.js";
import { crossValidate, objective } from "../../bench/crossValidate.js";
import { locomoVariants } from "../../bench/locomoVariants.js";
import { RecallProfile } from "../../bench/recallProfile.js";
import { runPerf } from "../../bench/perf.js";
import { runServeBench } from "../../bench/serve.js";
import { parseConfigOverride } from "./configOverride.js";
import { HindsightError } from "../../core/errors.js";
import type { MemoryStore } from "../../core/ports.js";
import { parseCasesFile } from "../../eval/runner.js";
import { hindsightStdioStarter } from "../../bench/anchors/hindsightStdio.js";
import { serverMemoryStarter } from "../../bench/anchors/serverMemory.js";
import { embedderFromEnv, rerankerFromEnv, systemClock } from "../../server/runtime.js";
import { startServer } from "../../server/serve.js";
import { LanceStore } from "../../stores/lancedb/lanceStore.js";
import { InMemoryStore } from "../../stores/memory/memoryStore.js";
import { print, printJson } from "../output.js";

function numberList(value: string, field: string): number[] {
  const xs = value.split(",").map((s) => Number(s.trim()));
  if (xs.length === 0 || xs.some((x) => !Number.isInteger(x) || x <= 0)) {
    throw new HindsightError("INVALID_INPUT", `${field}: expected positive integers separated by commas, got "${value}"`, { field });
  }
  return xs;
}

export async function benchCommand(argv: string[]): Promise<number> {
  const [which, ...rest] = argv;
  if (which === "locomo") return benchLocomo(rest);
  if (which === "perf") return benchPerf(rest);
  if (which === "serve") return benchServe(rest);
  if (which === "compare") return benchCompare(rest);
  throw new HindsightError("INVALID_INPUT", `bench: expected "locomo", "perf", "serve" or "compare", got "${which ?? ""}"`, { field: "bench" });
}

async function readLocomo(path: string, command: string): Promise<ReturnType<typeof parseLocomo>> {
  try {
    return parseLocomo(JSON.parse(await readFile(path, "utf8")));
  } catch (err) {
    throw new HindsightError("INVALID_INPUT", `${command}: cannot read ${path} as a LoCoMo file: ${(err as Error).message}`, { field: "FILE" });
  }
}

async function benchLocomo(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      k: { type: "string", default: "5,10" },
      conversations: { type: "string" },
      json: { type: "boolean" },
      store: { type: "string", default: "lancedb" },
      config: { type: "string" },
      "min-recall": { type: "string" },
      profile: { type: "boolean" },
      cv: { type: "boolean" },
      stores: { type: "string" },
    },
  });
  const path = positionals[0];
  if (!path) throw new HindsightError("INVALID_INPUT", "bench locomo: give the LoCoMo JSON file", { field: "FILE" });
  if (values.cv && values.store === "memory") throw new HindsightError("INVALID_INPUT", "bench locomo: --cv copies each ingested store for every setting, so it needs --store lancedb", { field: "--cv" });
  if (values.stores && values.store === "memory") throw new HindsightError("INVALID_INPUT", "bench locomo: --stores keeps LanceDB stores, so it needs --store lancedb", { field: "--stores" });
  if (values.cv && values.config) throw new HindsightError("INVALID_INPUT", "bench locomo: --cv compares its own settings; --config would not be one of them", { field: "--config" });
  const profile = values.profile ? new RecallProfile() : null;
  const samples = await readLocomo(path, "bench locomo");
  const root = await mkdtemp(join(tmpdir(), "hindsight-locomo-"));
  // --stores keeps the ingested conversations for the next run (ingest is most of a run's time).
  const storeDir = (id: string): string => join(values.stores ?? root, id);
  try {
    const options: LocomoOptions = {
      ks: numberList(values.k, "--k"),
      ...(values.conversations ? { conversations: numberList(values.conversations, "--conversations")[0] as number } : {}),
      embedder: embedderFromEnv(),
      reranker: rerankerFromEnv(),
      ...(values.config ? { config: parseConfigOverride(values.config) } : {}),
      newStore: async (id): Promise<MemoryStore> => {
        if (values.store === "memory") return new InMemoryStore();
        // A kept folder without the marker is what an interrupted ingest left: it starts over.
        if (values.stores && !(await hasIngested(storeDir(id)))) await rm(storeDir(id), { recursive: true, force: true });
        return new LanceStore({ dir: storeDir(id) });
      },
      ...(values.stores ? { kept: { has: (id: string) => hasIngested(storeDir(id)), add: (id: string) => writeFile(join(storeDir(id), INGESTED_MARKER), "") } } : {}),
      onProgress: (m) => process.stderr.write(`${m}\n`),
      ...(profile ? { profile } : {}),
    };
    // Recall counts access: kept stores and the settings of --cv are asked on copies, so no run reorders another's.
    let lastCopy: string | null = null;
    if (values.cv || values.stores) {
      options.copyStore = async (id, variant) => {
        // One copy at a time: the previous setting's copy is closed by now.
        if (lastCopy) await rm(lastCopy, { recursive: true, force: true });
        lastCopy = join(root, `${id}.${variant}`);
        return copyOf(storeDir(id), lastCopy);
      };
    }
    if (values.cv) return await crossValidated(samples, options, values.json === true);
    const result = await runLocomo(samples, options);
    if (profile) {
      process.stderr.write("where recall time goes (ms and calls per recall; parallel parts overlap):\n");
      for (const p of profile.report()) process.stderr.write(`  ${p.part.padEnd(32)} ${String(p.msPerRecall).padStart(8)} ms  ${String(p.callsPerRecall).padStart(6)} calls\n`);
    }
    const floor = values["min-recall"] === undefined ? null : Number(values["min-recall"]);
    const gateCode = floor === null ? 0 : recallGate(result.overall, result.k, floor);
    if (values.json) {
      const { extra: _extra, ...shape } = result;
      printJson(shape);
      return gateCode;
    }
    const ks = result.k;
    print(`LoCoMo evidence recall (${result.questions} questions, ${result.extra.turns} turns, ${result.extra.memories} memories)`);
    print(`category           n    ${ks.map((k) => `R@${k}`.padStart(7)).join("")}`);
    for (const [c, byK] of Object.entries(result.by_category)) {
      const name = `${c} ${CATEGORY_NAMES[c] ?? ""}`.padEnd(16);
      print(`${name} ${String(result.extra.questionsByCategory[c]).padStart(4)}  ${ks.map((k) => String(byK[String(k)]).padStart(7)).join("")}`);
    }
    print(`overall          ${String(result.questions).padStart(4)}  ${ks.map((k) => String(result.overall[String(k)]).padStart(7)).join("")}`);
    print(`mean of cats           ${ks.map((k) => String(result.extra.meanOfCategories[String(k)]).padStart(7)).join("")}`);
    print(`all-evidence hit       ${ks.map((k) => String(result.extra.allHit[String(k)]).padStart(7)).join("")}`);
    print(`dia_ids linked         ${ks.map((k) => String(result.extra.linkedPerQuestion[String(k)]).padStart(7)).join("")}`);
    print(`ingest ${result.extra.ingestSeconds}s, recall p50 ${result.extra.recallMsP50} ms, p95 ${result.extra.recallMsP95} ms`);
    return gateCode;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** A store folder counts as ingested once a run finished ingesting it (the marker is written after). */
const INGESTED_MARKER = ".hindsight-bench-ingested";

async function hasIngested(dir: string): Promise<boolean> {
  return access(join(dir, INGESTED_MARKER)).then(
    () => true,
    () => false,
  );
}

async function copyOf(from: string, to: string): Promise<MemoryStore> {
  await cp(from, to, { recursive: true });
  return new LanceStore({ dir: to });
}

/**
 * `bench locomo --cv`: the old retrieval (vector and full text) and the new (four retrievers), each
 * over its grid of settings, on the same ingested conversations; per system the best setting on all
 * of them (fitted) beside leave-one-conversation-out (each conversation scored with the setting
 * chosen on the others), per category and overall.
 */
async function crossValidated(samples: LocomoSample[], options: LocomoOptions, json: boolean): Promise<number> {
  const variants = locomoVariants();
  const { results, stats } = await scoreLocomo(samples, options, variants);
  const fits = crossValidate(results, variants, options.ks);
  const summary = (scores: QuestionScore[]) => summarise(scores, options.ks, { ...stats, recallTimes: [] });
  const rows = fits.flatMap((f) => [
    { system: f.system, setting: "default", variant: f.defaults.variant, result: summary(f.defaults.scores) },
    { system: f.system, setting: "fitted", variant: f.fitted.variant, result: summary(f.fitted.scores) },
    { system: f.system, setting: "cross-validated", variant: Object.values(f.crossValidated.choices).join(","), result: summary(f.crossValidated.scores) },
  ]);
  if (json) {
    printJson({
      k: options.ks,
      systems: rows.map((r) => ({ system: r.system, setting: r.setting, variant: r.variant, questions: r.result.questions, overall: r.result.overall, by_category: r.result.by_category })),
      choices: Object.fromEntries(fits.map((f) => [f.system, f.crossValidated.choices])),
      variants: variants.map((v) => ({ name: v.name, system: v.system, config: v.config, objective: objective(results.get(v.name) ?? [], options.ks) })),
    });
    return 0;
  }
  const cats = Object.keys(CATEGORY_NAMES);
  const maxK = Math.max(...options.ks);
  const cell = (byK: Record<string, number> | undefined) => options.ks.map((k) => (byK?.[String(k)] ?? 0).toFixed(3)).join(" / ");
  print(`LoCoMo evidence recall, ${options.ks.map((k) => `R@${k}`).join(" / ")} (${stats.turns} turns, ${stats.memories} memories, ${variants.length} settings)`);
  print(["system", "setting", ...cats.map((c) => CATEGORY_NAMES[c] as string), "overall"].map((h, i) => h.padEnd(i < 2 ? 16 : 14)).join(""));
  for (const r of rows) {
    print([r.system, r.setting, ...cats.map((c) => cell(r.result.by_category[c])), cell(r.result.overall)].map((h, i) => h.padEnd(i < 2 ? 16 : 14)).join(""));
  }
  for (const f of fits) print(`${f.system}: fitted ${f.fitted.variant}; per held-out conversation ${Object.entries(f.crossValidated.choices).map(([c, v]) => `${c}=${v}`).join(", ")}`);
  print(`settings (objective = mean recall over the ks, all conversations; then R@${maxK} per category):`);
  for (const v of variants) {
    const r = summary(results.get(v.name) ?? []);
    const perCategory = cats.map((c) => (r.by_category[c]?.[String(maxK)] ?? 0).toFixed(3)).join(" ");
    print(`  ${v.name.padEnd(24)} ${objective(results.get(v.name) ?? [], options.ks).toFixed(4)}  ${perCategory}  ${JSON.stringify(v.config)}`);
  }
  return 0;
}

/** Regression gate for the smoke run: overall recall at the largest k may not fall below the floor. */
function recallGate(overall: Record<string, number>, ks: number[], floor: number): number {
  const k = String(Math.max(...ks));
  const got = overall[k] ?? 0;
  if (got >= floor) return 0;
  process.stderr.write(`bench locomo: overall recall@${k} ${got} is below --min-recall ${floor}\n`);
  return 1;
}

async function benchPerf(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { n: { type: "string", default: "1000,10000" }, json: { type: "boolean" }, queries: { type: "string", default: "200" }, "write-sample": { type: "string", default: "300" } },
  });
  const root = await mkdtemp(join(tmpdir(), "hindsight-perf-"));
  try {
    const rows = await runPerf({
      ns: numberList(values.n, "--n"),
      embedder: embedderFromEnv(),
      reranker: rerankerFromEnv(),
      queries: numberList(values.queries, "--queries")[0] as number,
      writeSample: numberList(values["write-sample"], "--write-sample")[0] as number,
      newStore: async (n) => new LanceStore({ dir: join(root, `n${n}`) }),
      disposeStore: async (store) => {
        await store.close();
      },
      onProgress: (m) => process.stderr.write(`${m}\n`),
    });
    if (values.json) {
      printJson({ results: rows });
      return 0;
    }
    print("n          write/s  write p50  write p95  ingest/s  bare embed/s  recall p50  recall p95   disk MB   peak RSS MB");
    for (const r of rows) {
      print(
        `${String(r.n).padEnd(9)} ${String(r.write_per_s).padStart(8)} ${String(r.write_p50_ms).padStart(7)} ms ${String(r.write_p95_ms).padStart(7)} ms ${String(r.ingest_per_s).padStart(9)} ${String(r.bare_embed_per_s).padStart(13)} ${String(r.recall_p50_ms).padStart(8)} ms ${String(r.recall_p95_ms).padStart(8)} ms ${(r.disk_bytes / 1e6).toFixed(1).padStart(9)} ${(r.peak_rss_bytes / 1e6).toFixed(0).padStart(11)}`,
      );
    }
    print("ingest/s: turns through the whole judged write path, 32 in flight (batched); bare embed/s: the model alone on the same kind of text, same run.");
    return 0;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** `hindsight bench serve [--n 10000] [--json]`: MCP-over-HTTP latency against the same calls on the engine. */
async function benchServe(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { n: { type: "string", default: "10000" }, json: { type: "boolean" }, recalls: { type: "string", default: "200" }, writes: { type: "string", default: "100" } },
  });
  const root = await mkdtemp(join(tmpdir(), "hindsight-bench-serve-"));
  try {
    const store = new LanceStore({ dir: join(root, "store") });
    const r = await runServeBench({
      n: numberList(values.n, "--n")[0] as number,
      recalls: numberList(values.recalls, "--recalls")[0] as number,
      writes: numberList(values.writes, "--writes")[0] as number,
      embedder: embedderFromEnv(),
      store,
      clock: systemClock,
      startServer,
      onProgress: (m) => process.stderr.write(`${m}\n`),
    });
    if (values.json) {
      printJson(r);
      return 0;
    }
    print(`hindsight serve, ${r.n} memories (warm; query embedding included)`);
    const ms = (p50: number, p95: number) => `${String(p50).padStart(8)} ms ${String(p95).padStart(6)} ms`;
    print("operation        via MCP/HTTP p50  p95    via the mcp relay p50  p95    on the engine p50  p95");
    print(`memory_recall    ${ms(r.mcp_recall_p50_ms, r.mcp_recall_p95_ms)}    ${ms(r.relay_recall_p50_ms, r.relay_recall_p95_ms)}    ${ms(r.engine_recall_p50_ms, r.engine_recall_p95_ms)}`);
    print(`memory_write     ${ms(r.mcp_write_p50_ms, r.mcp_write_p95_ms)}    ${ms(r.relay_write_p50_ms, r.relay_write_p95_ms)}    ${ms(r.engine_write_p50_ms, r.engine_write_p95_ms)}`);
    return 0;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const WORKLOADS = ["locomo", "regression", "latency"] as const;

function choices<T extends string>(value: string, allowed: readonly T[], field: string): T[] {
  const xs = value.split(",").map((x) => x.trim()).filter((x) => x.length > 0);
  const bad = xs.filter((x) => !(allowed as readonly string[]).includes(x));
  if (xs.length === 0 || bad.length > 0) {
    throw new HindsightError("INVALID_INPUT", `${field}: expected some of ${allowed.join(", ")} separated by commas, got "${value}"`, { field });
  }
  return [...new Set(xs)] as T[];
}

function shellWord(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * `hindsight bench compare --locomo FILE --cases FILE... [--report DIR] [--json]`: hindsight against
 * plain cosine top-k, BM25 and the official MCP memory server on the same data in one run.
 */
async function benchCompare(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      systems: { type: "string", default: SYSTEM_IDS.join(",") },
      workloads: { type: "string", default: WORKLOADS.join(",") },
      locomo: { type: "string" },
      conversations: { type: "string" },
      k: { type: "string", default: "5,10" },
      cases: { type: "string", multiple: true },
      n: { type: "string", default: "1000,10000" },
      "n-hindsight": { type: "string", default: "100000" },
      queries: { type: "string", default: "200" },
      writes: { type: "string", default: "100" },
      "server-memory": { type: "string" },
      note: { type: "string" },
      report: { type: "string" },
      json: { type: "boolean" },
      from: { type: "string" },
    },
  });
  if (values.from) return renderSaved(values.from, values.report, values.json ?? false);
  const systems = choices<SystemId>(values.systems, SYSTEM_IDS, "--systems");
  const workloads = choices(values.workloads, WORKLOADS, "--workloads");
  const ks = numberList(values.k, "--k");
  if (workloads.includes("locomo") && !values.locomo) throw new HindsightError("INVALID_INPUT", "bench compare: --locomo FILE is needed for the locomo workload", { field: "--locomo" });
  if (workloads.includes("regression") && !values.cases?.length) throw new HindsightError("INVALID_INPUT", "bench compare: --cases FILE is needed for the regression workload", { field: "--cases" });

  const locomo =
    workloads.includes("locomo") && values.locomo
      ? {
          file: values.locomo,
          samples: await readLocomo(values.locomo, "bench compare"),
          ks,
          ...(values.conversations ? { conversations: numberList(values.conversations, "--conversations")[0] as number } : {}),
        }
      : undefined;
  const regression = [];
  if (workloads.includes("regression")) {
    for (const file of values.cases ?? []) {
      let json: unknown;
      try {
        json = JSON.parse(await readFile(file, "utf8"));
      } catch (err) {
        throw new HindsightError("CASES_INVALID", `bench compare: cannot read ${file} as JSON: ${(err as Error).message}`, { field: "--cases" });
      }
      regression.push({ file, cases: parseCasesFile(json) });
    }
  }
  const latency = workloads.includes("latency")
    ? {
        sizes: numberList(values.n, "--n"),
        hindsightSizes: numberList(values["n-hindsight"], "--n-hindsight"),
        queries: numberList(values.queries, "--queries")[0] as number,
        writes: numberList(values.writes, "--writes")[0] as number,
        k: Math.max(...ks),
      }
    : undefined;

  const root = await mkdtemp(join(tmpdir(), "hindsight-compare-"));
  try {
    const usesGraph = systems.some((s) => s.startsWith("server-memory"));
    const result = await runCompare({
      systems,
      ...(locomo ? { locomo } : {}),
      ...(regression.length > 0 ? { regression } : {}),
      ...(latency ? { latency } : {}),
      embedder: embedderFromEnv(),
      workDir: root,
      openLanceStore: (dir) => new LanceStore({ dir }),
      ...(usesGraph ? { startGraph: serverMemoryStarter(values["server-memory"]) } : {}),
      ...(process.argv[1] ? { startHindsightMcp: hindsightStdioStarter(process.argv[1]) } : {}),
      command: ["hindsight", "bench", "compare", ...argv].map(shellWord).join(" "),
      machine: describeMachine(values.note ?? null),
      now: () => new Date(),
      onProgress: (m) => process.stderr.write(`${m}\n`),
    });
    return await publish(result, values.report, values.json ?? false);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function publish(result: CompareResult, reportDir: string | undefined, json: boolean): Promise<number> {
  if (reportDir) {
    const files = await writeReport(reportDir, result);
    process.stderr.write(`bench compare: wrote ${files.join(", ")} to ${reportDir}\n`);
  }
  if (json) printJson(result);
  else print(renderMarkdown(result));
  return 0;
}

/** `--from results.json`: the report of a saved run rendered again (its numbers, command and machine as recorded; targets judged again). */
async function renderSaved(path: string, reportDir: string | undefined, json: boolean): Promise<number> {
  let saved: unknown;
  try {
    saved = JSON.parse(await readFile(path, "utf8"));
  } catch (err) {
    throw new HindsightError("INVALID_INPUT", `bench compare --from: cannot read ${path} as JSON: ${(err as Error).message}`, { field: "--from" });
  }
  return publish(parseSavedResult(saved, checkTargets), reportDir, json);
}
