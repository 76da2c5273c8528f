import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LlmClient, LlmRequest } from "../../src/core/ports.js";
import { LlmBridge } from "../../src/extension/llmBridge.js";
import { OwnerProcess, type OwnerProcessOptions } from "../../src/extension/ownerProcess.js";
import { ownerEndpoint } from "../../src/server/owner.js";
import { liveOwner } from "../../src/server/ownerLock.js";
import { childEnv, CLI, ensureBundle, MODEL_DIR, ROOT, runCli } from "../helpers/cliProcess.js";

/** Stands in for a Copilot model (vscode.lm exists only inside VS Code): extracts one fixed memory and records what it was asked. */
class ScriptedChatModel implements LlmClient {
  readonly id = "vscode.lm:test/scripted";
  readonly asked: LlmRequest[] = [];
  complete(request: LlmRequest): Promise<string> {
    this.asked.push(request);
    const turn = /Turn id: ([\w-]+)/.exec(request.user)?.[1] ?? "t";
    const memories = [{ should_remember: true, memory_type: "fact", subject: "project", content: "Releases of the billing service leave every second Tuesday.", confidence: 0.9, valid_until: null, source_turn: turn }];
    return Promise.resolve(JSON.stringify({ memories }));
  }
}

async function rest<T>(o: { url: string; token: string }, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${o.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${o.token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as T };
}

const SCOPE = "project:owner-process";

/** Alive and not a zombie (an orphan that exited may wait for a container's init to reap it). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

describe("the extension's owner process (real child process, real LanceDB, real model)", function () {
  this.timeout(180_000);
  let home = "";
  let store = "";
  const options = (extra: Partial<OwnerProcessOptions> = {}): OwnerProcessOptions => ({
    cliPath: CLI,
    env: childEnv(home),
    start: { storePath: store, port: 0, modelDir: MODEL_DIR, allowDownload: false, cacheDir: join(home, "models"), config: { defaultScope: SCOPE }, tokens: ["external-agents-token-0123456789"], llm: null },
    ...extra,
  });

  before(() => ensureBundle());
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "hindsight-owner-"));
    store = join(home, "store");
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it("serves the store as its owner: clients find it through the lock, settings reach its engine, closing stdin releases the store", async () => {
    const owner = await OwnerProcess.start(options());
    try {
      assert.notEqual(owner.pid, process.pid);
      const lock = await liveOwner(store);
      assert.equal(lock?.pid, owner.pid);
      assert.equal(lock?.role, "vscode");
      const written = await rest<{ memory: { id: string } }>(owner, "POST", "/memories", { content: "The billing service logs to Loki.", scope: SCOPE });
      assert.equal(written.status, 201);
      // The long-lived token for agents outside the editor is accepted too.
      const other = await rest<{ memories: Array<{ content: string }> }>({ url: owner.url, token: "external-agents-token-0123456789" }, "POST", "/recall", { query: "where do billing logs go?", scope: SCOPE });
      assert.ok(other.body.memories.some((m) => /Loki/.test(m.content)));
      // A CLI command on the same store is a client of this owner (it does not start its own).
      const cli = await runCli(["recall", "billing logs", "--data", store, "--scope", SCOPE, "--json"], { cwd: home, env: childEnv(home) });
      assert.equal(cli.code, 0, cli.stderr);
      assert.match(cli.stdout, /Loki/);
      const config = await owner.reconfigure({ defaultScope: SCOPE, recall: { relevanceFloor: 0.55 } });
      assert.equal(config.recall.relevanceFloor, 0.55);
      assert.equal(owner.config.recall.relevanceFloor, 0.55);
      await assert.rejects(owner.reconfigure({ recall: { relevanceFloor: 3 } }), /relevanceFloor/);
      assert.equal(owner.config.recall.relevanceFloor, 0.55, "a rejected setting leaves the running one");
    } finally {
      await owner.stop();
    }
    assert.equal(owner.alive, false);
    assert.equal(await liveOwner(store), null, "the lock is released when the owner stops");
  });

  it("dies with the editor: when the process that started it is killed -9, the owner closes the store and exits", async () => {
    // A stand-in extension host: starts the owner, prints its pid, then waits to be killed.
    const script = `
      const { OwnerProcess } = require(${JSON.stringify(join(ROOT, "out", "src", "extension", "ownerProcess.js"))});
      OwnerProcess.start(${JSON.stringify({ cliPath: CLI, start: options().start })}).then((o) => console.log("owner " + o.pid), (e) => { console.error(e); process.exit(1); });
      setInterval(() => undefined, 1000);`;
    const host = spawn(process.execPath, ["-e", script], { env: childEnv(home), stdio: ["ignore", "pipe", "inherit"] });
    const pid = await new Promise<number>((resolve, reject) => {
      let out = "";
      host.stdout.on("data", (c: Buffer) => {
        out += c.toString();
        const m = /owner (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      host.once("exit", (code) => reject(new Error(`the stand-in host exited (${code}) before its owner served`)));
    });
    assert.equal((await liveOwner(store))?.pid, pid);
    host.kill("SIGKILL");
    const until = Date.now() + 30_000;
    while ((await liveOwner(store)) !== null && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    assert.equal(await liveOwner(store), null, "the orphaned owner still holds the store");
    while (running(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    assert.equal(running(pid), false, "the orphaned owner process is still running");
  });

  it("a killed owner is reported as an unexpected end, and the next owner opens the store with everything acknowledged", async () => {
    const ended: Array<{ how: string; expected: boolean }> = [];
    const first = await OwnerProcess.start(options({ onExit: (how, expected) => ended.push({ how, expected }) }));
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await rest<{ memory: { id: string } }>(first, "POST", "/memories", { content: `Service ${i} of the fleet listens on port ${9100 + i}.`, scope: SCOPE })).body.memory.id);
    process.kill(first.pid, "SIGKILL");
    const until = Date.now() + 10_000;
    while (ended.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(ended, [{ how: "signal SIGKILL", expected: false }]);
    assert.equal(first.alive, false);
    const second = await OwnerProcess.start(options());
    try {
      for (const id of ids) assert.equal((await rest(second, "GET", `/memories/${id}`)).status, 200, `acknowledged memory ${id} is missing`);
      assert.equal((await ownerEndpoint(store))?.url, second.url);
    } finally {
      await second.stop();
    }
  });

  it("extracts with the editor's chat model through the loopback bridge, and switches to the rules when it is taken away", async () => {
    const model = new ScriptedChatModel();
    let upstream: LlmClient | null = model;
    const bridge = await LlmBridge.start(() => upstream);
    const owner = await OwnerProcess.start(options({ start: { ...options().start, llm: bridge.endpoint(model.id) } }));
    try {
      const first = await rest<{ extractor: string; results: Array<{ memory: { content: string } | null }> }>(owner, "POST", "/ingest", { user: "Billing releases go out every other Tuesday now.", scope: SCOPE });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.extractor, "llm", JSON.stringify(first.body));
      assert.ok(first.body.results.some((r) => r.memory?.content === "Releases of the billing service leave every second Tuesday."));
      assert.equal(model.asked.length, 1);
      assert.ok((model.asked[0]?.system ?? "").length > 100, "the extraction instructions reach the model");
      assert.ok(model.asked[0]?.jsonSchema, "the answer's schema reaches the model");
      assert.match(model.asked[0]?.user ?? "", /every other Tuesday/);
      // The editor lost its model: the owner is told, and ingest uses the rules without failing.
      upstream = null;
      owner.setLlm(null);
      const second = await rest<{ extractor: string; fallback_reason: string | null }>(owner, "POST", "/ingest", { user: "We keep the billing runbook in docs/runbook.md.", scope: SCOPE });
      assert.equal(second.body.extractor, "rules", JSON.stringify(second.body));
      assert.equal(second.body.fallback_reason, null);
      assert.equal(model.asked.length, 1);
    } finally {
      await owner.stop();
      await bridge.close();
    }
  });

  it("a start that cannot open the store fails with the owner's code and message, not a hang", async () => {
    const holder = await OwnerProcess.start(options());
    try {
      await assert.rejects(OwnerProcess.start(options()), (err: Error & { code?: string }) => err.code === "STORE_LOCKED" && /owned by/.test(err.message));
      await assert.rejects(OwnerProcess.start(options({ start: { ...options().start, storePath: join(home, "other"), modelDir: join(home, "no-models") } })), (err: Error & { code?: string }) => err.code === "MODEL_UNAVAILABLE");
    } finally {
      await holder.stop();
    }
  });
});
