import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CATEGORY_NAMES } from "../locomo.js";
import type { LatencyRow } from "./latencyCompare.js";
import type { CompareResult } from "./result.js";
import { barChart, PALETTE } from "./svg.js";
import { suiteName } from "./targets.js";
import { isServerMemory, SYSTEMS, type LatencySystemId, type SystemId } from "./systems.js";

/** One colour per system in every chart, hindsight first. */
const COLOR: Record<LatencySystemId, string> = {
  hindsight: PALETTE[0] as string,
  cosine: PALETTE[1] as string,
  bm25: PALETTE[2] as string,
  "server-memory": PALETTE[3] as string,
  "server-memory-keywords": PALETTE[4] as string,
  "hindsight-mcp": PALETTE[6] as string,
};

const label = (id: LatencySystemId): string => SYSTEMS[id].label;

/** Report order: hindsight, then hindsight over MCP beside it, then the alternatives. */
const ORDER: LatencySystemId[] = ["hindsight", "hindsight-mcp", "cosine", "bm25", "server-memory", "server-memory-keywords"];
const byOrder = (a: LatencySystemId, b: LatencySystemId): number => ORDER.indexOf(a) - ORDER.indexOf(b);

function ms(x: number): string {
  return x >= 100 ? String(Math.round(x)) : x.toFixed(1);
}

function sizeLabel(n: number): string {
  return n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n);
}

export interface Chart {
  file: string;
  alt: string;
  svg: string;
}

/** The charts of a result, named as the markdown links them. */
export function charts(r: CompareResult): Chart[] {
  const out: Chart[] = [];
  const lo = r.locomo;
  if (lo) {
    const ids = Object.keys(lo.results) as SystemId[];
    const cats = Object.keys(CATEGORY_NAMES).filter((c) => ids.some((id) => lo.results[id]?.by_category[c]));
    for (const k of [...lo.k].sort((a, b) => b - a)) {
      out.push({
        file: `locomo-recall-at-${k}.svg`,
        alt: `LoCoMo evidence recall@${k} per category and system`,
        svg: barChart({
          title: `LoCoMo evidence recall@${k}, per question category`,
          subtitle: `${lo.results[ids[0] as SystemId]?.questions ?? 0} questions, ${lo.conversations} conversation${lo.conversations === 1 ? "" : "s"}; same turns, questions and k for every system`,
          groups: [...cats.map((c) => CATEGORY_NAMES[c] as string), "overall"],
          series: ids.map((id) => ({
            name: label(id),
            color: COLOR[id],
            values: [...cats.map((c) => lo.results[id]?.by_category[c]?.[String(k)] ?? null), lo.results[id]?.overall[String(k)] ?? null],
          })),
          yLabel: `recall@${k}`,
          yMax: 1,
          format: (v) => v.toFixed(2),
          valueLabels: true,
        }),
      });
    }
  }
  for (const suite of r.regression ?? []) {
    const ids = Object.keys(suite.results) as SystemId[];
    const cats = [...new Set(ids.flatMap((id) => Object.keys(suite.results[id]?.by_category ?? {})))];
    out.push({
      file: `regression-${suiteName(suite.file)}.svg`,
      alt: `pass rate per category of ${suiteName(suite.file)}`,
      svg: barChart({
        title: `Regression suite ${suiteName(suite.file)}: pass rate per category`,
        subtitle: `${suite.cases} cases; a system is scored only on the cases whose steps it can express`,
        groups: cats,
        series: ids.map((id) => ({
          name: label(id),
          color: COLOR[id],
          values: cats.map((c) => {
            const s = suite.results[id]?.by_category[c];
            return !s || s.expressible === 0 ? null : s.passed / s.expressible;
          }),
        })),
        yLabel: "share of cases passed",
        yMax: 1,
        format: (v) => `${Math.round(v * 100)}%`,
      }),
    });
  }
  const lat = r.latency;
  if (lat && lat.rows.length > 0) {
    const sizes = [...new Set(lat.rows.map((x) => x.n))].sort((a, b) => a - b);
    const ids = [...new Set(lat.rows.map((x) => x.system))].sort(byOrder);
    const of = (id: LatencySystemId, n: number): LatencyRow | undefined => lat.rows.find((x) => x.system === id && x.n === n);
    for (const [op, key] of [
      ["recall", "recall_p95_ms"],
      ["write", "write_p95_ms"],
    ] as const) {
      const values = lat.rows.map((x) => x[key]).filter((v) => v > 0);
      const log = values.length > 0 && Math.max(...values) / Math.min(...values) > 30;
      out.push({
        file: `latency-${op}.svg`,
        alt: `${op} latency p95 by store size`,
        svg: barChart({
          title: `${op === "recall" ? "Recall" : "Write"} latency p95 vs store size`,
          subtitle: `warm, one call at a time, synthetic project memories; ${op === "recall" ? `${lat.queries} queries, k = ${lat.k}` : `${lat.writes} new memories`} per system and size`,
          groups: sizes.map((n) => `${sizeLabel(n)} memories`),
          series: ids.map((id) => ({ name: label(id), color: COLOR[id], values: sizes.map((n) => of(id, n)?.[key] ?? null) })),
          yLabel: `${op} p95 (ms)`,
          scale: log ? "log" : "linear",
          format: ms,
          tickFormat: (v) => String(v),
          valueLabels: true,
        }),
      });
    }
  }
  return out;
}

