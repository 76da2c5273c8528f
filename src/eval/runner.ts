import { MemoryEngine, type EngineDeps } from "../core/engine.js";
import type { EngineConfigInput } from "../core/config.js";
import { HindsightError } from "../core/errors.js";
import type { Clock, MemoryStore } from "../core/ports.js";
import type { RecallResult } from "../core/recall/types.js";
import type { WriteResult } from "../core/write/writer.js";
import { parseInput } from "../core/validate.js";
import { CasesFileSchema, LAYER_ALIASES, type Case, type CasesFile, type Expect, type Matcher, type Step } from "./cases.js";

export interface CaseResult {
  id: string;
  category: string;
  pass: boolean;
  failures: string[];
  /** What each write and ingest did (action, type, reason): for reading a failure, not for judging it. */
  trace: string[];
}

export interface EvalReport {
  passed: number;
  failed: number;
  cases: CaseResult[];
}

/** A clock the runner sets to each step's `at`: the engine never sees the wall clock. */
export class SteppedClock implements Clock {
  constructor(private t = 0) {}
  set(t: number): void {
    this.t = t;
  }
  now(): number {
    return this.t;
  }
}

export interface EvalEnvironment {
  /** A fresh, empty store for one case. */
  newStore(caseId: string): Promise<MemoryStore>;
  /** Called after a case with the store it used (cleanup). */
  disposeStore?(store: MemoryStore): Promise<void>;
  embedder: EngineDeps["embedder"];
  /** Stage 2 of recall, as the product composes it (null: fused relevance only). */
  reranker?: EngineDeps["reranker"];
  config?: EngineConfigInput;
}

export function parseCasesFile(json: unknown): CasesFile {
  try {
    return parseInput(CasesFileSchema, json, "cases file");
  } catch (err) {
    if (HindsightError.is(err)) throw new HindsightError("CASES_INVALID", err.message, err.field === undefined ? {} : { field: err.field });
    throw err;
  }
}

export async function runCases(file: CasesFile, env: EvalEnvironment, onCase?: (r: CaseResult) => void): Promise<EvalReport> {
  const results: CaseResult[] = [];
  for (const c of file.cases) {
    const r = await runCase(c, env);
    results.push(r);
    onCase?.(r);
  }
  const passed = results.filter((r) => r.pass).length;
  return { passed, failed: results.length - passed, cases: results };
}

async function runCase(c: Case, env: EvalEnvironment): Promise<CaseResult> {
  const clock = new SteppedClock();
  const store = await env.newStore(c.id);
  const engine = new MemoryEngine({ store, embedder: env.embedder, reranker: env.reranker ?? null, clock }, { ...env.config, defaultScope: c.scope, actor: "eval" });
  const failures: string[] = [];
  const trace: string[] = [];
  try {
    await engine.open();
    for (const [i, step] of c.steps.entries()) {
      clock.set(Date.parse(step.at));
      try {
        failures.push(...(await runStep(engine, step, (line) => trace.push(`step ${i + 1}: ${line}`))).map((f) => `step ${i + 1}: ${f}`));
      } catch (err) {
        failures.push(`step ${i + 1}: error ${(err as Error).message}`);
      }
    }
  } finally {
    await engine.close();
    await env.disposeStore?.(store);
  }
  return { id: c.id, category: c.category, pass: failures.length === 0, failures, trace };
}

function traced(r: WriteResult): string {
  const m = r.memory;
  return `${r.action} ${m ? `${m.type}/${m.layer} ` : ""}"${m?.content ?? ""}" (${r.reason})`;
}

