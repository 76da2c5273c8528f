import { HindsightError } from "../../core/errors.js";
import type { Route } from "../router.js";

/** Largest cases file POST /eval accepts. */
export const EVAL_LIMIT_BYTES = 2 * 1024 * 1024;
/** Most cases one POST /eval runs. */
export const EVAL_MAX_CASES = 500;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Runs a posted cases file (../shared/eval/CASES.md format) with the eval runner the server was
 * given, on scratch stores: the served store is never touched. Without a runner: 501.
 */
export const evalRoutes: Route[] = [
  {
    method: "POST",
    path: "/eval",
    handler: async ({ engine, text, evaluate }) => {
      if (!evaluate) throw new HindsightError("NOT_IMPLEMENTED", "this server runs no eval (no eval runner was configured)");
      const body = await text(EVAL_LIMIT_BYTES);
      let json: unknown;
      try {
        json = JSON.parse(body) as unknown;
      } catch (err) {
        throw new HindsightError("INVALID_INPUT", `the body is not valid JSON: ${(err as Error).message}`, { field: "body" });
      }
      if (isObject(json) && Array.isArray(json.cases) && json.cases.length > EVAL_MAX_CASES) {
        throw new HindsightError("INVALID_INPUT", `cases: at most ${EVAL_MAX_CASES} cases per run (got ${json.cases.length})`, { field: "cases" });
      }
      const report = await evaluate(json, engine);
      return { json: { passed: report.passed, failed: report.failed, cases: report.cases.map((c) => ({ id: c.id, category: c.category, pass: c.pass, failures: c.failures })) } };
    },
  },
];
