import { strict as assert } from "node:assert";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import * as vscode from "vscode";
import { httpDefinition } from "../../../src/extension/mcpDefinition.js";
import { hindsight, measure, recallThroughVsCode } from "./helpers.js";

async function connect(uri: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "host-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(uri), { requestInit: { headers } }));
  return client;
}

function text(result: unknown): string {
  return ((result as { content?: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? "").join("\n");
}

describe("MCP server definition (real VS Code extension host)", () => {
  it("starts the engine on first use and serves MCP on loopback with the session token", async () => {
    const api = await hindsight();
    const rssBefore = process.memoryUsage().rss;
    const t0 = Date.now();
    const endpoint = await api.service.ensureEndpoint();
    measure("firstStartMs", Date.now() - t0);
    assert.equal(api.service.state, "running");
    assert.match(endpoint.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const def = httpDefinition(endpoint, "test");
    assert.equal(def.headers.Authorization, `Bearer ${endpoint.token}`);

    const client = await connect(def.uri, def.headers);
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name).sort();
      assert.deepEqual(tools, ["memory_forget", "memory_ingest", "memory_recall", "memory_summarize", "memory_write"]);
      const wrote = await client.callTool({ name: "memory_write", arguments: { content: "The widgets project deploys with blue-green releases on Fridays.", type: "constraint" } });
      assert.ok(!wrote.isError, text(wrote));
      const r = await client.callTool({ name: "memory_recall", arguments: { query: "how do we deploy widgets?" } });
      assert.ok(!r.isError, text(r));
      assert.match(text(r), /blue-green/);
      // Omitted scope = the active folder's project.
      assert.match(JSON.stringify(r.structuredContent ?? {}), /project:github\.com\/acme\/widgets/);
    } finally {
      await client.close();
    }
    // The engine now holds the model: report the extension host's memory.
    measure("extensionHostRssMb", { beforeStart: Math.round(rssBefore / 2 ** 20), withModelLoaded: Math.round(process.memoryUsage().rss / 2 ** 20) });
  });

  it("refuses MCP without the token or with a wrong one", async () => {
    const endpoint = await (await hindsight()).service.ensureEndpoint();
    for (const headers of [{}, { Authorization: "Bearer wrong-token-wrong-token-wrong" }] as Array<Record<string, string>>) {
      const res = await fetch(`${endpoint.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } }),
      });
      assert.equal(res.status, 401, `expected 401 with headers ${JSON.stringify(headers)}`);
    }
    await assert.rejects(connect(`${endpoint.url}/mcp`, {}));
  });

  it("VS Code starts the server from the definition provider: its tools reach vscode.lm.tools and one can be invoked", async () => {
    await hindsight();
    const out = await recallThroughVsCode({ query: "deploy widgets" });
    const names = vscode.lm.tools.filter((t) => /memory_/.test(t.name)).map((t) => t.name);
    measure("lmToolsFromMcp", names);
    assert.ok(names.some((n) => n.endsWith("memory_write")), JSON.stringify(names));
    assert.match(out, /blue-green/);
  });
});
