import type { LatencyRow } from "./latencyCompare.js";
import type { CompareResult, TargetCheck } from "./result.js";
import type { LatencySystemId } from "./systems.js";

const RATIO = 2;
const P95_BUDGET_MS = 60;
const LARGE_N = 100_000;
const MID_N = 10_000;

function f3(x: number): string {
  return x.toFixed(3);
}

function latencyOf(rows: LatencyRow[], system: LatencySystemId, n: number): LatencyRow | undefined {
  return rows.find((r) => r.system === system && r.n === n);
}

/** The targets, judged from what was measured; a target whose inputs were not run is null, never guessed. */
export function checkTargets(r: Omit<CompareResult, "targets">): TargetCheck[] {
  const out: TargetCheck[] = [];
  const lo = r.locomo;
  const kTop = lo ? String(Math.max(...lo.k)) : "10";

  {
    const h = lo?.results.hindsight?.overall[kTop];
    const s = lo?.results["server-memory"]?.overall[kTop];
    const target = `LoCoMo R@${kTop}: hindsight ≥ ${RATIO}× the official memory server (its own search_nodes with the question)`;
    if (h === undefined || s === undefined) out.push({ id: "locomo-vs-server-memory", target, measured: "not measured", met: null });
    else {
      const ratio = s > 0 ? `${(h / s).toFixed(1)}×` : "server-memory found no evidence";
      out.push({ id: "locomo-vs-server-memory", target, measured: `${f3(h)} vs ${f3(s)} (${ratio})`, met: h >= RATIO * s });
    }
  }

  {
    const rows = r.latency?.rows ?? [];
    const target = `recall at ${MID_N.toLocaleString("en-US")} memories: hindsight faster than the official memory server (p50 and p95, both over MCP stdio)`;
    const h = latencyOf(rows, "hindsight-mcp", MID_N);
    const s = latencyOf(rows, "server-memory", MID_N);
    const engine = latencyOf(rows, "hindsight", MID_N);
    if (!h || !s) out.push({ id: "recall-latency-vs-server-memory", target, measured: "not measured", met: null });
    else {
      const inProcess = engine ? `; hindsight in-process ${engine.recall_p50_ms} / ${engine.recall_p95_ms} ms` : "";
      out.push({
        id: "recall-latency-vs-server-memory",
        target,
        measured: `hindsight ${h.recall_p50_ms} / ${h.recall_p95_ms} ms vs server-memory ${s.recall_p50_ms} / ${s.recall_p95_ms} ms (p50 / p95)${inProcess}`,
        met: h.recall_p50_ms < s.recall_p50_ms && h.recall_p95_ms < s.recall_p95_ms,
      });
    }
  }

  {
    const target = "regression suites: hindsight's pass rate above plain cosine top-k in every category";
    const suites = (r.regression ?? []).filter((s) => s.results.hindsight && s.results.cosine);
    if (suites.length === 0) out.push({ id: "regression-vs-cosine", target, measured: "not measured", met: null });
    else {
      const notBeaten: string[] = [];
      let categories = 0;
      for (const suite of suites) {
        const h = suite.results.hindsight?.by_category ?? {};
        const c = suite.results.cosine?.by_category ?? {};
        for (const [cat, hs] of Object.entries(h)) {
          categories++;
          const cs = c[cat];
          const hr = hs.expressible === 0 ? 0 : hs.passed / hs.expressible;
          const cr = !cs || cs.expressible === 0 ? 0 : cs.passed / cs.expressible;
          if (!(hr > cr)) notBeaten.push(`${suiteName(suite.file)}/${cat} ${hs.passed}/${hs.expressible} vs ${cs?.passed ?? 0}/${cs?.expressible ?? 0}`);
        }
      }
      out.push({
        id: "regression-vs-cosine",
        target,
        measured: notBeaten.length === 0 ? `ahead in all ${categories} categories` : `ahead in ${categories - notBeaten.length} of ${categories}; not ahead: ${notBeaten.join(", ")}`,
        met: notBeaten.length === 0,
      });
    }
  }

  {
    const target = "LoCoMo overall: hindsight above plain cosine top-k at every k";
    const h = lo?.results.hindsight;
    const c = lo?.results.cosine;
    if (!lo || !h || !c) out.push({ id: "locomo-vs-cosine", target, measured: "not measured", met: null });
    else {
      const parts = lo.k.map((k) => `R@${k} ${f3(h.overall[String(k)] ?? 0)} vs ${f3(c.overall[String(k)] ?? 0)}`);
      out.push({ id: "locomo-vs-cosine", target, measured: parts.join(", "), met: lo.k.every((k) => (h.overall[String(k)] ?? 0) > (c.overall[String(k)] ?? 0)) });
    }
  }

  {
    const target = `recall p95 ≤ ${P95_BUDGET_MS} ms at ${LARGE_N.toLocaleString("en-US")} memories (hindsight, in-process)`;
    const h = latencyOf(r.latency?.rows ?? [], "hindsight", LARGE_N);
    if (!h) out.push({ id: "recall-p95-100k", target, measured: "not measured", met: null });
    else out.push({ id: "recall-p95-100k", target, measured: `p95 ${h.recall_p95_ms} ms (p50 ${h.recall_p50_ms} ms)`, met: h.recall_p95_ms <= P95_BUDGET_MS });
  }
  return out;
}

export function suiteName(file: string): string {
  return (file.split(/[\\/]/).pop() ?? file).replace(/\.json$/, "");
}
