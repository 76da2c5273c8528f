import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CLI, childEnv, ensureBundle, stopOwner } from "../helpers/cliProcess.js";

const SCOPE = "project:t";

function text(r: CallToolResult): string {
  const first = r.content[0];
  assert.ok(first && first.type === "text", JSON.stringify(r.content));
  return first.text;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function structured(r: CallToolResult): any {
  assert.notEqual(r.isError, true, `tool failed: ${JSON.stringify(r.content)}`);
  assert.ok(r.structuredContent, "no structuredContent");
  return r.structuredContent;
}

const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } };
const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" };

describe("integration: hindsight mcp over stdio (real SDK client, real model)", function () {
  this.timeout(120_000);
  let home: string;
  let work: string;

  before(() => ensureBundle());

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "hindsight-mcp-home-"));
    work = await mkdtemp(join(tmpdir(), "hindsight-mcp-work-"));
  });

  afterEach(async () => {
    await stopOwner(join(home, "store"));
    await rm(home, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  });

  it("serves the five tools, the profile resource and the prompt; only JSON-RPC on stdout", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--scope", SCOPE], cwd: work, env: childEnv(home), stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    const transportErrors: string[] = [];
    const client = new Client({ name: "mcp-stdio-test", version: "0.0.0" });
    client.onerror = (err) => transportErrors.push(String(err));
    await client.connect(transport);
    try {
      assert.equal(client.getServerVersion()?.name, "hindsight");

      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ["memory_forget", "memory_ingest", "memory_recall", "memory_summarize", "memory_write"]);
      for (const t of tools) {
        assert.equal(t.inputSchema.type, "object", t.name);
        assert.ok(Object.keys(t.inputSchema.properties ?? {}).length > 0, t.name);
        assert.equal(t.outputSchema?.type, "object", t.name);
        assert.equal(t.annotations?.openWorldHint, false, t.name);
      }
      const byName = new Map(tools.map((t) => [t.name, t]));
      assert.equal(byName.get("memory_recall")!.annotations?.readOnlyHint, true);
      assert.equal(byName.get("memory_recall")!.annotations?.idempotentHint, true);
      assert.equal(byName.get("memory_forget")!.annotations?.destructiveHint, true);
      assert.equal(byName.get("memory_write")!.annotations?.readOnlyHint, false);

      // write -> recall round trip
      const w = await client.callTool({ name: "memory_write", arguments: { content: "Never deploy to production on Fridays.", type: "constraint", confidence: 0.95 } });
      const written = structured(w as CallToolResult);
      assert.equal(written.action, "added");
      const r = (await client.callTool({ name: "memory_recall", arguments: { query: "Can I deploy to production on Friday?", k: 5 } })) as CallToolResult;
      const recalled = structured(r);
      assert.equal(recalled.memories[0].id, written.id);
      assert.equal(typeof recalled.memories[0].factors.relevance, "number");
      assert.equal(recalled.used_fallback, false);
      assert.match(text(r), /Never deploy to production on Fridays\./);
      assert.equal(text(r), recalled.text);

      // ingest through extraction
      const ing = (await client.callTool({ name: "memory_ingest", arguments: { user: "I prefer tabs." } })) as CallToolResult;
      const ingested = structured(ing).turns[0];
      assert.equal(typeof ingested.turn_id, "string");
      assert.equal(structured(ing).turn_id, ingested.turn_id);
      assert.equal(ingested.extractor, "rules");
      assert.equal(ingested.items.length, 1);
      assert.equal(ingested.items[0].action, "added");
      assert.equal(ingested.items[0].type, "preference");

      // summarize
      const sum = structured((await client.callTool({ name: "memory_summarize", arguments: { type: "constraint" } })) as CallToolResult);
      assert.deepEqual(sum.source_ids, [written.id]);
      assert.match(sum.summary, /Fridays/);

      // invalid input is a tool error naming the field
      const badK = (await client.callTool({ name: "memory_recall", arguments: { query: "deploy", k: 99 } })) as CallToolResult;
      assert.equal(badK.isError, true);
      assert.match(text(badK), /\bk\b/);
      const badContent = (await client.callTool({ name: "memory_write", arguments: { content: "" } })) as CallToolResult;
      assert.equal(badContent.isError, true);
      assert.match(text(badContent), /content/);

      // profile resource and prompt
      const { contents } = await client.readResource({ uri: `memory://profile/${SCOPE}` });
      const profile = (contents[0] as { text: string }).text;
      assert.match(profile, /# Memory profile: project:t/);
      assert.match(profile, /Never deploy to production on Fridays\./);
      const prompt = await client.getPrompt({ name: "use_memory", arguments: { task: "ship the release" } });
      assert.match((prompt.messages[0]!.content as { text: string }).text, /memory_recall[\s\S]*memory_write/);

      // forget
      const f = (await client.callTool({ name: "memory_forget", arguments: { id: written.id } })) as CallToolResult;
      assert.deepEqual(structured(f).ids, [written.id]);
      const after = structured((await client.callTool({ name: "memory_recall", arguments: { query: "deploy to production on Fridays" } })) as CallToolResult);
      assert.ok(!after.memories.some((m: { id: string }) => m.id === written.id));
    } finally {
      await client.close();
    }
    assert.deepEqual(transportErrors, [], `stdout held something that is not JSON-RPC; stderr: ${stderr}`);
    const problems = stderr.split("\n").filter((l) => !/\bWARN\b/.test(l) && /Error|at \S+ \(/.test(l));
    assert.deepEqual(problems, [], stderr);
  });

  it("memory_write replaces an id shown by memory_recall; a bad id is a tool error and writes nothing", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--scope", SCOPE], cwd: work, env: childEnv(home), stderr: "pipe" });
    const client = new Client({ name: "mcp-stdio-replaces", version: "0.0.0" });
    await client.connect(transport);
    try {
      const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
      const old = structured(await call("memory_write", { content: "Code reviews need one approval.", type: "constraint" }));
      const recalled = await call("memory_recall", { query: "How many approvals does a code review need?" });
      const shown = /^- \[id (\S+)\] \(constraint, /m.exec(text(recalled))?.[1];
      assert.equal(shown, old.id, text(recalled));

      const bad = await call("memory_write", { content: "Code reviews need two approvals.", type: "constraint", replaces: [shown, "not-an-id"] });
      assert.equal(bad.isError, true);
      assert.match(text(bad), /^INVALID_INPUT: replaces: no memory with id not-an-id in scope project:t/);

      const w = structured(await call("memory_write", { content: "Code reviews need two approvals.", type: "constraint", replaces: [shown] }));
      assert.equal(w.action, "superseded");
      assert.deepEqual(w.supersedes, [old.id]);
      assert.equal(w.decided_by, "caller");
      const after = structured(await call("memory_recall", { query: "How many approvals does a code review need?" }));
      assert.deepEqual(after.memories.map((m: { id: string }) => m.id), [w.id]);
    } finally {
      await client.close();
    }
  });

  function rawServer(): { lines: () => string[]; stderr: () => string; send: (m: unknown) => void; child: ReturnType<typeof spawn>; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>; waitFor: (id: number) => Promise<void> } {
    const child = spawn(process.execPath, [CLI, "mcp", "--scope", SCOPE], { cwd: work, env: childEnv(home), stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const waiters: Array<() => void> = [];
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString("utf8");
      for (const w of waiters.splice(0)) w();
    });
    child.stderr.on("data", (d: Buffer) => (err += d.toString("utf8")));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => child.on("exit", (code, signal) => res({ code, signal })));
    const lines = () => out.split("\n").filter((l) => l !== "");
    const waitFor = async (id: number): Promise<void> => {
      while (!lines().some((l) => (JSON.parse(l) as { id?: number }).id === id)) await new Promise<void>((res) => waiters.push(res));
    };
    return { lines, stderr: () => err, send: (m) => child.stdin.write(`${JSON.stringify(m)}\n`), child, exited, waitFor };
  }

  it("answers requests already sent when stdin closes, writes only JSON-RPC lines, and exits 0", async () => {
    const s = rawServer();
    s.send(INIT);
    s.send(INITIALIZED);
    s.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "memory_write", arguments: { content: "The API uses snake_case JSON keys.", type: "fact" } } });
    s.send({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    s.child.stdin!.end();
    const { code } = await s.exited;
    assert.equal(code, 0, s.stderr());
    const messages = s.lines().map((l) => JSON.parse(l) as { jsonrpc: string; id?: number; result?: { structuredContent?: { action?: string } } });
    assert.ok(messages.every((m) => m.jsonrpc === "2.0"), s.lines().join("\n"));
    assert.deepEqual(messages.map((m) => m.id).sort(), [1, 2, 3]);
    assert.equal(messages.find((m) => m.id === 2)?.result?.structuredContent?.action, "added");
  });

  it("closes the engine and exits 0 on SIGTERM; the memory persists for the next session", async () => {
    const s = rawServer();
    s.send(INIT);
    s.send(INITIALIZED);
    s.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "memory_write", arguments: { content: "Staging runs on Kubernetes 1.30.", type: "fact" } } });
    await s.waitFor(2);
    s.child.kill("SIGTERM");
    const { code } = await s.exited;
    assert.equal(code, 0, s.stderr());

    const again = rawServer();
    again.send(INIT);
    again.send(INITIALIZED);
    again.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "memory_recall", arguments: { query: "Which Kubernetes version does staging run?" } } });
    await again.waitFor(2);
    again.child.kill("SIGINT");
    assert.equal((await again.exited).code, 0, again.stderr());
    const answer = again.lines().map((l) => JSON.parse(l) as { id?: number; result?: { content: Array<{ text: string }> } }).find((m) => m.id === 2);
    assert.match(answer?.result?.content[0]?.text ?? "", /Kubernetes 1\.30/);
  });
});
