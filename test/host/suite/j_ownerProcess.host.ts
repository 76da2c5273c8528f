import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import type { RecallResult } from "../../../src/core/recall/types.js";
import { liveOwner } from "../../../src/server/ownerLock.js";
import { hindsight, setSetting, waitFor } from "./helpers.js";

const exec = <T>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
const WIDGETS = "project:github.com/acme/widgets";

describe("the store's owner runs outside the extension host (real VS Code extension host, real child process)", () => {
  it("memory in use: the engine, LanceDB and the model live in a child process, never in the extension host", async () => {
    const api = await hindsight();
    await api.service.ensureEndpoint();
    const pid = api.service.ownerPid;
    assert.ok(pid && pid !== process.pid, `the owner is not a separate process: ${pid}`);
    const lock = await liveOwner(api.service.storePath);
    assert.equal(lock?.pid, pid, "the lock of the store names the owner process");
    assert.equal(lock?.role, "vscode");
    const loaded = Object.keys(require.cache).filter((k) => /@lancedb|onnxruntime|@huggingface/.test(k));
    assert.deepEqual(loaded, [], "the extension host loaded the engine's native modules");
  });

  it("survives the owner's death: the status bar shows it, and the next use starts a new owner on the same memories", async () => {
    const api = await hindsight();
    const client = await api.service.client();
    await client.json("POST", "/memories", { content: "Widgets reach production through blue-green releases after a canary hour.", scope: WIDGETS });
    const pid = api.service.ownerPid as number;
    process.kill(pid, "SIGKILL");
    await waitFor("the owner's death noticed", () => api.service.state === "failed", 30_000);
    assert.match(api.service.error ?? "", /ended unexpectedly \(signal SIGKILL\).*starts again on next use/);
    await waitFor("the status bar showing the failure", () => api.statusBar.text.includes("$(error)"), 10_000);
    assert.equal(api.service.endpoint, null);
    // Next use: a new owner, the memories written before the kill still there.
    const again = await exec<RecallResult>("hindsight.recall", { query: "how are widgets deployed?", scope: WIDGETS });
    assert.ok(again?.memories.some((m) => /blue-green/.test(m.content)), JSON.stringify(again?.memories.map((m) => m.content)));
    assert.equal(api.service.state, "running");
    assert.notEqual(api.service.ownerPid, pid);
    await waitFor("the status bar back to a count", () => !api.statusBar.text.includes("$(error)"), 10_000);
  });
});

describe("another process owns the extension's store (real VS Code extension host, a real hindsight serve)", () => {
  it("the extension becomes its client, and when that owner goes the next use starts the extension's own on the same store", async () => {
    const api = await hindsight();
    const ext = vscode.extensions.getExtension("judged-memory.hindsight")!;
    const original = api.service.storePath;
    const home = mkdtempSync(join(tmpdir(), "hindsight-foreign-"));
    const store = join(home, "store");
    // A `hindsight serve` owns a store first; then the editor is pointed at that store.
    const serve = spawn(process.execPath, [join(ext.extensionPath, "bin", "hindsight.js"), "serve", "--data", store, "--host", "127.0.0.1", "--port", "0"], {
      env: { ...process.env, HINDSIGHT_HOME: home, HINDSIGHT_MODEL_DIR: api.service.settings.modelPath },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let log = "";
    serve.stderr.on("data", (c: Buffer) => (log += c.toString()));
    try {
      const lock = await waitFor("hindsight serve owning the store", async () => {
        const owner = await liveOwner(store);
        return owner && owner.pid === serve.pid && owner.url ? owner : null;
      }, 60_000).catch((err: Error) => {
        throw new Error(`${err.message}; serve said: ${log}`);
      });
      await setSetting("storagePath", store);
      await waitFor("the extension on the other owner's server", () => api.service.state === "running" && api.service.endpoint?.url === lock.url, 30_000);
      assert.equal(api.service.ownerPid, null, "the extension starts no owner of its own");
      const client = await api.service.client();
      await client.json("POST", "/memories", { content: "Widgets' feature flags live in LaunchDarkly.", scope: WIDGETS });
      serve.kill("SIGKILL");
      await new Promise((resolve) => serve.once("exit", resolve));
      const again = await exec<RecallResult>("hindsight.recall", { query: "where do the widgets feature flags live?", scope: WIDGETS });
      assert.ok(again?.memories.some((m) => /LaunchDarkly/.test(m.content)), "the write made through the other owner is in the store");
      assert.ok(api.service.ownerPid, "the next use started the extension's own owner");
      assert.equal((await liveOwner(store))?.pid, api.service.ownerPid);
    } finally {
      if (serve.exitCode === null && serve.signalCode === null) serve.kill("SIGKILL");
      await setSetting("storagePath", original);
      await waitFor("back on the workspace's store", () => api.service.storePath === original && api.service.state === "running", 60_000).catch(() => undefined);
      rmSync(home, { recursive: true, force: true });
    }
  });
});