async function runStep(engine: MemoryEngine, step: Step, trace: (line: string) => void): Promise<string[]> {
  const expect = step.expect ?? {};
  if (step.write) {
    const w = step.write;
    const r = await engine.write({
      content: w.content,
      type: w.type,
      subject: w.subject,
      confidence: w.confidence,
      validUntil: w.valid_until === undefined ? undefined : w.valid_until === null ? null : new Date(Date.parse(w.valid_until)).toISOString(),
      scope: w.scope,
    });
    trace(traced(r));
    if (expect.flagged !== undefined && r.flagged !== expect.flagged) return [`flagged: expected ${expect.flagged}, got ${r.flagged} (${r.action}: ${r.reason})`];
    return [];
  }
  if (step.ingest) {
    const r = await engine.ingest({ user: step.ingest.user, assistant: step.ingest.assistant, scope: step.ingest.scope });
    if (r.results.length === 0) trace("ingest: nothing extracted");
    for (const w of r.results) trace(`ingest: ${traced(w)}`);
    return [];
  }
  if (step.forget) {
    await engine.forget({ query: step.forget.query, match: step.forget.match, scope: step.forget.scope });
    return [];
  }
  if (step.list) {
    const layer = step.list.layer ? LAYER_ALIASES[step.list.layer.toLowerCase()] : undefined;
    const listed = await engine.list({
      scope: step.list.scope,
      ...(step.list.type ? { types: [step.list.type] } : {}),
      ...(layer && layer !== "L0" ? { layers: [layer] } : {}),
    });
    if (expect.count !== undefined && listed.length !== expect.count) {
      return [`count: expected ${expect.count}, got ${listed.length} [${listed.map((m) => m.content).join(" | ")}]`];
    }
    return [];
  }
  if (step.recall) {
    const layer = step.recall.layer ? LAYER_ALIASES[step.recall.layer.toLowerCase()] : undefined;
    const r = await engine.recall({
      query: step.recall.query,
      k: step.recall.k ?? 5,
      scope: step.recall.scope,
      ...(step.recall.type ? { types: [step.recall.type] } : {}),
      ...(layer && layer !== "L0" ? { layers: [layer] } : {}),
    });
    trace(`recall "${step.recall.query}": ${r.memories.slice(0, 3).map((m) => `${m.score.toFixed(3)} (rel ${m.factors.relevance.toFixed(3)}) ${m.content.slice(0, 50)}`).join(" | ") || "nothing"}`);
    return checkRecall(r, expect);
  }
  return [];
}

function matches(content: string, m: Matcher): boolean {
  const lower = content.toLowerCase();
  return (Array.isArray(m) ? m : [m]).every((s) => lower.includes(s.toLowerCase()));
}

function show(m: Matcher): string {
  return JSON.stringify(m);
}

export function checkRecall(r: RecallResult, expect: Expect): string[] {
  const got = r.memories.map((m) => m.content);
  const seen = got.length === 0 ? "nothing" : got.map((c) => JSON.stringify(c)).join(", ");
  const out: string[] = [];
  if (expect.top !== undefined && !(got[0] !== undefined && matches(got[0], expect.top))) out.push(`top: expected ${show(expect.top)}, got ${seen}`);
  for (const m of expect.includes ?? []) if (!got.some((c) => matches(c, m))) out.push(`includes: ${show(m)} missing, got ${seen}`);
  for (const m of expect.excludes ?? []) if (got.some((c) => matches(c, m))) out.push(`excludes: ${show(m)} was recalled, got ${seen}`);
  if (expect.empty === true && got.length > 0) out.push(`empty: expected nothing, got ${seen}`);
  if (expect.empty === false && got.length === 0) out.push("empty: expected something, got nothing");
  if (expect.max_chars !== undefined) {
    const long = got.filter((c) => c.length > (expect.max_chars as number));
    if (long.length > 0) out.push(`max_chars: ${long.length} memories longer than ${expect.max_chars}: ${long.map((c) => c.length).join(", ")} chars`);
  }
  if (expect.conflict !== undefined && r.conflicts.length > 0 !== expect.conflict) {
    out.push(`conflict: expected ${expect.conflict}, got ${r.conflicts.length} conflicts; recalled ${seen}`);
  }
  return out;
}
