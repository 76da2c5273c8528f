import { strict as assert } from "node:assert";
import * as vscode from "vscode";
import type { RecallResult } from "../../../src/core/recall/types.js";
import { liveOwner } from "../../../src/server/ownerLock.js";
import { hindsight, waitFor } from "./helpers.js";

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
