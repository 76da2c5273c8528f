import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { EXTENSION_ID, hindsight, measure } from "./helpers.js";

describe("activation (real VS Code extension host)", () => {
  it("activates without opening the store or loading the model", async () => {
    const api = await hindsight();
    measure("vscode", { version: vscode.version, appName: vscode.env.appName, uiKind: vscode.env.uiKind, node: process.version });
    measure("activationMs", Number(api.activationMs.toFixed(1)));
    assert.ok(api.loadAndActivateMs !== null && api.loadAndActivateMs >= api.activationMs, "the bundle's loading is measured too");
    measure("loadAndActivateMs", Number(api.loadAndActivateMs.toFixed(1)));
    assert.equal(api.service.state, "stopped", "the server must start on first use, not at activation");
    assert.equal(api.service.ownerPid, null, "no owner process at activation");
    assert.ok(!Object.keys(require.cache).some((k) => k.includes("@lancedb") || k.includes("onnxruntime")), "activation loaded a native module");
  });

  it("registers every command the manifest contributes", async () => {
    await hindsight();
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const manifest = JSON.parse(readFileSync(join(ext.extensionPath, "package.json"), "utf8")) as { contributes: { commands: Array<{ command: string }> } };
    const all = new Set(await vscode.commands.getCommands(true));
    const missing = manifest.contributes.commands.map((c) => c.command).filter((c) => !all.has(c));
    assert.deepEqual(missing, []);
    assert.ok(manifest.contributes.commands.length >= 10);
  });

  it("derives one scope per workspace folder: the git remote, else the folder name", async () => {
    const api = await hindsight();
    const scopes = Object.fromEntries(api.service.folders().map((f) => [f.name, f.scope]));
    assert.deepEqual(scopes, { widgets: "project:github.com/acme/widgets", notes: "project:notes" });
  });
});
