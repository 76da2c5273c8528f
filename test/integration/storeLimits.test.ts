import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HindsightError } from "../../src/core/errors.js";
import { MemoryEngine } from "../../src/core/engine.js";
import { LanceStore } from "../../src/stores/lancedb/lanceStore.js";
import { childEnv, ensureBundle, runCli } from "../helpers/cliProcess.js";
import { FakeEmbedder, FixedClock } from "../helpers/fakes.js";
import { http } from "../helpers/http.js";
import { seedStore, spawnServe } from "../helpers/serveProcess.js";

const TOKEN = "store-limits-token-0123456789abcdef";
const SCOPE = "project:limits";

/** A small file system of its own (tmpfs), so the disk can really fill up and really turn read-only. */
function mountTmpfs(dir: string, size: string): void {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size},mode=0700`, "tmpfs", dir], { stdio: "pipe" });
  } catch (err) {
    throw new Error(`this test mounts a small tmpfs and needs root (as CI and this machine have): ${String((err as { stderr?: Buffer }).stderr ?? err)}`);
  }
}

describe("integration: a full disk and a read-only store are told apart from bugs (real LanceDB on tmpfs)", function () {
  this.timeout(180_000);
  let root: string;
  const mounts: string[] = [];

  before(async () => {
    ensureBundle();
    root = await mkdtemp(join(tmpdir(), "hindsight-limits-"));
  });
  after(async () => {
    for (const m of mounts.reverse()) execFileSync("umount", ["-l", m]);
    await rm(root, { recursive: true, force: true });
  });

  it("a full disk: the write that does not fit is STORE_FULL naming the folder, every acknowledged write stays readable", async () => {
    const dir = join(root, "full");
    await mkdir(dir);
    mountTmpfs(dir, "6m");
    mounts.push(dir);
    const store = new LanceStore({ dir: join(dir, "store") });
    const engine = new MemoryEngine({ store, embedder: new FakeEmbedder(), clock: new FixedClock() }, { defaultScope: SCOPE });
    await engine.open();
    const acked: string[] = [];
    let failure: unknown = null;
    for (let i = 0; i < 5000 && failure === null; i++) {
      const content = `Runbook ${i}: ${"restart the ingest worker, drain the queue and check the lag dashboard; ".repeat(20)}`;
      try {
        const r = await engine.write({ content, type: "fact", subject: `runbook ${i}` });
        acked.push(r.id as string);
      } catch (err) {
        failure = err;
      }
    }
    assert.ok(HindsightError.is(failure, "STORE_FULL"), `expected STORE_FULL, got ${String(failure)}`);
    assert.match((failure as Error).message, new RegExp(join(dir, "store").replace(/[/.]/g, "\\$&")));
    assert.ok(acked.length > 3, `only ${acked.length} writes fitted`);
    // Reads go on: every acknowledged write is there, and a recall works.
    const listed = new Set((await engine.list({})).map((m) => m.id));
    for (const id of acked) assert.ok(listed.has(id), `acknowledged write ${id} lost`);
    assert.ok((await engine.recall({ query: "How do I restart the ingest worker?" })).memories.length > 0);
    // Another write is refused the same way, not with a crash.
    await assert.rejects(engine.write({ content: "The lag dashboard lives in Grafana." }), (err: unknown) => HindsightError.is(err, "STORE_FULL"));
    await engine.close();
  });

  it("a read-only store: serve answers recall and list, refuses writes with 503 STORE_READ_ONLY naming the folder, and without a token file it says why", async () => {
    const dir = join(root, "ro");
    await mkdir(dir);
    mountTmpfs(dir, "64m");
    mounts.push(dir);
    const data = join(dir, "store");
    await seedStore(data, SCOPE, 20);
    execFileSync("mount", ["-o", "remount,ro", dir]);

    const served = await spawnServe(root, data, SCOPE, TOKEN);
    try {
      const listed = await http(served.url, "GET", `/api/v1/memories?scope=${SCOPE}`, { token: TOKEN });
      assert.equal(listed.status, 200, listed.text);
      assert.equal(listed.json.total, 20);
      const recalled = await http(served.url, "POST", "/api/v1/recall", { token: TOKEN, body: { query: String(listed.json.memories[0].content), scope: SCOPE } });
      assert.equal(recalled.status, 200, recalled.text);
      assert.ok(recalled.json.memories.length > 0);
      const write = await http(served.url, "POST", "/api/v1/memories", { token: TOKEN, body: { content: "The VPN config lives in the infra repo.", scope: SCOPE } });
      assert.equal(write.status, 503, write.text);
      assert.equal(write.json.error.code, "STORE_READ_ONLY");
      assert.ok(write.json.error.message.includes(data), write.text);
      assert.ok(!/\bat .+:\d+:\d+/.test(write.text), "no stack trace");
    } finally {
      served.child.kill("SIGTERM");
      await served.exited;
    }

    // No token given and none can be written: a sentence, not a stack trace.
    const r = await runCli(["serve", "--data", data, "--port", "0"], { cwd: root, env: childEnv(root) });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /STORE_READ_ONLY: cannot write the bearer token to .*server-token .*pass --token or set HINDSIGHT_TOKEN/);
    assert.ok(!/\n\s+at /.test(r.stderr), r.stderr);
  });
});
