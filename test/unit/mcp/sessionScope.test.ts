import { strict as assert } from "node:assert";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ListRootsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { MemoryApi } from "../../../src/core/memoryApi.js";
import type { Grant } from "../../../src/http/access/grant.js";
import { scopedApi } from "../../../src/http/access/scopedMemoryApi.js";
import { createMcpServer, type McpServerOptions } from "../../../src/mcp/createServer.js";
import { makeEngine, type TestEngine } from "../../helpers/fakes.js";

/** A client that offers roots (or not), answers roots/list from `roots`, and counts how often it was asked. */
async function connect(engine: MemoryApi, options: McpServerOptions, roots: string[] | null) {
  const server = createMcpServer(engine, options);
  const client = new Client({ name: "roots-test", version: "0.0.0" }, { capabilities: roots ? { roots: { listChanged: true } } : {} });
  const state = { roots: roots ?? [], asked: 0 };
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      state.asked++;
      return { roots: state.roots.map((uri) => ({ uri, name: uri })) };
    });
  }
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(b), client.connect(a)]);
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { client, state, call, close: async () => (await client.close(), await server.close()) };
}

const texts = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : ""));
const byName = (folder: string) => `project:${folder.split("/").pop()}`;

describe("mcp: the scope of calls without one (session scope)", () => {
  let t: TestEngine;
  beforeEach(async () => {
    t = await makeEngine();
  });
  afterEach(async () => {
    await t.engine.close();
  });

  it("no roots offered: the server's default, and the client is never asked", async () => {
    const c = await connect(t.engine, { scopeForRoot: byName }, null);
    const w = await c.call("memory_write", { content: "The build uses Bazel." });
    assert.equal((await t.engine.get(w.structuredContent!.id as string)).scope, "project:test");
    assert.equal(texts(w).length, 1, "no note");
    await c.close();
  });

  it("roots: the first file:// root's scope; an explicit scope wins; read once, again after roots/list_changed", async () => {
    const mapped: string[] = [];
    const c = await connect(t.engine, { scopeForRoot: (f) => (mapped.push(f), byName(f)) }, ["file:///work/shop", "file:///work/other"]);
    const w1 = await c.call("memory_write", { content: "The shop uses Stripe for payments." });
    const w2 = await c.call("memory_write", { content: "The shop ships from Rotterdam." });
    const w3 = await c.call("memory_write", { content: "The docs site uses Hugo.", scope: "project:docs" });
    const scopeOf = async (r: CallToolResult) => (await t.engine.get(r.structuredContent!.id as string)).scope;
    assert.deepEqual([await scopeOf(w1), await scopeOf(w2), await scopeOf(w3)], ["project:shop", "project:shop", "project:docs"]);
    assert.deepEqual(mapped, ["/work/shop"]);
    assert.equal(c.state.asked, 1, "roots are cached for the session");

    const recall = await c.call("memory_recall", { query: "payments provider" });
    assert.equal(recall.structuredContent!.scope, "project:shop");
    const prompt = await c.client.getPrompt({ name: "use_memory" });
    assert.match((prompt.messages[0]!.content as { text: string }).text, /calls without a scope use project:shop \(the scope of your first workspace root\)/);
    assert.deepEqual((await c.client.listResources()).resources.map((r) => r.uri), ["memory://profile/project%3Ashop"]);

    c.state.roots = ["file:///work/billing"];
    await c.client.sendRootsListChanged();
    await new Promise((r) => setImmediate(r));
    const w4 = await c.call("memory_write", { content: "Billing runs nightly at 02:00." });
    assert.equal(await scopeOf(w4), "project:billing");
    assert.equal(c.state.asked, 2);
    await c.close();
  });

  it("a token's view: roots choose among its projects; a root outside them falls back to the token's default, and the result says so", async () => {
    const grant: Grant = { id: "alice", permissions: new Set(["read", "write"]), projects: new Set(["project:a", "project:shop"]) };
    const view = scopedApi(t.engine.withDefaultScope("project:a"), grant);
    const inside = await connect(view, { scopeForRoot: byName }, ["file:///work/shop"]);
    const w = await inside.call("memory_write", { content: "The shop uses Stripe for payments." });
    assert.equal((await t.engine.get(w.structuredContent!.id as string)).scope, "project:shop");
    await inside.close();

    const outside = await connect(view, { scopeForRoot: byName }, ["file:///work/secret"]);
    const w2 = await outside.call("memory_write", { content: "The release is on Friday." });
    assert.notEqual(w2.isError, true, texts(w2).join(" "));
    assert.equal((await t.engine.get(w2.structuredContent!.id as string)).scope, "project:a");
    assert.match(texts(w2)[1] ?? "", /^Note: your workspace root \/work\/secret maps to project:secret, which is not used \(PROJECT_FORBIDDEN: token alice may not use project:secret .*\); calls without a scope use the server's default scope instead\.$/);
    const forbidden = await outside.call("memory_recall", { query: "release", scope: "project:secret" });
    assert.equal(forbidden.isError, true, "an explicit scope is still checked");
    await outside.close();
  });

  it("a client that declares roots but fails to list them: the default, with the reason", async () => {
    const server = createMcpServer(t.engine, { scopeForRoot: byName });
    const client = new Client({ name: "broken-roots", version: "0" }, { capabilities: { roots: {} } });
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      throw new Error("no workspace open");
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(b), client.connect(a)]);
    const r = (await client.callTool({ name: "memory_write", arguments: { content: "Logs go to Loki." } })) as CallToolResult;
    assert.equal((await t.engine.get(r.structuredContent!.id as string)).scope, "project:test");
    assert.match(texts(r)[1] ?? "", /workspace roots could not be read \(.*no workspace open/);
    await client.close();
    await server.close();
  });
});
