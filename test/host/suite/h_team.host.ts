import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import * as vscode from "vscode";
import { httpDefinition } from "../../../src/extension/mcpDefinition.js";
import { CLI, childEnv, startServeProcess, type ServeProcess } from "../../helpers/cliProcess.js";
import { clearSetting, folderPath, hindsight, recallThroughVsCode, setSetting, waitFor } from "./helpers.js";

const WIDGETS = "project:github.com/acme/widgets";

function createToken(home: string, file: string, id: string, projects: string): string {
  return execFileSync(process.execPath, [CLI, "token", "create", "--tokens", file, "--id", id, "--scopes", "read,write", "--projects", projects], {
    env: childEnv(home),
    encoding: "utf8",
  }).trim();
}

describe("team mode (real VS Code extension host, team server on loopback)", () => {
  let home = "";
  let server: ServeProcess | null = null;
  let widgetsToken = "";
  let otherToken = "";

  before(async () => {
    home = mkdtempSync(join(tmpdir(), "hindsight-team-"));
    const file = join(home, "tokens.json");
    widgetsToken = createToken(home, file, "dev", WIDGETS);
    otherToken = createToken(home, file, "stranger", "project:elsewhere");
    server = await startServeProcess(home, ["--store", "lancedb", "--data", join(home, "team-store"), "--tokens", file, "--rate", "0"]);
    // A local memory, to find again after switching back from team mode.
    await vscode.commands.executeCommand("hindsight.rememberSelection", { text: "The widgets project deploys with blue-green releases.", scope: WIDGETS });
    // Recall and writes default to the folder of the active editor: the widgets project.
    await vscode.window.showTextDocument(vscode.Uri.file(join(folderPath("widgets"), "README.md")));
  });

  after(async () => {
    await clearSetting("mode");
    await clearSetting("team.url");
    const api = await hindsight();
    await waitFor("local mode again", () => api.service.settings.mode === "local");
    server?.child.kill("SIGTERM");
    if (server) await server.exited;
  });

  it("sign-in refuses a wrong token and a token of another project, with a clear reason", async () => {
    const api = await hindsight();
    await assert.rejects(api.service.signInTeam(server!.url, "hst_not-a-real-token-not-a-real-token-xxxxx"), /refused the token \(401\)/);
    await assert.rejects(api.service.signInTeam(server!.url, otherToken), /does not allow this token for project:github\.com\/acme\/widgets \(403 PROJECT_FORBIDDEN\)/);
  });

  it("signs in (token in SecretStorage, not settings), switches to team mode; MCP and commands use the team server", async () => {
    const api = await hindsight();
    assert.equal(await vscode.commands.executeCommand("hindsight.signInTeam", { url: server!.url, token: widgetsToken }), true);
    await waitFor("team mode running", () => api.service.state === "running" && api.service.endpoint?.mode === "team", 60_000);
    assert.equal(api.service.endpoint?.url, server!.url);
    const inspected = vscode.workspace.getConfiguration("hindsight").inspect("team.url");
    assert.equal(inspected?.globalValue, server!.url);
    assert.ok(!JSON.stringify(vscode.workspace.getConfiguration("hindsight")).includes(widgetsToken), "the token must not be in settings");

    // The definition VS Code gets now points at the team server with the team token.
    const def = httpDefinition(api.service.endpoint!, "test");
    assert.equal(def.uri, `${server!.url}/mcp`);
    const client = new Client({ name: "host-team", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(def.uri), { requestInit: { headers: def.headers } }));
    try {
      const w = await client.callTool({ name: "memory_write", arguments: { content: "The team agreed: widgets releases need two approvals.", type: "constraint" } });
      assert.ok(!w.isError, JSON.stringify(w.content));
    } finally {
      await client.close();
    }
    // A command reads it back through the same server; the local store never saw it.
    const r = await vscode.commands.executeCommand<{ memories: Array<{ content: string }> }>("hindsight.recall", { query: "how many approvals do releases need?" });
    assert.ok(r?.memories.some((m) => /two approvals/.test(m.content)), JSON.stringify(r));
    // VS Code's own MCP client follows the definition change to the team server.
    assert.match(await recallThroughVsCode({ query: "release approvals" }, true), /two approvals/);
    // The auto-recall profile comes from the team server too.
    const profile = await api.service.profile(WIDGETS);
    assert.match(profile ?? "", /two approvals/);
  });

  it("an unreachable team server is a clear failed state; switching back to local needs no reload", async () => {
    const api = await hindsight();
    await setSetting("team.url", "http://127.0.0.1:9");
    await waitFor("failed state", () => api.service.state === "failed", 30_000);
    assert.match(api.service.error ?? "", /unreachable|not signed in/);
    await setSetting("mode", "local");
    await waitFor("local mode running", () => api.service.state === "running" && api.service.endpoint?.mode === "local", 60_000);
    const r = await vscode.commands.executeCommand<{ memories: Array<{ content: string }> }>("hindsight.recall", { query: "how do we deploy?", scope: WIDGETS });
    assert.ok(r?.memories.some((m) => /blue-green/.test(m.content)), "the local memories are back");
    assert.ok(!r?.memories.some((m) => /two approvals/.test(m.content)), "team memories stay on the team server");
  });
});
