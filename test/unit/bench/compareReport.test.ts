import * as assert from "node:assert/strict";
import { searchKeywords } from "../../../src/bench/compare/graphRecall.js";
import type { LatencyRow } from "../../../src/bench/compare/latencyCompare.js";
import type { LocomoSystemResult } from "../../../src/bench/compare/locomoCompare.js";
import { scoreSuite } from "../../../src/bench/compare/regressionCompare.js";
import { charts, losses, renderMarkdown } from "../../../src/bench/compare/report.js";
import type { CompareResult } from "../../../src/bench/compare/result.js";
import { checkTargets } from "../../../src/bench/compare/targets.js";

function locomo(r5: number, r10: number, multiHop10: number): LocomoSystemResult {
  return {
    questions: 10,
    overall: { "5": r5, "10": r10 },
    by_category: { "1": { "5": r5, "10": multiHop10 }, "4": { "5": r5, "10": r10 } },
    questions_by_category: { "1": 4, "4": 6 },
    answered_share: 1,
    stored: 40,
    turns: 40,
    ingest_s: 1,
    recall_p50_ms: 5,
    recall_p95_ms: 9,
  };
}

function lat(system: LatencyRow["system"], n: number, recall: number, write = 40): LatencyRow {
  return { system, n, write_p50_ms: write, write_p95_ms: write * 2, recall_p50_ms: recall, recall_p95_ms: recall * 1.5, recall_hit_rate: 1 };
}

function fixture(): Omit<CompareResult, "targets"> {
  const suite = (outcomes: Array<[string, string, boolean | null]>) => scoreSuite(outcomes.map(([id, category, pass]) => ({ id, category, pass, failures: pass ? [] : ["step 2: top: expected x"] })));
  return {
    generated_at: "2026-11-30T12:00:00.000Z",
    command: "hindsight bench compare --locomo a.json --cases b.json",
    machine: { cpus: 2, cpu_model: "cpu", memory_gb: 8, node: "v20.0.0", os: "Debian GNU/Linux 12 (bookworm)", note: "shared machine" },
    systems: [
      { id: "hindsight", label: "hindsight", description: "d" },
      { id: "cosine", label: "plain cosine top-k", description: "d" },
      { id: "server-memory", label: "server-memory", description: "d" },
    ],
    locomo: {
      file: "a.json",
      conversations: 1,
      k: [5, 10],
      results: { hindsight: locomo(0.6, 0.7, 0.4), cosine: locomo(0.4, 0.5, 0.45), "server-memory": locomo(0.3, 0.34, 0.3) },
    },
    regression: [
      {
        file: "dir/b.json",
        cases: 3,
        results: {
          hindsight: suite([["t1", "timeliness", true], ["g1", "guard", true], ["n1", "noise", false]]),
          cosine: suite([["t1", "timeliness", false], ["g1", "guard", true], ["n1", "noise", false]]),
          "server-memory": suite([["t1", "timeliness", false], ["g1", "guard", null], ["n1", "noise", true]]),
        },
      },
    ],
    latency: {
      queries: 10,
      writes: 5,
      k: 10,
      sizes: [1000, 10000],
      hindsight_sizes: [100000],
      rows: [
        lat("hindsight", 10000, 10),
        lat("hindsight-mcp", 10000, 14),
        lat("server-memory", 10000, 12, 20),
        lat("bm25", 10000, 9.5, 39),
        { ...lat("server-memory", 1000, 1), recall_hit_rate: 0 },
        lat("hindsight-mcp", 1000, 12),
        lat("hindsight", 100000, 45),
      ],
    },
    duration_s: 61,
  };
}

