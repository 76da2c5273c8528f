import { strict as assert } from "node:assert";
import type { ChildProcess } from "node:child_process";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { liveOwner } from "../../src/server/ownerLock.js";
import { ownerEndpoint } from "../../src/server/owner.js";
import { CLI, childEnv, ensureBundle, runCli, startServeProcess, stopOwner, type CliRun } from "../helpers/cliProcess.js";
import { http } from "../helpers/http.js";
import { spawnServe } from "../helpers/serveProcess.js";

const SCOPE = "project:shared-store";
const TOKEN = "owner-clients-token-0123456789abcdef";

function structured(r: CallToolResult): Record<string, unknown> {
  assert.notEqual(r.isError, true, `tool failed: ${JSON.stringify(r.content)}`);
  return r.structuredContent as Record<string, unknown>;
}

describe("integration: one owner per store — serve, `hindsight mcp` clients and the CLI on one store (real processes, real model)", function () {
  this.timeout(600_000);
  let home: string;
  let data: string;
  const children: ChildProcess[] = [];
  const clients: Client[] = [];

  const cli = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> => runCli(args, { cwd: home, env: childEnv(home, env) });

  async function mcp(name: string, env: NodeJS.ProcessEnv = {}): Promise<Client> {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--data", data, "--scope", SCOPE], cwd: home, env: childEnv(home, env), stderr: "pipe" });
    const client = new Client({ name, version: "0.0.0" });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  before(() => ensureBundle());
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "hindsight-owner-"));
    data = join(home, "store");
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    await stopOwner(data);
    await rm(home, { recursive: true, force: true });
  });

  it("hundreds of writes and recalls at once: 0 errors, 0 lost, 0 duplicates; each client sees the others' writes at once; a second owner is refused; the owner still answers a minute later", async () => {
    const served = await spawnServe(home, data, SCOPE, TOKEN);
    children.push(served.child);
    const a = await mcp("agent-a");
    const b = await mcp("agent-b");
    const written = new Map<string, string>(); // content -> writer
    const errors: string[] = [];
    const PER_WRITER = 60;

    // Each MCP agent writes; after every write the other agent must find it with a recall.
    const agent = async (name: string, me: Client, other: Client): Promise<void> => {
      for (let i = 0; i < PER_WRITER; i++) {
        const content = `Worker ${name}-${i} writes its logs to /var/log/${name}/worker-${i}.log.`;
        const r = (await me.callTool({ name: "memory_write", arguments: { content, type: "fact", subject: `worker ${name}-${i}` } })) as CallToolResult;
        if (r.isError) {
          errors.push(`${name} write ${i}: ${JSON.stringify(r.content)}`);
          continue;
        }
        written.set(content, name);
        const seen = structured((await other.callTool({ name: "memory_recall", arguments: { query: `Where does worker ${name}-${i} write its logs?`, k: 5 } })) as CallToolResult);
        const found = (seen.memories as Array<{ content: string }>).some((m) => m.content === content);
        if (!found) errors.push(`${name} write ${i} not seen by the other agent at once`);
      }
    };
    const rest = async (): Promise<void> => {
      for (let i = 0; i < PER_WRITER; i++) {
        const content = `Worker rest-${i} writes its logs to /var/log/rest/worker-${i}.log.`;
        const r = await http(served.url, "POST", "/api/v1/memories", { token: TOKEN, body: { content, type: "fact", subject: `worker rest-${i}`, scope: SCOPE } });
        if (r.status !== 201) errors.push(`rest write ${i}: ${r.status} ${r.text}`);
        else written.set(content, "rest");
      }
    };
    const commandLine = async (): Promise<void> => {
      for (let i = 0; i < 8; i++) {
        const content = `Worker cli-${i} writes its logs to /var/log/cli/worker-${i}.log.`;
        const r = await cli(["remember", content, "--subject", `worker cli-${i}`, "--data", data, "--scope", SCOPE]);
        if (r.code !== 0) errors.push(`cli write ${i}: ${r.stderr}`);
        else written.set(content, "cli");
      }
    };
    await Promise.all([agent("alpha", a, b), agent("beta", b, a), rest(), commandLine()]);
    assert.deepEqual(errors, []);

    // Everything acknowledged is there exactly once, seen by the owner and by a fresh CLI client.
    const listed = await http(served.url, "GET", `/api/v1/memories?scope=${encodeURIComponent(SCOPE)}&limit=10000`, { token: TOKEN });
    assert.equal(listed.status, 200, listed.text);
    const contents = (listed.json.memories as Array<{ content: string; status: string }>).filter((m) => m.status === "active").map((m) => m.content);
    assert.equal(contents.length, written.size, "lost or duplicated memories");
    assert.equal(new Set(contents).size, contents.length, "duplicates");
    for (const c of written.keys()) assert.ok(contents.includes(c), `lost: ${c}`);
    const viaCli = await cli(["list", "--data", data, "--scope", SCOPE, "--json"]);
    assert.equal(viaCli.code, 0, viaCli.stderr);
    assert.equal((JSON.parse(viaCli.stdout) as unknown[]).length, written.size);
    // The CLI and the agents were clients: the owner is still the server.
    assert.equal((await liveOwner(data))?.pid, served.child.pid);

    // A second owner is refused, naming the one that holds the store.
    const second = await cli(["serve", "--data", data, "--port", "0", "--token", TOKEN]);
    assert.notEqual(second.code, 0);
    assert.match(second.stderr, new RegExp(`STORE_LOCKED: the store .* is owned by pid ${served.child.pid} \\(serve`));
    const reembed = await cli(["reembed", "--data", data]);
    assert.notEqual(reembed.code, 0);
    assert.match(reembed.stderr, /STORE_LOCKED/);

    // Old versions outlive any reader: a minute later the owner answers reads and writes.
    await new Promise((r) => setTimeout(r, 65_000));
    const later = await http(served.url, "POST", "/api/v1/recall", { token: TOKEN, body: { query: "Where does worker alpha-3 write its logs?", scope: SCOPE } });
    assert.equal(later.status, 200, later.text);
    assert.match(JSON.stringify(later.json.memories), /worker-3\.log/);
    const write = await http(served.url, "POST", "/api/v1/memories", { token: TOKEN, body: { content: "The release train leaves every second Tuesday.", scope: SCOPE } });
    assert.equal(write.status, 201, write.text);
    const seenByAgent = structured((await a.callTool({ name: "memory_recall", arguments: { query: "When does the release train leave?" } })) as CallToolResult);
    assert.match(JSON.stringify(seenByAgent.memories), /second Tuesday/);
  });

  it("without an owner the CLI starts a daemon that later commands reuse, that refuses a second owner, and that stops when idle; --no-daemon then opens the store alone", async () => {
    const env = { HINDSIGHT_IDLE_EXIT: "5" };
    const first = await cli(["remember", "The nightly backup runs at 01:30 UTC.", "--data", data, "--scope", SCOPE], env);
    assert.equal(first.code, 0, first.stderr);
    const daemon = await liveOwner(data);
    assert.equal(daemon?.role, "daemon");
    assert.ok(daemon?.url?.startsWith("http://127.0.0.1:"));
    // The store is the user's alone: the folder 0700, everything the owner wrote in it 0600 or 0700.
    assert.equal((await stat(data)).mode & 0o777, 0o700);
    for (const file of await readdir(data, { recursive: true })) {
      const mode = (await stat(join(data, file))).mode & 0o777;
      assert.ok(mode === 0o600 || mode === 0o700, `${file}: ${mode.toString(8)}`);
    }

    const recalled = await cli(["recall", "When does the nightly backup run?", "--data", data, "--scope", SCOPE], env);
    assert.equal(recalled.code, 0, recalled.stderr);
    assert.match(recalled.stdout, /01:30 UTC/);
    assert.equal((await liveOwner(data))?.pid, daemon!.pid, "the second command reused the daemon");

    const reembed = await cli(["reembed", "--data", data]);
    assert.match(reembed.stderr, new RegExp(`STORE_LOCKED: .*pid ${daemon!.pid} \\(daemon`));

    // Idle for 5 s: the daemon stops and gives the store up.
    for (let i = 0; i < 200 && (await liveOwner(data)); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(await liveOwner(data), null, "the daemon did not stop when idle");
    const alone = await cli(["list", "--no-daemon", "--data", data, "--scope", SCOPE]);
    assert.equal(alone.code, 0, alone.stderr);
    assert.match(alone.stdout, /01:30 UTC/);
    assert.equal(await liveOwner(data), null, "--no-daemon gives the store up when it ends");
  });

  it("kill -9 of the owner under a connected `hindsight mcp`: the next call goes to a new owner, and every acknowledged write is there", async () => {
    const agent = await mcp("agent");
    const acked: string[] = [];
    for (let i = 0; i < 10; i++) {
      const content = `Queue consumer ${i} reads from the topic orders-${i}.`;
      structured((await agent.callTool({ name: "memory_write", arguments: { content, subject: `consumer ${i}` } })) as CallToolResult);
      acked.push(content);
    }
    const first = await liveOwner(data);
    assert.equal(first?.role, "daemon");
    process.kill(first!.pid, "SIGKILL");

    const after = structured((await agent.callTool({ name: "memory_write", arguments: { content: "Queue consumer 10 reads from the topic orders-10.", subject: "consumer 10" } })) as CallToolResult);
    assert.equal(after.action, "added");
    acked.push("Queue consumer 10 reads from the topic orders-10.");
    const second = await liveOwner(data);
    assert.ok(second && second.pid !== first!.pid, "a new owner took the store");
    const all = await cli(["list", "--data", data, "--scope", SCOPE, "--json"]);
    assert.equal(all.code, 0, all.stderr);
    const contents = (JSON.parse(all.stdout) as Array<{ content: string }>).map((m) => m.content);
    for (const c of acked) assert.ok(contents.includes(c), `lost: ${c}`);
    assert.equal(contents.length, acked.length);
  });

  it("an owner that limits its token's rate (serve --rate 1 --burst 2): every call of a connected `hindsight mcp` is answered, late, none failed; a daemon `hindsight mcp` starts limits nobody", async () => {
    const served = await startServeProcess(home, ["--data", data, "--scope", SCOPE, "--rate", "1", "--burst", "2"], { HINDSIGHT_TOKEN: TOKEN });
    children.push(served.child);
    const agent = await mcp("hurried-agent");
    const writes = Array.from({ length: 6 }, (_, i) => `Build agent ${i} caches its layers under /var/cache/layers-${i}.`);
    const results = await Promise.all(writes.map((content, i) => agent.callTool({ name: "memory_write", arguments: { content, subject: `build agent ${i}` } })));
    for (const r of results) assert.equal(structured(r as CallToolResult).action, "added");
    // The bucket refills (burst 2 at 1/s) before the two checks below ask the owner.
    await new Promise((r) => setTimeout(r, 3000));
    const metrics = await fetch(`${served.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.text());
    const limited = Number(/hindsight_rate_limited_total (\d+)/.exec(metrics)?.[1]);
    assert.ok(limited >= 1, `the owner limited nothing, so the test proves nothing:\n${metrics}`);
    const listed = await http(served.url, "GET", `/api/v1/memories?scope=${encodeURIComponent(SCOPE)}&limit=100`, { token: TOKEN });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual((listed.json.memories as Array<{ content: string }>).map((m) => m.content).sort(), [...writes].sort());
    await agent.close();
    served.child.kill("SIGTERM");
    await served.exited;

    // Without an owner, `hindsight mcp` starts a daemon: a local owner, unlimited like the editor's.
    const local = await mcp("local-agent");
    const burst = await Promise.all(Array.from({ length: 80 }, () => local.callTool({ name: "memory_recall", arguments: { query: "where are layers cached?" } })));
    for (const r of burst) structured(r as CallToolResult);
    const daemon = await ownerEndpoint(data);
    assert.equal(daemon?.owner.role, "daemon");
    const daemonMetrics = await fetch(`${daemon!.url}/metrics`, { headers: { authorization: `Bearer ${daemon!.token}` } }).then((r) => r.text());
    assert.match(daemonMetrics, /hindsight_rate_limited_total 0\b/);
  });
});
