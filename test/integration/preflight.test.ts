import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

// `npm test` starts with tools/preflight.mjs: what a person must fix is reported before anything slow runs.
const PREFLIGHT = resolve(__dirname, "..", "..", "..", "tools", "preflight.mjs");

function preflight(env: Record<string, string>): { status: number | null; stderr: string; ms: number } {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [PREFLIGHT], { env: { ...process.env, ...env }, encoding: "utf8", timeout: 30_000 });
  return { status: r.status, stderr: r.stderr, ms: Date.now() - t0 };
}

describe("preflight (the first step of npm test)", () => {
  it("stops in seconds with the exact command when the model folder is missing", () => {
    const r = preflight({ HINDSIGHT_MODEL_DIR: "/nonexistent/models" });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /Xenova\/multilingual-e5-small is not in \/nonexistent\/models/);
    assert.match(r.stderr, /run: export HINDSIGHT_MODEL_DIR=/);
    assert.ok(r.ms < 10_000, `took ${r.ms} ms`);
  });

  it("names the one browser variable when it points at nothing", () => {
    const r = preflight({ HINDSIGHT_CHROMIUM: "/nonexistent/chromium" });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /HINDSIGHT_CHROMIUM=\/nonexistent\/chromium is not an executable file/);
  });
});
