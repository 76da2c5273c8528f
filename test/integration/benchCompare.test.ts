import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Browser } from "playwright-core";
import { graphRecall } from "../../src/bench/compare/graphRecall.js";
import type { CompareResult } from "../../src/bench/compare/result.js";
import { serverMemoryStarter } from "../../src/bench/anchors/serverMemory.js";
import { childEnv, CLI, ensureBundle, ROOT } from "../helpers/cliProcess.js";
import { launchBrowser, parseSvg } from "../unit/bench/svgDom.js";

const LOCOMO = resolve(ROOT, "..", "shared", "data", "locomo", "locomo-dev.json");
const PUBLIC_CASES = resolve(ROOT, "..", "shared", "eval", "cases.public.json");
const CASE_CATEGORIES = ["timeliness", "noise", "guard", "forget", "scope", "dedup"];

function run(args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

describe("hindsight bench compare: real LanceDB, the real model and the official memory server over stdio", function () {
  this.timeout(600_000);
  let dir: string;

  before(async () => {
    ensureBundle();
    dir = await mkdtemp(join(tmpdir(), "hindsight-compare-test-"));
  });

  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("drives @modelcontextprotocol/server-memory through its own tools, and it stores what it is given on disk", async () => {
    const file = join(dir, "graph.jsonl");
    const graph = await serverMemoryStarter()(file);
    try {
      const created = await graph.createEntities([
        { name: "D1:1", entityType: "dialogue turn", observations: ["Caroline: I went to a LGBTQ support group yesterday."] },
        { name: "D1:2", entityType: "dialogue turn", observations: ["Melanie: That's great, how was it?"] },
      ]);
      assert.deepEqual(created.map((e) => e.name), ["D1:1", "D1:2"]);
      assert.deepEqual(await graph.createEntities([{ name: "D1:1", entityType: "dialogue turn", observations: ["again"] }]), [], "it skips a name it has");

      const lines = (await readFile(file, "utf8")).trim().split("\n").map((l) => JSON.parse(l) as { type: string; name: string; observations: string[] });
      assert.deepEqual(lines.map((l) => [l.type, l.name, l.observations[0]]), [
        ["entity", "D1:1", "Caroline: I went to a LGBTQ support group yesterday."],
        ["entity", "D1:2", "Melanie: That's great, how was it?"],
      ]);

      const question = "What did Caroline do at the support group?";
      assert.deepEqual(await graph.searchNodes(question), [], "its search is a substring match: a question finds nothing");
      assert.deepEqual((await graph.searchNodes("support group")).map((e) => e.name), ["D1:1"]);
      assert.deepEqual((await graphRecall(graph, question, 5, "question")).length, 0);
      assert.deepEqual((await graphRecall(graph, "How was the support group, Melanie?", 5, "keywords")).map((e) => e.name), ["D1:1", "D1:2"], "ranked by keywords found: support+group, then melanie");

      await graph.deleteEntities(["D1:2"]);
      assert.deepEqual((await graph.readGraph()).map((e) => e.name), ["D1:1"]);
    } finally {
      await graph.close();
    }
  });

  it("refuses bad options before any work, naming the option", async () => {
    const env = childEnv(join(dir, "home"));
    const bad = await run(["bench", "compare", "--systems", "hindsight,mem0", "--workloads", "latency"], dir, env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--systems: expected some of hindsight, cosine, bm25, server-memory, server-memory-keywords .* got "hindsight,mem0"/);
    const missing = await run(["bench", "compare", "--workloads", "locomo"], dir, env);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--locomo FILE is needed/);
    await writeFile(join(dir, "broken-cases.json"), JSON.stringify({ version: 1, cases: [{ id: "x", category: "noise", lang: "en", scope: "project:x", steps: [{ at: "yesterday", recall: { query: "q" } }] }] }));
    const broken = await run(["bench", "compare", "--workloads", "regression", "--cases", "broken-cases.json"], dir, env);
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /CASES_INVALID.*cases\.0\.steps\.0\.at/);
  });

  describe("the command on a small slice", () => {
    let result: CompareResult;
    let reportDir: string;
    let turns: number;
    let caseIds: string[];
    let browser: Browser;

    before(async () => {
      // LoCoMo slice: the first conversation's first two sessions (questions whose evidence lies later drop out by the scoring rule).
      const all = JSON.parse(await readFile(LOCOMO, "utf8")) as Array<{ conversation: Record<string, unknown> }>;
      const sample = all[0]!;
      for (const key of Object.keys(sample.conversation)) {
        const m = key.match(/^session_(\d+)/);
        if (m && Number(m[1]) > 2) delete sample.conversation[key];
      }
      turns = Object.values(sample.conversation).filter(Array.isArray).reduce((n, s) => n + (s as unknown[]).length, 0);
      await writeFile(join(dir, "slice.json"), JSON.stringify([sample]));
      const cases = JSON.parse(await readFile(PUBLIC_CASES, "utf8")) as { version: 1; cases: Array<{ id: string; category: string }> };
      const picked = CASE_CATEGORIES.map((c) => cases.cases.find((x) => x.category === c)!);
      caseIds = picked.map((c) => c.id);
      await writeFile(join(dir, "cases.json"), JSON.stringify({ version: 1, cases: picked }));

      reportDir = join(dir, "report");
      const args = ["bench", "compare", "--locomo", "slice.json", "--cases", "cases.json", "--n", "200", "--n-hindsight", "300", "--queries", "20", "--writes", "5", "--note", "test run", "--report", reportDir, "--json"];
      const r = await run(args, dir, childEnv(join(dir, "home")));
      assert.equal(r.code, 0, r.stderr);
      result = JSON.parse(r.stdout) as CompareResult;
      browser = await launchBrowser();
    });

    after(async () => {
      await browser?.close();
    });

    it("prints the same document it writes as results.json, with the command and the machine", async () => {
      assert.deepEqual(JSON.parse(await readFile(join(reportDir, "results.json"), "utf8")), result);
      assert.match(result.command, /^hindsight bench compare --locomo slice\.json --cases cases\.json --n 200 /);
      assert.equal(result.machine.note, "test run");
      assert.ok(result.machine.cpus > 0 && result.machine.node.startsWith("v"));
      assert.deepEqual(result.systems.map((s) => s.id), ["hindsight", "cosine", "bm25", "server-memory", "server-memory-keywords", "hindsight-mcp"]);
    });

    it("LoCoMo: every system answered the same questions; the official server stored every turn and its own search finds almost nothing", () => {
      const lo = result.locomo!;
      assert.deepEqual(Object.keys(lo.results), ["hindsight", "cosine", "bm25", "server-memory", "server-memory-keywords"]);
      const questions = new Set(Object.values(lo.results).map((r) => r.questions));
      assert.equal(questions.size, 1, "same questions for everyone");
      assert.ok([...questions][0]! > 5);
      for (const [id, r] of Object.entries(lo.results)) {
        assert.equal(r.turns, turns, `${id} was given every turn`);
        for (const k of ["5", "10"]) assert.ok(r.overall[k]! >= 0 && r.overall[k]! <= 1, `${id} R@${k}`);
        assert.ok(r.overall["10"]! >= r.overall["5"]!, `${id}: recall grows with k`);
      }
      assert.equal(lo.results["server-memory"]!.stored, turns, "one entity per turn, read back with read_graph");
      assert.ok(lo.results["server-memory"]!.answered_share < 0.2, `its search answered ${lo.results["server-memory"]!.answered_share}`);
      assert.ok(lo.results["server-memory-keywords"]!.answered_share > 0.8);
      assert.ok(lo.results.hindsight!.overall["10"]! > 0.4, `hindsight R@10 ${lo.results.hindsight!.overall["10"]}`);
    });

    it("regression: every system ran every case; hindsight passes them; the official server cannot refuse a secret", () => {
      const suite = result.regression![0]!;
      assert.equal(suite.cases, caseIds.length);
      for (const r of Object.values(suite.results)) assert.equal(r.total, caseIds.length);
      assert.equal(suite.results.hindsight!.passed, caseIds.length, JSON.stringify(suite.results.hindsight!.why));
      const guardCase = caseIds[CASE_CATEGORIES.indexOf("guard")]!;
      assert.ok(suite.results["server-memory"]!.failed.includes(guardCase));
      assert.match(suite.results["server-memory"]!.why[guardCase]!, /flagged: expected true, got false/);
    });

    it("latency: every system at the shared size, hindsight alone at the larger one, real timings", () => {
      const rows = result.latency!.rows;
      assert.deepEqual(rows.filter((r) => r.n === 200).map((r) => r.system).sort(), ["bm25", "cosine", "hindsight", "hindsight-mcp", "server-memory", "server-memory-keywords"]);
      assert.deepEqual(rows.filter((r) => r.n === 300).map((r) => r.system), ["hindsight"]);
      for (const r of rows) {
        assert.ok(r.recall_p50_ms > 0 && r.recall_p95_ms >= r.recall_p50_ms, `${r.system} recall ${r.recall_p50_ms}/${r.recall_p95_ms}`);
        assert.ok(r.write_p50_ms > 0 && r.write_p95_ms >= r.write_p50_ms, `${r.system} write`);
      }
      const at = (s: string) => rows.find((r) => r.system === s && r.n === 200)!;
      assert.equal(at("server-memory").recall_hit_rate, 0, "a question never occurs verbatim in a memory");
      assert.equal(at("server-memory-keywords").recall_hit_rate, 1);
      assert.equal(at("hindsight").recall_hit_rate, 1);
      assert.equal(at("hindsight-mcp").recall_hit_rate, 1, "the stdio server read the bulk-loaded store");
    });

    it("judges the targets it measured and leaves the 100k one open", () => {
      const t = Object.fromEntries(result.targets.map((x) => [x.id, x]));
      assert.deepEqual(Object.keys(t), ["locomo-vs-server-memory", "recall-latency-vs-server-memory", "regression-vs-cosine", "locomo-vs-cosine", "recall-p95-100k"]);
      assert.equal(typeof t["locomo-vs-server-memory"]!.met, "boolean");
      assert.equal(t["recall-latency-vs-server-memory"]!.met, null, "no 10k run here");
      assert.equal(t["recall-p95-100k"]!.met, null);
    });

    it("writes benchmarks.md and valid SVG charts with one series per system", async () => {
      const files = (await readdir(reportDir)).sort();
      assert.deepEqual(files, ["benchmarks.md", "latency-recall.svg", "latency-write.svg", "locomo-recall-at-10.svg", "locomo-recall-at-5.svg", "regression-cases.svg", "results.json"]);
      const md = await readFile(join(reportDir, "benchmarks.md"), "utf8");
      assert.ok(md.includes(result.command));
      for (const f of files.filter((x) => x.endsWith(".svg"))) assert.ok(md.includes(`](${f})`), `benchmarks.md links ${f}`);

      const labels = ["hindsight", "plain cosine top-k", "BM25 only", "server-memory", "server-memory (keywords)"];
      for (const f of ["locomo-recall-at-10.svg", "locomo-recall-at-5.svg", "regression-cases.svg"]) {
        const p = await parseSvg(browser, await readFile(join(reportDir, f), "utf8"));
        assert.equal(p.error, null, `${f}: ${p.error}`);
        assert.deepEqual(p.series, labels, f);
      }
      const r10 = await parseSvg(browser, await readFile(join(reportDir, "locomo-recall-at-10.svg"), "utf8"));
      assert.equal(r10.bars.hindsight!.find((b) => b.group === "overall")!.value, result.locomo!.results.hindsight!.overall["10"]);

      const lat = await parseSvg(browser, await readFile(join(reportDir, "latency-recall.svg"), "utf8"));
      assert.equal(lat.error, null, lat.error ?? "");
      assert.deepEqual([...lat.series].sort(), [...labels, "hindsight via MCP stdio"].sort());
      assert.deepEqual(lat.bars.hindsight!.map((b) => b.group), ["200 memories", "300 memories"]);
      assert.deepEqual(lat.missing["plain cosine top-k"], ["300 memories"], "sizes a system was not run at are n/a");
    });

    it("renders the same report again from the saved results.json (--from)", async () => {
      const again = join(dir, "again");
      const r = await run(["bench", "compare", "--from", join(reportDir, "results.json"), "--report", again], dir, childEnv(join(dir, "home")));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await readFile(join(again, "benchmarks.md"), "utf8"), await readFile(join(reportDir, "benchmarks.md"), "utf8"));
      assert.equal(r.stdout.trim(), (await readFile(join(again, "benchmarks.md"), "utf8")).trim(), "without --json it prints the markdown");
      for (const f of ["locomo-recall-at-10.svg", "latency-write.svg"]) assert.equal(await readFile(join(again, f), "utf8"), await readFile(join(reportDir, f), "utf8"));

      await writeFile(join(dir, "bad-results.json"), JSON.stringify({ ...result, machine: { ...result.machine, cpus: "two" } }));
      const bad = await run(["bench", "compare", "--from", join(dir, "bad-results.json")], dir, childEnv(join(dir, "home")));
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /INVALID_INPUT: results file: machine\.cpus/);
    });
  });
});