describe("bench compare: suites, targets and report", () => {
  it("scores a suite per category, counting only expressible cases", () => {
    const s = scoreSuite([
      { id: "a", category: "guard", pass: true, failures: [] },
      { id: "b", category: "guard", pass: null, failures: ["layers"] },
      { id: "c", category: "noise", pass: false, failures: ["count: expected 0, got 3"] },
    ]);
    assert.deepEqual(s.by_category, { guard: { passed: 1, expressible: 1, total: 2 }, noise: { passed: 0, expressible: 1, total: 1 } });
    assert.deepEqual([s.passed, s.expressible, s.total], [1, 2, 3]);
    assert.deepEqual(s.failed, ["c"]);
    assert.deepEqual(s.not_expressible, ["b"]);
    assert.equal(s.why.c, "count: expected 0, got 3");
  });

  it("keyword queries drop function words and keep each content word once", () => {
    assert.deepEqual(searchKeywords("What did Caroline research at the LGBTQ support group? What did Caroline do?"), ["caroline", "research", "lgbtq", "support", "group"]);
    assert.deepEqual(searchKeywords("我们用什么管理依赖"), ["管理", "依赖"]);
  });

  it("judges each target from the numbers, names what is missed, and leaves unmeasured ones open", () => {
    const t = Object.fromEntries(checkTargets(fixture()).map((x) => [x.id, x]));
    assert.equal(t["locomo-vs-server-memory"]!.met, true, t["locomo-vs-server-memory"]!.measured);
    assert.match(t["locomo-vs-server-memory"]!.measured, /0\.700 vs 0\.340 \(2\.1×\)/);
    assert.equal(t["recall-latency-vs-server-memory"]!.met, false, "hindsight over MCP (14 ms) is slower than server-memory (12 ms)");
    assert.match(t["recall-latency-vs-server-memory"]!.measured, /in-process 10 \/ 15 ms/);
    assert.equal(t["regression-vs-cosine"]!.met, false);
    assert.match(t["regression-vs-cosine"]!.measured, /ahead in 1 of 3; not ahead: b\/guard 1\/1 vs 1\/1, b\/noise 0\/1 vs 0\/1/);
    assert.equal(t["locomo-vs-cosine"]!.met, true);
    assert.equal(t["recall-p95-100k"]!.met, false, "67.5 ms is over 60 ms");

    const bare = { ...fixture(), locomo: null, latency: null };
    const open = checkTargets(bare).filter((x) => x.met === null).map((x) => x.id);
    assert.deepEqual(open, ["locomo-vs-server-memory", "recall-latency-vs-server-memory", "locomo-vs-cosine", "recall-p95-100k"]);
  });

  it("lists where hindsight loses, from the numbers alone", () => {
    const r = { ...fixture(), targets: [] };
    const l = losses(r);
    assert.ok(l.includes("LoCoMo multi-hop R@10: plain cosine top-k 0.450 > hindsight 0.400"), l.join("\n"));
    assert.ok(l.includes("b noise: server-memory 1/1 > hindsight 0/1"), l.join("\n"));
    assert.ok(l.includes("b: hindsight fails n1"), l.join("\n"));
    assert.ok(l.includes("recall p95 at 10k (both over MCP stdio): server-memory 18.0 ms < hindsight via MCP stdio 21.0 ms"), l.join("\n"));
    assert.ok(l.includes("write p50 at 10k (both over MCP stdio): server-memory 20.0 ms < hindsight via MCP stdio 40.0 ms"), l.join("\n"));
    assert.ok(
      l.includes("recall p50 at 1k (both over MCP stdio): server-memory 1.0 ms < hindsight via MCP stdio 12.0 ms, though its recalls found something only 0% of the time"),
      l.join("\n"),
    );
    assert.ok(!l.some((x) => x.includes("BM25")), "9.5 vs 10 ms and 39 vs 40 ms are within timing noise");
    assert.ok(!l.some((x) => x.includes("overall R@10")), "hindsight wins overall");
  });

  it("renders benchmarks.md with the command, the machine, every table and a link to every chart", () => {
    const base = fixture();
    const r: CompareResult = { ...base, targets: checkTargets(base) };
    const files = charts(r).map((c) => c.file);
    assert.deepEqual(files, ["locomo-recall-at-10.svg", "locomo-recall-at-5.svg", "regression-b.svg", "latency-recall.svg", "latency-write.svg"]);
    const md = renderMarkdown(r);
    assert.ok(md.includes("```sh\nhindsight bench compare --locomo a.json --cases b.json\n```"));
    assert.ok(md.includes("2 cores (cpu), 8 GB RAM, Node v20.0.0, Debian GNU/Linux 12 (bookworm). shared machine"));
    for (const f of files) assert.ok(md.includes(`](${f})`), `links ${f}`);
    assert.ok(md.includes("| hindsight | 0.600 / 0.400 | 0.600 / 0.700 | **0.600 / 0.700** | 100% | 40 | 5.0 ms |"), md);
    assert.ok(md.includes("| guard | 1/1 | 1/1 | 0/0 |"), "not-expressible cases are left out of the denominator");
    assert.ok(md.includes("server-memory cannot express: g1."));
    assert.ok(md.includes("| hindsight | 100,000 | 40.0 ms | 80.0 ms | 45.0 ms | 67.5 ms | 100% |"));
    assert.ok(md.includes("| recall p95 ≤ 60 ms at 100,000 memories (hindsight, in-process) | p95 67.5 ms (p50 45 ms) | **missed** |"));
    assert.ok(md.includes("The hindsight rows share one embedding model and LanceDB"), "a run that did not record its model names none");
    assert.ok(renderMarkdown({ ...r, embedding_model: "Xenova/multilingual-e5-small" }).includes("share one embedding model (`Xenova/multilingual-e5-small`) and LanceDB"));
  });
});
