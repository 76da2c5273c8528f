import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ListRootsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { renderInstructions } from "../../src/extension/instructions.js";
import { MEMORY_GUIDANCE, OMITTED_SCOPE } from "../../src/mcp/guidance.js";
import { SCOPE_HEADER } from "../../src/mcp/scopeHeader.js";
import { createToken } from "../../src/server/tokenFile.js";
import { CLI, childEnv, ensureBundle, startServeProcess, stopOwner, type ServeProcess } from "../helpers/cliProcess.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function structured(r: CallToolResult): any {
  assert.notEqual(r.isError, true, `tool failed: ${JSON.stringify(r.content)}`);
  assert.ok(r.structuredContent, "no structuredContent");
  return r.structuredContent;
}

const texts = (r: CallToolResult): string[] => r.content.map((c) => (c.type === "text" ? c.text : ""));

/** An SDK client that offers `roots` (file URLs of folders) when given, and lets the test change them (roots/list_changed). */
interface AgentClient {
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** The scope a recall without one ran in. */
  sessionScope(): Promise<string>;
  setRoots(folders: string[]): Promise<void>;
  close(): Promise<void>;
}

async function agent(transport: Transport, roots: string[] | null): Promise<AgentClient> {
  const client = new Client({ name: "agent-test", version: "0.0.0" }, { capabilities: roots ? { roots: { listChanged: true } } : {} });
  let current = roots ?? [];
  if (roots) client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: current.map((f) => ({ uri: pathToFileURL(f).href, name: f })) }));
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    client,
    call,
    sessionScope: async () => structured(await call("memory_recall", { query: "which database does the project use?" })).scope as string,
    setRoots: async (folders) => {
      current = folders;
      await client.sendRootsListChanged();
    },
    close: () => client.close(),
  };
}

