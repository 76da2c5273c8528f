import { strict as assert } from "node:assert";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { folderPath, hindsight, waitFor } from "./helpers.js";

describe("sidebar in the real VS Code host", () => {
  it("Show Memories reveals the webview, which loads under its CSP, shakes hands and gets a page of memories from the server", async () => {
    const api = await hindsight();
    await vscode.window.showTextDocument(vscode.Uri.file(join(folderPath("widgets"), "README.md")));
    await vscode.commands.executeCommand("hindsight.rememberSelection", { text: "The widgets project deploys with blue-green releases." });
    // Earlier tests restarted the server with the view open (it then answers BACKEND_UNAVAILABLE): count from here.
    const failedBefore = api.sidebar.failed.get("memories.page") ?? 0;
    const pagesBefore = api.sidebar.handled.get("memories.page") ?? 0;
    await vscode.commands.executeCommand("hindsight.showMemories");
    await waitFor("the webview's ready handshake", () => (api.sidebar.handled.get("ready") ?? 0) > 0, 60_000);
    await waitFor("a page of memories answered", () => (api.sidebar.handled.get("memories.page") ?? 0) > pagesBefore, 60_000);
    assert.equal(api.sidebar.failed.get("memories.page") ?? 0, failedBefore, `failed requests: ${JSON.stringify([...api.sidebar.lastErrors])}`);
    // The browser side: the runner (test/host/runHost.ts) finds the rendered rows in the workbench's webview frame.
    const artifacts = process.env.HINDSIGHT_HOST_TEST_ARTIFACTS;
    assert.ok(artifacts, "run through test/host/runHost.js");
    writeFileSync(join(artifacts, "sidebar-open"), "1");
    const seen = await waitFor("the runner to see memory rows in the webview", () => existsSync(join(artifacts, "sidebar-seen")) && readFileSync(join(artifacts, "sidebar-seen"), "utf8"), 45_000);
    assert.match(seen, /blue-green/);
  });
});
