import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { HindsightError } from "../../core/errors.js";
import type { MemoryStore } from "../../core/ports.js";
import type { CasesFile } from "../../eval/cases.js";
import { parseCasesFile, runCases, type CaseResult } from "../../eval/runner.js";
import { embedderFromEnv, rerankerFromEnv } from "../../server/runtime.js";
import { LanceStore } from "../../stores/lancedb/lanceStore.js";
import { InMemoryStore } from "../../stores/memory/memoryStore.js";
import { print, printJson } from "../output.js";
import { parseConfigOverride } from "./configOverride.js";

interface Baseline {
  passed: number;
}

/**
 * Every case of a file, or of every `*.json` file in a folder (one suite: the judgement halves in
 * eval/judgement/tune and check are folders of one file per kind of statement).
 */
async function readSuite(path: string): Promise<CasesFile> {
  const files = (await stat(path).catch(() => null))?.isDirectory()
    ? (await readdir(path)).filter((f) => f.endsWith(".json")).sort().map((f) => join(path, f))
    : [path];
  if (files.length === 0) throw new HindsightError("CASES_INVALID", `eval: ${path} holds no .json cases files`, { field: "FILE" });
  const suites: CasesFile[] = [];
  for (const file of files) {
    let json: unknown;
    try {
      json = JSON.parse(await readFile(file, "utf8"));
    } catch (err) {
      throw new HindsightError("CASES_INVALID", `eval: cannot read ${file} as JSON: ${(err as Error).message}`, { field: "FILE" });
    }
    suites.push(parseCasesFile(json));
  }
  const cases = suites.flatMap((s) => s.cases);
  const seen = new Set<string>();
  for (const c of cases) {
    if (seen.has(c.id)) throw new HindsightError("CASES_INVALID", `eval: case id "${c.id}" appears twice in ${path}`, { field: "id" });
    seen.add(c.id);
  }
  return { ...suites[0]!, cases };
}

/** `hindsight eval FILE|DIR [--json] [--store lancedb|memory] [--gate BASELINE]` */
export async function evalCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: "boolean" },
      store: { type: "string", default: "lancedb" },
      gate: { type: "string" },
      trace: { type: "boolean" },
      case: { type: "string", multiple: true },
      config: { type: "string" },
    },
  });
  const path = positionals[0];
  if (!path) throw new HindsightError("INVALID_INPUT", "eval: give the cases file to run, e.g. hindsight eval ../shared/eval/cases.public.json", { field: "FILE" });
  const parsed = await readSuite(path);
  const only = values.case ?? [];
  const file = only.length === 0 ? parsed : { ...parsed, cases: parsed.cases.filter((c) => only.some((id) => c.id.includes(id))) };
  const root = await mkdtemp(join(tmpdir(), "hindsight-eval-"));
  const dirs = new Map<MemoryStore, string>();
  try {
    const report = await runCases(
      file,
      {
        embedder: embedderFromEnv(),
        reranker: rerankerFromEnv(),
        ...(values.config ? { config: parseConfigOverride(values.config) } : {}),
        newStore: async (id) => {
          if (values.store === "memory") return new InMemoryStore();
          const dir = join(root, id.replace(/[^a-z0-9_-]/gi, "_"));
          const store = new LanceStore({ dir });
          dirs.set(store, dir);
          return store;
        },
        disposeStore: async (store) => {
          const dir = dirs.get(store);
          if (dir) await rm(dir, { recursive: true, force: true });
        },
      },
      values.json
        ? undefined
        : (r: CaseResult) => {
            print(r.pass ? `PASS ${r.id}` : `FAIL ${r.id}: ${r.failures.join("; ")}`);
            if (values.trace && !r.pass) for (const line of r.trace) print(`    ${line}`);
          },
    );
    if (values.json) {
      printJson(report);
    } else {
      printCategories(report.cases);
      print(`${report.passed} passed, ${report.failed} failed`);
    }
    if (values.gate) return gate(values.gate, report.passed, report.cases.length);
    return 0;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

function printCategories(cases: CaseResult[]): void {
  const by = new Map<string, { pass: number; total: number }>();
  for (const c of cases) {
    const e = by.get(c.category) ?? { pass: 0, total: 0 };
    e.total++;
    if (c.pass) e.pass++;
    by.set(c.category, e);
  }
  print([...by.entries()].map(([cat, e]) => `${cat} ${e.pass}/${e.total}`).join("  "));
}

/** The regression gate: fewer passing cases than the recorded baseline fails the run. */
async function gate(path: string, passed: number, total: number): Promise<number> {
  const baseline = JSON.parse(await readFile(path, "utf8")) as Baseline;
  if (passed < baseline.passed) {
    process.stderr.write(`eval gate: ${passed}/${total} passed, below the baseline of ${baseline.passed} in ${path}\n`);
    return 1;
  }
  if (passed > baseline.passed) process.stderr.write(`eval gate: ${passed}/${total} passed, above the baseline of ${baseline.passed}: raise it in ${path}\n`);
  return 0;
}
