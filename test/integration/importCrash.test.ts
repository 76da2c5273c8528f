import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, childEnv, ensureBundle, runCli } from "../helpers/cliProcess.js";
import { seedStore } from "../helpers/serveProcess.js";

const SCOPE = "project:import-crash";
const N = 400;

describe("integration: `hindsight import` killed with SIGKILL (real processes, LanceDB, the real model)", function () {
  this.timeout(900_000);
  let root: string;
  let file: string;

  before(async () => {
    ensureBundle();
    root = await mkdtemp(join(tmpdir(), "hindsight-import-crash-"));
    const source = join(root, "source");
    await seedStore(source, SCOPE, N);
    file = join(root, "export.jsonl");
    const exported = await runCli(["export", "--no-daemon", "--data", source, "--scope", SCOPE, "--out", file], { cwd: root, env: childEnv(root) });
    assert.equal(exported.code, 0, exported.stderr);
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const cli = (args: string[]) => runCli(args, { cwd: root, env: childEnv(root) });

  function importKilledAfter(target: string, ms: number | null): Promise<{ code: number | null; signal: string | null }> {
    return new Promise((resolvePromise, reject) => {
      const child = spawn(process.execPath, [CLI, "import", file, "--no-daemon", "--data", target, "--scope", SCOPE], { cwd: root, env: childEnv(root), stdio: "ignore" });
      child.on("error", reject);
      child.on("close", (code, signal) => resolvePromise({ code, signal }));
      if (ms !== null) setTimeout(() => child.kill("SIGKILL"), ms).unref();
    });
  }

  async function stored(target: string): Promise<string[]> {
    const r = await cli(["list", "--all", "--json", "--no-daemon", "--data", target, "--scope", SCOPE]);
    assert.equal(r.code, 0, r.stderr);
    return (JSON.parse(r.stdout) as Array<{ content: string }>).map((m) => m.content);
  }

  it("a kill leaves whole batches of complete records; importing again adds exactly the rest", async () => {
    const lines = (await readFile(file, "utf8")).trim().split("\n").slice(1).map((l) => JSON.parse(l) as { content?: string });
    const contents = new Set(lines.flatMap((l) => (l.content ? [l.content] : [])));
    assert.equal(contents.size, N);

    const t0 = Date.now();
    const whole = await importKilledAfter(join(root, "timed"), null);
    const duration = Date.now() - t0;
    assert.equal(whole.code, 0);
    assert.equal((await stored(join(root, "timed"))).length, N);

    const outcomes: string[] = [];
    const KILLS = 6;
    for (let k = 0; k < KILLS; k++) {
      const target = join(root, `kill-${k}`);
      const at = Math.round(duration * (0.35 + (0.65 * (k + Math.random())) / KILLS));
      const run = await importKilledAfter(target, at);
      const partial = await stored(target);
      outcomes.push(`${at} ms: ${run.signal ?? `exit ${run.code}`} → ${partial.length}`);
      assert.equal(partial.length % 100, 0, `kill at ${at} ms left a partial batch (${partial.length})`);
      for (const c of partial) assert.ok(contents.has(c), `kill at ${at} ms left a record that is not in the file: ${c}`);
      const again = await cli(["import", file, "--no-daemon", "--json", "--data", target, "--scope", SCOPE]);
      assert.equal(again.code, 0, again.stderr);
      const result = JSON.parse(again.stdout) as { memories: number; skipped: unknown[] };
      assert.equal(result.skipped.length, partial.length, "what the killed run stored is skipped");
      assert.equal(result.memories, N - partial.length, "and exactly the rest is added");
      assert.equal(new Set(await stored(target)).size, N);
      await rm(target, { recursive: true, force: true });
    }
    process.stderr.write(`      import ${duration} ms; kills: ${outcomes.join("; ")}\n`);
  });
});
