import type { CaseFailure, EvalReport, Suite, SuiteRun } from "../../protocol/model.js";

/**
 * Splits a failure of the eval runner ("step 3: top: expected [\"pnpm\"], got \"We use npm.\"",
 * "step 2: includes: \"x\" missing, got nothing") into what was expected and what came back.
 */
export function parseFailure(raw: string): CaseFailure {
  const stepMatch = /^step (\d+): ([\s\S]*)$/.exec(raw);
  const step = stepMatch ? Number(stepMatch[1]) : null;
  const rest = stepMatch ? (stepMatch[2] as string) : raw;
  const checkMatch = /^([a-z_]+): ([\s\S]*)$/.exec(rest);
  const check = checkMatch ? (checkMatch[1] as string) : "error";
  const body = checkMatch ? (checkMatch[2] as string) : rest;
  const gotAt = body.lastIndexOf(", got ");
  if (gotAt < 0) {
    const recalled = body.indexOf("; recalled ");
    if (recalled >= 0) return { step, check, expected: body.slice(0, recalled), got: body.slice(recalled + 11), raw };
    return { step, check, expected: body, got: "", raw };
  }
  const expected = body.slice(0, gotAt).replace(/^expected /, "");
  return { step, check, expected, got: body.slice(gotAt + 6), raw };
}

/** A run of a suite as the Tests view shows it: totals, pass/fail per category, each failing case's checks. */
export function suiteRun(suite: Pick<Suite, "id" | "label">, report: EvalReport, at: number, durationMs: number): SuiteRun {
  const byCategory = new Map<string, { passed: number; failed: number }>();
  for (const c of report.cases) {
    const entry = byCategory.get(c.category) ?? { passed: 0, failed: 0 };
    if (c.pass) entry.passed++;
    else entry.failed++;
    byCategory.set(c.category, entry);
  }
  return {
    suiteId: suite.id,
    label: suite.label,
    at,
    durationMs,
    passed: report.passed,
    failed: report.failed,
    categories: [...byCategory.entries()].map(([category, v]) => ({ category, ...v })).sort((a, b) => b.failed - a.failed || a.category.localeCompare(b.category)),
    failures: report.cases.filter((c) => !c.pass).map((c) => ({ id: c.id, category: c.category, checks: c.failures.map(parseFailure) })),
  };
}
