import { strict as assert } from "node:assert";
import { parseFailure, suiteRun } from "../../../src/extension/sidebar/suiteRun.js";

describe("protocol: regression runs for the Tests view", () => {
  it("splits the eval runner's failures into check, expected and got", () => {
    assert.deepEqual(parseFailure('step 3: top: expected ["pnpm"], got "We use npm."'), {
      step: 3,
      check: "top",
      expected: '["pnpm"]',
      got: '"We use npm."',
      raw: 'step 3: top: expected ["pnpm"], got "We use npm."',
    });
    const includes = parseFailure('step 2: includes: "tabs" missing, got "A", "B, got it"');
    assert.equal(includes.check, "includes");
    assert.equal(includes.expected, '"tabs" missing, got "A", "B');
    assert.equal(parseFailure("step 4: empty: expected something, got nothing").got, "nothing");
    const conflict = parseFailure('step 5: conflict: expected true, got 0 conflicts; recalled "x"');
    assert.equal(conflict.expected, "true");
    assert.equal(conflict.got, '0 conflicts; recalled "x"');
    const error = parseFailure("step 1: error the store is closed");
    assert.equal(error.check, "error");
    assert.equal(error.expected, "error the store is closed");
    assert.equal(parseFailure("weird").step, null);
  });

  it("counts pass and fail per category, failing categories first, and keeps every failing check", () => {
    const run = suiteRun(
      { id: "/w/eval/a.json", label: "eval/a.json" },
      {
        passed: 2,
        failed: 2,
        cases: [
          { id: "a", category: "noise", pass: true, failures: [] },
          { id: "b", category: "supersede", pass: false, failures: ["step 2: top: expected \"x\", got nothing", "step 3: count: expected 1, got 2 [a | b]"] },
          { id: "c", category: "basics", pass: true, failures: [] },
          { id: "d", category: "noise", pass: false, failures: ["step 1: error boom"] },
        ],
      },
      1000,
      42,
    );
    assert.deepEqual(run.categories, [
      { category: "noise", passed: 1, failed: 1 },
      { category: "supersede", passed: 0, failed: 1 },
      { category: "basics", passed: 1, failed: 0 },
    ]);
    assert.deepEqual(run.failures.map((f) => [f.id, f.checks.length]), [["b", 2], ["d", 1]]);
    assert.equal(run.failures[0]!.checks[1]!.got, "2 [a | b]");
    assert.equal(run.durationMs, 42);
  });
});