function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(" | ")} |`, `| ${head.map(() => "---").join(" | ")} |`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");
}

function mark(met: boolean | null): string {
  return met === null ? "not measured" : met ? "**met**" : "**missed**";
}

/** A latency counts as a loss only past timing noise: at least this much faster, relatively and absolutely. */
const LATENCY_MARGIN = 0.1;
const LATENCY_MARGIN_MS = 1;

function faster(theirs: number, ours: number): boolean {
  return theirs < ours * (1 - LATENCY_MARGIN) && ours - theirs >= LATENCY_MARGIN_MS;
}

/** Where another system does better than hindsight, from the numbers alone. */
export function losses(r: CompareResult): string[] {
  const out: string[] = [];
  const lo = r.locomo;
  const h = lo?.results.hindsight;
  if (lo && h) {
    const others = (Object.entries(lo.results) as Array<[SystemId, NonNullable<(typeof lo.results)[SystemId]>]>).filter(([id]) => id !== "hindsight");
    for (const k of lo.k) {
      for (const [id, res] of others) {
        for (const [c, byK] of Object.entries(res.by_category)) {
          const theirs = byK[String(k)] ?? 0;
          const ours = h.by_category[c]?.[String(k)] ?? 0;
          if (theirs > ours) out.push(`LoCoMo ${CATEGORY_NAMES[c]} R@${k}: ${label(id)} ${theirs.toFixed(3)} > hindsight ${ours.toFixed(3)}`);
        }
        const theirs = res.overall[String(k)] ?? 0;
        if (theirs > (h.overall[String(k)] ?? 0)) out.push(`LoCoMo overall R@${k}: ${label(id)} ${theirs.toFixed(3)} > hindsight ${(h.overall[String(k)] ?? 0).toFixed(3)}`);
      }
    }
    for (const [id, res] of others) {
      if (faster(res.recall_p50_ms, h.recall_p50_ms)) out.push(`LoCoMo recall p50: ${label(id)} ${ms(res.recall_p50_ms)} ms < hindsight ${ms(h.recall_p50_ms)} ms`);
    }
  }
  for (const suite of r.regression ?? []) {
    const hs = suite.results.hindsight;
    if (!hs) continue;
    for (const [id, res] of Object.entries(suite.results) as Array<[SystemId, NonNullable<(typeof suite.results)[SystemId]>]>) {
      if (id === "hindsight") continue;
      for (const [c, s] of Object.entries(res.by_category)) {
        const ours = hs.by_category[c];
        if (!ours || s.expressible === 0 || ours.expressible === 0) continue;
        if (s.passed / s.expressible > ours.passed / ours.expressible) out.push(`${suiteName(suite.file)} ${c}: ${label(id)} ${s.passed}/${s.expressible} > hindsight ${ours.passed}/${ours.expressible}`);
      }
    }
    if (hs.failed.length > 0) out.push(`${suiteName(suite.file)}: hindsight fails ${hs.failed.join(", ")}`);
  }
  for (const row of r.latency?.rows ?? []) {
    if (row.system === "hindsight" || row.system === "hindsight-mcp") continue;
    // Like for like: the official server against hindsight behind its own stdio server, the reductions against the engine in-process.
    const ours = r.latency?.rows.find((x) => x.n === row.n && x.system === (isServerMemory(row.system) ? "hindsight-mcp" : "hindsight"));
    if (!ours) continue;
    const via = ours.system === "hindsight-mcp" ? " (both over MCP stdio)" : "";
    const hits = row.recall_hit_rate < 0.5 ? `, though its recalls found something only ${Math.round(row.recall_hit_rate * 100)}% of the time` : "";
    for (const [what, theirs, mine] of [
      ["recall p50", row.recall_p50_ms, ours.recall_p50_ms],
      ["recall p95", row.recall_p95_ms, ours.recall_p95_ms],
    ] as const) {
      if (faster(theirs, mine)) out.push(`${what} at ${sizeLabel(row.n)}${via}: ${label(row.system)} ${ms(theirs)} ms < ${label(ours.system)} ${ms(mine)} ms${hits}`);
    }
    for (const [what, theirs, mine] of [
      ["write p50", row.write_p50_ms, ours.write_p50_ms],
      ["write p95", row.write_p95_ms, ours.write_p95_ms],
    ] as const) {
      if (faster(theirs, mine)) out.push(`${what} at ${sizeLabel(row.n)}${via}: ${label(row.system)} ${ms(theirs)} ms < ${label(ours.system)} ${ms(mine)} ms`);
    }
  }
  return out;
}

/** benchmarks.md: every number comes from the result; nothing here is typed by hand. */
export function renderMarkdown(r: CompareResult, chartFiles: Chart[] = charts(r)): string {
  const m = r.machine;
  const lines: string[] = [];
  const img = (file: string): void => {
    const c = chartFiles.find((x) => x.file === file);
    if (c) lines.push("", `![${c.alt}](${c.file})`);
  };
  lines.push(
    "# hindsight against the alternatives",
    "",
    `Generated by \`hindsight bench compare\` on ${r.generated_at.slice(0, 10)} (${r.generated_at}); every table and chart below is written by the command.`,
    "",
    `Machine: ${m.cpus} cores (${m.cpu_model}), ${m.memory_gb} GB RAM, Node ${m.node}, ${m.os}.${m.note ? ` ${m.note}` : ""}`,
    `Whole run: ${Math.round(r.duration_s / 60)} min.`,
    "",
    "```sh",
    r.command,
    "```",
    "",
    "## Systems",
    "",
    table(
      ["system", "what it is"],
      // Described as the code that renders the run describes them (a saved run may carry older wording).
      r.systems.map((s) => [s.label, s.id in SYSTEMS ? SYSTEMS[s.id].description : s.description]),
    ),
    "",
    `Every system gets the same data, the same query text and the same k. The hindsight rows share one embedding model${r.embedding_model ? ` (\`${r.embedding_model}\`)` : ""} and LanceDB; the official server is the npm package, unmodified, spawned and driven by the MCP SDK's client over stdio.`,
    "",
    "## Targets",
    "",
    table(
      ["target", "measured", ""],
      r.targets.map((t) => [t.target, t.measured, mark(t.met)]),
    ),
  );

  const lo = r.locomo;
  if (lo) {
    const ids = Object.keys(lo.results) as SystemId[];
    const cats = Object.keys(CATEGORY_NAMES).filter((c) => ids.some((id) => lo.results[id]?.by_category[c]));
    const anyResult = lo.results[ids[0] as SystemId];
    lines.push(
      "",
      "## LoCoMo evidence recall",
      "",
      `\`${lo.file}\`, ${lo.conversations} conversation${lo.conversations === 1 ? "" : "s"}, ${anyResult?.questions ?? 0} scored questions (categories 1-4 with evidence), ${anyResult?.turns ?? 0} turns. ` +
        "Each conversation is stored fresh in each system, turn by turn (the session's date as the time, the speaker named); each question is asked once; " +
        "a question's recall@k is the share of its evidence turns behind the top-k results. Cells: " +
        lo.k.map((k) => `R@${k}`).join(" / ") +
        ".",
      "",
      table(
        ["system", ...cats.map((c) => `${CATEGORY_NAMES[c]} (${anyResult?.questions_by_category[c] ?? 0})`), "overall", "answered", "stored", "recall p50"],
        ids.map((id) => {
          const x = lo.results[id];
          if (!x) return [label(id)];
          const cell = (byK: Record<string, number> | undefined): string => lo.k.map((k) => (byK?.[String(k)] ?? 0).toFixed(3)).join(" / ");
          return [label(id), ...cats.map((c) => cell(x.by_category[c])), `**${cell(x.overall)}**`, `${Math.round(x.answered_share * 100)}%`, String(x.stored), `${ms(x.recall_p50_ms)} ms`];
        }),
      ),
      "",
      "*answered*: questions for which the system returned anything at all; *stored*: memories (hindsight) or entities (server-memory) after ingest, summed over the conversations.",
    );
    for (const k of [...lo.k].sort((a, b) => b - a)) img(`locomo-recall-at-${k}.svg`);
  }

  for (const suite of r.regression ?? []) {
    const ids = Object.keys(suite.results) as SystemId[];
    const cats = [...new Set(ids.flatMap((id) => Object.keys(suite.results[id]?.by_category ?? {})))];
    lines.push(
      "",
      `## Regression suite \`${suiteName(suite.file)}\``,
      "",
      `\`${suite.file}\`, ${suite.cases} cases. Cells: passed / cases the system can express (every case starts from an empty store).`,
      "",
      table(
        ["category", ...ids.map(label)],
        [
          ...cats.map((c) => [c, ...ids.map((id) => {
            const s = suite.results[id]?.by_category[c];
            return s ? `${s.passed}/${s.expressible}` : "–";
          })]),
          ["**all**", ...ids.map((id) => {
            const s = suite.results[id];
            return s ? `**${s.passed}/${s.expressible}**` : "–";
          })],
        ],
      ),
    );
    const unexpressed = ids.filter((id) => (suite.results[id]?.not_expressible.length ?? 0) > 0);
    for (const id of unexpressed) lines.push("", `${label(id)} cannot express: ${suite.results[id]?.not_expressible.join(", ")}.`);
    img(`regression-${suiteName(suite.file)}.svg`);
  }

  const lat = r.latency;
  if (lat && lat.rows.length > 0) {
    lines.push(
      "",
      "## Latency",
      "",
      `Synthetic project memories (\`src/bench/synthetic.ts\`) bulk-loaded to each size, then, warm and one call at a time: ${lat.queries} recalls (k = ${lat.k}, natural-language questions) ` +
        `and ${lat.writes} writes of new memories per system. hindsight rows are in-process engine calls (query embedding included; writes through the full write path); ` +
        "*via MCP stdio* and server-memory rows are tool calls from an MCP SDK client to a spawned server, so they include the protocol. *hits*: share of recalls that returned anything.",
      "",
      table(
        ["system", "memories", "write p50", "write p95", "recall p50", "recall p95", "hits"],
        [...lat.rows]
          .sort((a, b) => a.n - b.n || byOrder(a.system, b.system))
          .map((x) => [label(x.system), x.n.toLocaleString("en-US"), `${ms(x.write_p50_ms)} ms`, `${ms(x.write_p95_ms)} ms`, `${ms(x.recall_p50_ms)} ms`, `${ms(x.recall_p95_ms)} ms`, `${Math.round(x.recall_hit_rate * 100)}%`]),
      ),
    );
    img("latency-recall.svg");
    img("latency-write.svg");
  }

  const lost = losses(r);
  lines.push(
    "",
    "## Where hindsight loses",
    "",
    `Every comparison above where another system does better: any recall or pass-rate difference; latencies when the other system is more than ${Math.round(LATENCY_MARGIN * 100)}% and ${LATENCY_MARGIN_MS} ms faster ` +
      "(the official server against hindsight over MCP stdio, the reductions against hindsight in-process).",
    "",
    ...(lost.length === 0 ? ["Nowhere in this run."] : lost.map((l) => `- ${l}`)),
  );
  lines.push(
    "",
    "## How each system is driven",
    "",
    "- **hindsight** and its reductions run in this process on a fresh LanceDB folder per conversation or case. The reductions are configurations of the same engine " +
      "(`src/bench/compare/systems.ts`): they still refuse secrets and quarantine injections on write, and explicit writes still go through dedup and supersession, which configuration cannot switch off.",
    "- **server-memory** is `@modelcontextprotocol/server-memory`, spawned with `MEMORY_FILE_PATH` in a temporary folder. LoCoMo: each turn is one entity (name = its dia_id, type `dialogue turn`) " +
      "whose observation is `speaker: text`, stored with `create_entities`; recall is `search_nodes` with the question, the first k entities in the order the server answers (it does not rank). " +
      "Regression suites: `write` and `ingest` create one entity each (type = the memory type, or `turn`), `recall` is the same search (a type filter compares the entity type), " +
      "`forget` deletes what its search finds, `list` counts entities, and each scope is its own memory file. It never refuses a write and never reports a conflict.",
    "- **server-memory (keywords)** is a second, labelled use of the same server and data: the question's content words (stopwords removed) are searched one by one and entities ranked by how many words found them.",
    "- Latency of the official server includes what its design costs: every tool call reads and parses the whole JSONL graph, and every write rewrites it.",
    "",
  );
  return lines.join("\n");
}

/** Writes benchmarks.md, the SVG charts and results.json (the --json document) into dir. */
export async function writeReport(dir: string, r: CompareResult): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const list = charts(r);
  const written: string[] = [];
  for (const c of list) {
    await writeFile(join(dir, c.file), c.svg);
    written.push(c.file);
  }
  await writeFile(join(dir, "benchmarks.md"), renderMarkdown(r, list));
  await writeFile(join(dir, "results.json"), `${JSON.stringify(r, null, 2)}\n`);
  return ["benchmarks.md", "results.json", ...written];
}
