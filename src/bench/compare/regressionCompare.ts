import type { EngineConfigInput } from "../../core/config.js";
import type { Embedder, MemoryStore } from "../../core/ports.js";
import type { RecallResult } from "../../core/recall/types.js";
import type { Case, CasesFile, Step } from "../../eval/cases.js";
import { checkRecall, runCases } from "../../eval/runner.js";
import { graphRecall, searchKeywords, type GraphRecallMode } from "./graphRecall.js";
import type { GraphEntity, KnowledgeGraphMemory, StartKnowledgeGraph } from "./ports.js";

export interface CaseOutcome {
  id: string;
  category: string;
  /** null: the system cannot express one of the case's steps, so the case is not counted for it. */
  pass: boolean | null;
  failures: string[];
}

export interface CategoryScore {
  passed: number;
  expressible: number;
  total: number;
}

export interface SuiteResult extends CategoryScore {
  by_category: Record<string, CategoryScore>;
  failed: string[];
  not_expressible: string[];
  /** The first failure of each failed case, shortened: what went wrong, for the reader of results.json. */
  why: Record<string, string>;
}

function shorten(text: string): string {
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

export function scoreSuite(outcomes: CaseOutcome[]): SuiteResult {
  const byCategory: Record<string, CategoryScore> = {};
  for (const o of outcomes) {
    const c = (byCategory[o.category] ??= { passed: 0, expressible: 0, total: 0 });
    c.total++;
    if (o.pass !== null) c.expressible++;
    if (o.pass === true) c.passed++;
  }
  return {
    passed: outcomes.filter((o) => o.pass === true).length,
    expressible: outcomes.filter((o) => o.pass !== null).length,
    total: outcomes.length,
    by_category: byCategory,
    failed: outcomes.filter((o) => o.pass === false).map((o) => o.id),
    not_expressible: outcomes.filter((o) => o.pass === null).map((o) => o.id),
    why: Object.fromEntries(outcomes.filter((o) => o.pass !== true).map((o) => [o.id, shorten(o.failures[0] ?? "")])),
  };
}

/** A hindsight configuration runs the suite with the project's own runner (every step is an engine call). */
export async function runSuiteOnEngine(
  file: CasesFile,
  env: { embedder: Embedder; newStore: (caseId: string) => Promise<MemoryStore>; disposeStore?: (store: MemoryStore) => Promise<void>; config: EngineConfigInput },
): Promise<CaseOutcome[]> {
  const report = await runCases(file, env);
  return report.cases.map((c) => ({ id: c.id, category: c.category, pass: c.pass, failures: c.failures }));
}

/** Why the official server cannot express a case (it has no layers), or null when it can. */
export function graphCannotExpress(c: Case): string | null {
  for (const [i, s] of c.steps.entries()) {
    if (s.recall?.layer !== undefined || s.list?.layer !== undefined) return `step ${i + 1}: memory layers have no counterpart in a knowledge graph`;
  }
  return null;
}

/**
 * The official server, driven through its own tools as an agent would: write and ingest create one
 * entity each (the memory's type, or "turn", as entityType); recall is its search (graphRecall) with
 * a type filter applied to entityType; forget deletes what its search finds (by query: every entity
 * the query finds, for keywords every entity that holds all of them; by match: every entity holding all
 * the terms); list counts entities; each scope is its own memory file and server, as separate projects
 * would be. It never refuses a write (flagged: false) and never reports a conflict.
 */
export async function runSuiteOnGraph(file: CasesFile, start: StartKnowledgeGraph, fileFor: (caseIndex: number, scopeIndex: number) => string, mode: GraphRecallMode): Promise<CaseOutcome[]> {
  const out: CaseOutcome[] = [];
  for (const [index, c] of file.cases.entries()) {
    if (graphCannotExpress(c) !== null) {
      out.push({ id: c.id, category: c.category, pass: null, failures: [graphCannotExpress(c) as string] });
      continue;
    }
    const graphs = new Map<string, KnowledgeGraphMemory>();
    const graphOf = async (scope: string): Promise<KnowledgeGraphMemory> => {
      let g = graphs.get(scope);
      if (!g) {
        g = await start(fileFor(index, graphs.size));
        graphs.set(scope, g);
      }
      return g;
    };
    const failures: string[] = [];
    let n = 0;
    try {
      for (const [i, step] of c.steps.entries()) {
        try {
          failures.push(...(await runGraphStep(step, (s) => graphOf(s ?? c.scope), () => ++n, mode)).map((f) => `step ${i + 1}: ${f}`));
        } catch (err) {
          failures.push(`step ${i + 1}: error ${(err as Error).message}`);
        }
      }
    } finally {
      for (const g of graphs.values()) await g.close();
    }
    out.push({ id: c.id, category: c.category, pass: failures.length === 0, failures });
  }
  return out;
}

function holdsAll(e: GraphEntity, terms: string[]): boolean {
  const text = e.observations.join("\n").toLowerCase();
  return terms.every((t) => text.includes(t.toLowerCase()));
}

async function runGraphStep(step: Step, graphOf: (scope: string | undefined) => Promise<KnowledgeGraphMemory>, nextId: () => number, mode: GraphRecallMode): Promise<string[]> {
  const expect = step.expect ?? {};
  if (step.write) {
    const g = await graphOf(step.write.scope);
    await g.createEntities([{ name: `memory ${nextId()}`, entityType: step.write.type ?? "memory", observations: [step.write.content] }]);
    if (expect.flagged === true) return ["flagged: expected true, got false (server-memory stores whatever it is given)"];
    return [];
  }
  if (step.ingest) {
    const g = await graphOf(step.ingest.scope);
    await g.createEntities([{ name: `turn ${nextId()}`, entityType: "turn", observations: [step.ingest.user] }]);
    return [];
  }
  if (step.forget) {
    const g = await graphOf(step.forget.scope);
    const doomed = new Set<string>();
    const match = step.forget.match;
    if (match && match.length > 0) for (const e of await g.searchNodes(match[0] as string)) if (holdsAll(e, match)) doomed.add(e.name);
    if (step.forget.query !== undefined) {
      if (mode === "question") for (const e of await g.searchNodes(step.forget.query)) doomed.add(e.name);
      else {
        const words = searchKeywords(step.forget.query);
        if (words.length > 0) for (const e of await g.searchNodes(words[0] as string)) if (holdsAll(e, words)) doomed.add(e.name);
      }
    }
    if (doomed.size > 0) await g.deleteEntities([...doomed]);
    return [];
  }
  if (step.list) {
    const all = await (await graphOf(step.list.scope)).readGraph();
    const listed = step.list.type ? all.filter((e) => e.entityType === step.list?.type) : all;
    if (expect.count !== undefined && listed.length !== expect.count) {
      return [`count: expected ${expect.count}, got ${listed.length} [${listed.flatMap((e) => e.observations).join(" | ")}]`];
    }
    return [];
  }
  if (step.recall) {
    const g = await graphOf(step.recall.scope);
    const k = step.recall.k ?? 5;
    const type = step.recall.type;
    const found = await graphRecall(g, step.recall.query, type ? Number.MAX_SAFE_INTEGER : k, mode);
    const top = (type ? found.filter((e) => e.entityType === type) : found).slice(0, k);
    // The suite's own checker, fed what the server returned (it has no conflicts to report).
    const asRecall = { memories: top.flatMap((e) => e.observations.map((content) => ({ content }))), conflicts: [] } as unknown as RecallResult;
    return checkRecall(asRecall, expect);
  }
  return [];
}