/** Waits until the session's scope is `want` (a notification and the next call may travel on different requests). */
async function eventuallyScope(a: AgentClient, want: string): Promise<void> {
  let seen = "";
  for (let i = 0; i < 50 && seen !== want; i++) {
    seen = await a.sessionScope();
    if (seen !== want) await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(seen, want);
}

describe("integration: what an agent gets from the MCP server (real processes, real model)", function () {
  this.timeout(180_000);
  let home: string;
  let work: string;
  /** A folder named bi-dashboard, not a git repository: its scope is its name. */
  let dashboard: string;
  /** A git repository whose origin is github.com/acme/shop: its scope is the remote. */
  let shop: string;
  const cleanup: Array<() => Promise<unknown>> = [];

  before(() => ensureBundle());

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "hindsight-agent-home-"));
    work = await mkdtemp(join(tmpdir(), "hindsight-agent-work-"));
    dashboard = join(work, "bi-dashboard");
    shop = join(work, "Shop");
    await mkdir(dashboard);
    await mkdir(shop);
    execFileSync("git", ["init", "-q"], { cwd: shop });
    execFileSync("git", ["remote", "add", "origin", "git@github.com:Acme/Shop.git"], { cwd: shop });
  });

  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c().catch(() => undefined);
    await stopOwner(join(home, "store"));
    await rm(home, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  });

  function stdio(args: string[]): StdioClientTransport {
    return new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", ...args], cwd: work, env: childEnv(home), stderr: "pipe" });
  }

  async function serve(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
    const served = await startServeProcess(home, ["--data", join(home, "served"), "--rate", "0", ...args], env);
    cleanup.push(async () => {
      served.child.kill("SIGTERM");
      await served.exited;
    });
    return served;
  }

  function http(url: string, token: string, headers: Record<string, string> = {}): StreamableHTTPClientTransport {
    return new StreamableHTTPClientTransport(new URL("/mcp", url), { requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } } });
  }

  describe("over stdio (hindsight mcp)", () => {
    it("memory://profile/{scope} answers the raw and the percent-encoded scope alike", async () => {
      const a = await agent(stdio(["--scope", "project:t"]), null);
      cleanup.push(() => a.close());
      const { resourceTemplates } = await a.client.listResourceTemplates();
      assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), ["memory://profile/{+scope}"]);
      for (const scope of ["project:github.com/acme/shop", "project:bi-dashboard"]) {
        structured(await a.call("memory_write", { content: `Releases of ${scope.slice(8)} need two approvals.`, type: "constraint", confidence: 0.95, scope }));
        const raw = await a.client.readResource({ uri: `memory://profile/${scope}` });
        const encoded = await a.client.readResource({ uri: `memory://profile/${encodeURIComponent(scope)}` });
        const text = (raw.contents[0] as { text: string }).text;
        assert.equal(text.split("\n")[0], `# Memory profile: ${scope}`);
        assert.ok(text.includes(`Releases of ${scope.slice(8)} need two approvals.`), text);
        assert.equal((encoded.contents[0] as { text: string }).text, text);
      }
      await assert.rejects(a.client.readResource({ uri: "memory://profile/not-a-scope" }), /INVALID_INPUT/);
    });

    it("the tool descriptions hold: recall shows the ids forget takes; ingest keeps what someone else said, at lower confidence", async () => {
      const a = await agent(stdio(["--scope", "project:t"]), null);
      cleanup.push(() => a.close());
      const tools = new Map((await a.client.listTools()).tools.map((t) => [t.name, t]));
      assert.match(tools.get("memory_recall")!.description!, /"- \[id <id>\] \(<type>, confidence <c>\) <content>"/);
      assert.match(tools.get("memory_forget")!.description!, /the x memory_recall shows as "\[id x\]"/);
      assert.match(tools.get("memory_ingest")!.description!, /third-party:<who>\) at lower confidence/);
      for (const t of tools.values()) {
        const scopeDoc = (t.inputSchema.properties as Record<string, { description?: string }>).scope?.description ?? "";
        assert.ok(scopeDoc.includes(OMITTED_SCOPE), `${t.name}: the scope argument says what omitting it does`);
      }

      const written = structured(await a.call("memory_write", { content: "The payments service retries webhooks five times.", type: "fact" }));
      const recall = await a.call("memory_recall", { query: "How often are webhooks retried?" });
      const line = texts(recall)[0]!.split("\n").find((l) => l.includes("retries webhooks"));
      const shown = /^- \[id (\S+)\] \(fact, confidence 0\.80\) The payments service retries webhooks five times\.$/.exec(line ?? "")?.[1];
      assert.equal(shown, written.id, texts(recall)[0]);
      const forgot = structured(await a.call("memory_forget", { id: shown }));
      assert.deepEqual(forgot.ids, [written.id]);
      assert.ok(!texts(await a.call("memory_recall", { query: "How often are webhooks retried?" }))[0]!.includes("retries webhooks"));

      const ingested = structured(await a.call("memory_ingest", { user: "My colleague says the staging cluster runs on Ubuntu 22.04." })).turns[0];
      assert.equal(ingested.items.length, 1, JSON.stringify(ingested));
      assert.equal(ingested.items[0].action, "added");
      assert.match(ingested.items[0].subject, /^third-party:colleague$/);
      const kept = structured(await a.call("memory_recall", { query: "Which Ubuntu does the staging cluster run?" }));
      const memory = kept.memories.find((m: { id: string }) => m.id === ingested.items[0].id);
      assert.ok(memory, JSON.stringify(kept.memories));
      assert.ok(memory.confidence < 0.8, `kept at lower confidence than a first-hand statement: ${memory.confidence}`);
    });

    it("use_memory is listed and returns the guidance the editor's instructions file carries", async () => {
      const a = await agent(stdio(["--scope", "project:t"]), null);
      cleanup.push(() => a.close());
      const { prompts } = await a.client.listPrompts();
      assert.deepEqual(prompts.map((p) => p.name), ["use_memory"]);
      assert.match(prompts[0]!.description ?? "", /when to recall/);
      const r = await a.client.getPrompt({ name: "use_memory", arguments: { task: "add rate limiting to the public API" } });
      const body = (r.messages[0]!.content as { text: string }).text;
      assert.match(body, /calls without a scope use project:t \(the scope this connection was configured with\)/);
      assert.match(body, /add rate limiting to the public API/);
      const file = await renderInstructions("project:t", "# Memory profile: project:t\n");
      const lines = MEMORY_GUIDANCE.flatMap((s) => s.lines);
      for (const l of lines) {
        assert.ok(body.includes(l), `prompt lacks: ${l}`);
        assert.ok(file.includes(l), `instructions file lacks: ${l}`);
      }
      for (const claim of [/start of every task/, /memory_ingest/, /memory_write/, /replaces/, /Never store secrets: API keys, tokens, passwords/, /Leave scope out/]) {
        assert.match(lines.join("\n"), claim);
      }
    });

    it("the client's roots decide the scope through the relay to the store's owner, over --scope; list_changed is followed", async () => {
      const a = await agent(stdio(["--scope", "project:configured"]), [dashboard, shop]);
      cleanup.push(() => a.close());
      assert.equal(await a.sessionScope(), "project:bi-dashboard");
      const w = structured(await a.call("memory_write", { content: "The dashboard reads from ClickHouse.", type: "fact" }));
      const explicit = structured(await a.call("memory_recall", { query: "ClickHouse", scope: "project:configured" }));
      assert.equal(explicit.scope, "project:configured", "an explicit scope wins over roots");
      assert.ok(!explicit.memories.some((m: { id: string }) => m.id === w.id));
      await a.setRoots([shop]);
      await eventuallyScope(a, "project:github.com/acme/shop");

      const plain = await agent(stdio(["--scope", "project:configured"]), null);
      cleanup.push(() => plain.close());
      assert.equal(await plain.sessionScope(), "project:configured", "without roots: the configured scope");
    });

    it("with --no-daemon (the process owns its store) the roots decide as well", async () => {
      const a = await agent(stdio(["--no-daemon", "--data", join(home, "alone"), "--scope", "project:configured"]), [shop]);
      cleanup.push(() => a.close());
      assert.equal(await a.sessionScope(), "project:github.com/acme/shop");
    });
  });

  describe("over HTTP (hindsight serve)", () => {
    it("omitted scope: the client's roots, else the configured scope header, else the server's own; an explicit scope wins", async () => {
      const token = "agent-test-token-0123456789abcdef";
      const { url } = await serve(["--scope", "project:server"], { HINDSIGHT_TOKEN: token });

      const rooted = await agent(http(url, token, { [SCOPE_HEADER]: encodeURIComponent("project:configured") }), [shop, dashboard]);
      cleanup.push(() => rooted.close());
      assert.equal(await rooted.sessionScope(), "project:github.com/acme/shop", "the first root, mapped by its git remote, beats the header");
      const w = structured(await rooted.call("memory_write", { content: "The shop's checkout uses Stripe.", type: "fact" }));
      assert.equal(structured(await rooted.call("memory_recall", { query: "checkout payments" })).memories[0]?.id, w.id);
      assert.equal(structured(await rooted.call("memory_recall", { query: "checkout", scope: "project:server" })).scope, "project:server");
      await rooted.setRoots([dashboard]);
      await eventuallyScope(rooted, "project:bi-dashboard");

      const configured = await agent(http(url, token, { [SCOPE_HEADER]: encodeURIComponent("project:configured") }), null);
      cleanup.push(() => configured.close());
      assert.equal(await configured.sessionScope(), "project:configured");

      const bare = await agent(http(url, token), null);
      cleanup.push(() => bare.close());
      assert.equal(await bare.sessionScope(), "project:server");
      const prompt = await bare.client.getPrompt({ name: "use_memory" });
      assert.match((prompt.messages[0]!.content as { text: string }).text, /calls without a scope use project:server \(the server's default scope\)/);
    });

    it("a token limited to projects: roots and the header choose among them, never beyond; the result says why", async () => {
      const tokens = join(home, "tokens.json");
      const alice = (await createToken(tokens, { id: "alice", scopes: ["read", "write"], projects: ["project:a", "project:bi-dashboard"] }, new Date())).token;
      // The server's own scope is one of alice's projects: her calls without a scope have a default to fall back to.
      const served = await serve(["--scope", "project:a", "--tokens", tokens]);

      const inside = await agent(http(served.url, alice), [dashboard]);
      cleanup.push(() => inside.close());
      const recall = await inside.call("memory_recall", { query: "dashboards" });
      assert.equal(structured(recall).scope, "project:bi-dashboard");
      assert.equal(texts(recall).length, 1, "no note when the root is allowed");

      const outside = await agent(http(served.url, alice, { [SCOPE_HEADER]: encodeURIComponent("project:b") }), [shop]);
      cleanup.push(() => outside.close());
      const w = await outside.call("memory_write", { content: "Invoices are archived for ten years.", type: "constraint" });
      assert.notEqual(w.isError, true, texts(w).join(" "));
      const note = texts(w)[1] ?? "";
      assert.match(note, /^Note: the configured scope project:b is not used \(PROJECT_FORBIDDEN: token alice may not use project:b/);
      assert.match(note, /your workspace root \S+\/Shop maps to project:github\.com\/acme\/shop, which is not used \(PROJECT_FORBIDDEN/);
      assert.match(note, /calls without a scope use the server's default scope instead\.$/);
      assert.equal(structured(await outside.call("memory_recall", { query: "invoices" })).scope, "project:a");
      const forbidden = await outside.call("memory_recall", { query: "invoices", scope: "project:github.com/acme/shop" });
      assert.equal(forbidden.isError, true);
      assert.match(texts(forbidden)[0]!, /^PROJECT_FORBIDDEN/);
    });
  });
});
