import { strict as assert } from "node:assert";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { RecallResult } from "../../../src/core/recall/types.js";
import { folderPath, hindsight, measure, recallThroughVsCode } from "./helpers.js";

const exec = <T>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
const WIDGETS = "project:github.com/acme/widgets";
const NOTES = "project:notes";

describe("commands end to end (real VS Code extension host, real engine)", () => {
  it("Remember Selection stores the editor's selection in the active folder's project", async () => {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(join(folderPath("widgets"), "README.md")));
    const editor = await vscode.window.showTextDocument(doc);
    const line = doc.lineAt(2);
    editor.selection = new vscode.Selection(line.range.start, line.range.end);
    const r = await exec<{ action: string; memory: { scope: string; content: string } | null }>("hindsight.rememberSelection");
    assert.ok(r && r.memory, JSON.stringify(r));
    assert.equal(r.memory.scope, WIDGETS);
    assert.match(r.memory.content, /blue-green releases/);
  });

  it("the active editor's folder decides the scope in a multi-root workspace", async () => {
    const api = await hindsight();
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(join(folderPath("notes"), "todo.md")));
    await vscode.window.showTextDocument(doc);
    assert.equal(api.service.activeScope(), NOTES);
    const r = await exec<{ memory: { scope: string } | null }>("hindsight.rememberSelection", { text: "The notes folder keeps meeting minutes in Markdown." });
    assert.equal(r?.memory?.scope, NOTES);
    // Recall defaults to the active folder: the widgets memory is not in the notes project.
    const here = await exec<RecallResult>("hindsight.recall", { query: "how do we release?" });
    assert.equal(here?.scope, NOTES);
    assert.ok(!here?.memories.some((m) => /blue-green/.test(m.content)));
    const there = await exec<RecallResult>("hindsight.recall", { query: "how do we release?", scope: WIDGETS });
    assert.ok(there?.memories.some((m) => /blue-green/.test(m.content)), JSON.stringify(there?.memories));
  });

  it("Forget removes what matches and Recall no longer returns it", async () => {
    await exec("hindsight.rememberSelection", { text: "The staging database password rotates every Monday.", scope: WIDGETS });
    const before = await exec<RecallResult>("hindsight.recall", { query: "when does the staging password rotate?", scope: WIDGETS });
    const target = before?.memories.find((m) => /rotates every Monday/.test(m.content));
    assert.ok(target, JSON.stringify(before?.memories));
    const r = await exec<{ forgotten: number; ids: string[] }>("hindsight.forget", { ids: [target.id], scope: WIDGETS, confirm: true });
    assert.deepEqual(r?.ids, [target.id]);
    const after = await exec<RecallResult>("hindsight.recall", { query: "when does the staging password rotate?", scope: WIDGETS });
    assert.ok(!after?.memories.some((m) => m.id === target.id));
  });

  it("Export writes JSONL; Import brings back what was forgotten", async () => {
    const base = process.env.HINDSIGHT_HOST_TEST_BASE ?? folderPath("notes");
    const file = join(base, "export.jsonl");
    const exported = await exec<{ path: string; lines: number }>("hindsight.export", { path: file, scope: WIDGETS });
    assert.ok(exported && exported.lines >= 2, JSON.stringify(exported));
    assert.ok(readFileSync(file, "utf8").includes("blue-green"));
    const found = await exec<RecallResult>("hindsight.recall", { query: "how do we deploy?", scope: WIDGETS });
    const ids = found!.memories.filter((m) => /blue-green/.test(m.content)).map((m) => m.id);
    assert.ok(ids.length >= 1);
    await exec("hindsight.forget", { ids, scope: WIDGETS, confirm: true });
    const gone = await exec<RecallResult>("hindsight.recall", { query: "how do we deploy?", scope: WIDGETS });
    assert.ok(!gone?.memories.some((m) => ids.includes(m.id)));
    const imported = await exec<{ memories: number; errors: unknown[] }>("hindsight.import", { path: file, scope: WIDGETS });
    assert.ok(imported && imported.memories >= ids.length, JSON.stringify(imported));
    assert.deepEqual(imported.errors, []);
    const back = await exec<RecallResult>("hindsight.recall", { query: "how do we deploy?", scope: WIDGETS });
    assert.ok(back?.memories.some((m) => /blue-green/.test(m.content)));
  });

  it("Run Memory Regression Suite runs a cases file and reports per case", async () => {
    const ext = vscode.extensions.getExtension("judged-memory.hindsight")!;
    const publicCases = JSON.parse(readFileSync(join(ext.extensionPath, "..", "shared", "eval", "cases.public.json"), "utf8")) as { version: number; cases: Array<{ category: string }> };
    const picked = ["timeliness", "noise", "conflict"].map((c) => publicCases.cases.find((x) => x.category === c)).filter((x) => x !== undefined);
    const file = join(process.env.HINDSIGHT_HOST_TEST_BASE ?? folderPath("notes"), "cases.json");
    writeFileSync(file, JSON.stringify({ version: publicCases.version, cases: picked }));
    const t0 = Date.now();
    const report = await exec<{ passed: number; failed: number; cases: Array<{ id: string; pass: boolean }> }>("hindsight.runRegressionSuite", { path: file });
    measure("suite3CasesMs", Date.now() - t0);
    assert.equal(report?.cases.length, picked.length);
    assert.equal(report?.passed, picked.length, JSON.stringify(report));
  });

  it("Copy MCP Config puts a stdio and an HTTP snippet on the clipboard", async () => {
    const api = await hindsight();
    const stdio = await exec<{ text: string }>("hindsight.copyMcpConfig", { agent: "Cursor", transport: "stdio" });
    const cfg = JSON.parse(stdio!.text) as { mcpServers: { hindsight: { command: string; args: string[] } } };
    assert.match(cfg.mcpServers.hindsight.args[0]!, /bin[\\/]hindsight\.js$/);
    assert.ok(existsSync(cfg.mcpServers.hindsight.args[0]!), "the bundled CLI must exist");
    assert.deepEqual(cfg.mcpServers.hindsight.args.slice(1), ["mcp", "--data", api.service.storePath, "--scope", api.service.activeScope()]);
    const http = await exec<{ text: string }>("hindsight.copyMcpConfig", { agent: "Claude Code", transport: "http" });
    assert.match(http!.text, /^claude mcp add --transport http hindsight http:\/\/127\.0\.0\.1:\d+\/mcp --header 'Authorization: Bearer [\w-]{40,}'/);
    assert.equal(await vscode.env.clipboard.readText(), http!.text);
    // The copied token works against the running server (it is the long-lived one for other agents).
    const token = /Bearer ([\w-]+)/.exec(http!.text)![1]!;
    const res = await fetch(`${api.service.endpoint!.url}/api/v1/stats`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200);
  });

  it("Restart Memory Server comes back on a new session and keeps the memories", async () => {
    const api = await hindsight();
    const before = api.service.endpoint!;
    const pidBefore = api.service.ownerPid;
    const changesBefore = api.mcpDefinitionChanges;
    const r = await exec<{ url: string }>("hindsight.restartServer");
    // A new session token (and port) means a new definition: VS Code is told to refresh.
    assert.ok(api.mcpDefinitionChanges > changesBefore, "the MCP definition change event did not fire");
    assert.notEqual(api.service.endpoint!.token, before.token);
    assert.ok(r?.url);
    assert.equal(api.service.state, "running");
    assert.notEqual(api.service.ownerPid, null);
    assert.notEqual(api.service.ownerPid, pidBefore, "a restart runs a new owner process");
    const old = await fetch(`${before.url}/healthz`).then(
      (x) => x.status,
      () => "closed",
    );
    if (r.url !== before.url) assert.equal(old, "closed");
    const again = await exec<RecallResult>("hindsight.recall", { query: "how do we deploy?", scope: WIDGETS });
    assert.ok(again?.memories.some((m) => /blue-green/.test(m.content)));
    // VS Code follows the new definition: its MCP tools reach the restarted server.
    assert.match(await recallThroughVsCode({ query: "how do we deploy?", scope: WIDGETS }, true), /blue-green/);
  });

  it("Show Logs and Show Memories open their views; the status bar says Memory and the count", async () => {
    const api = await hindsight();
    assert.equal(await exec("hindsight.showLogs"), true);
    assert.equal(await exec("hindsight.showMemories"), true);
    await api.statusBar.refresh();
    assert.match(api.statusBar.text, /^\$\(database\) Memory \d+$/);
  });
});
