import { strict as assert } from "node:assert";
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { http } from "../helpers/http.js";
import { ensureBundle, mcpClient, spawnServe, toolText } from "../helpers/serveProcess.js";

const TOKEN = "crash-token-0123456789abcdefghij";
const SCOPE = "project:crash";

describe("integration: `hindsight serve` killed with SIGKILL mid-write (LanceDB, real model)", function () {
  this.timeout(180_000);
  let home: string;
  const children: ChildProcess[] = [];

  before(() => ensureBundle());
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "hindsight-crash-"));
  });
  afterEach(async () => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    await rm(home, { recursive: true, force: true });
  });

  it("every acknowledged write survives kill -9; the store reopens cleanly (recall and a new write work)", async () => {
    const data = join(home, "store");
    const t0 = Date.now();
    const mark = (what: string) => process.stderr.write(`      [${((Date.now() - t0) / 1000).toFixed(1)} s] ${what}\n`);
    const first = await spawnServe(home, data, SCOPE, TOKEN);
    children.push(first.child);

    // A fresh store (under 200 rows: compaction and index refresh on every write, so the kill lands
    // mid-maintenance too). Three streams of REST writes and one over MCP keep writes in flight when it dies.
    const acked = new Map<string, string>(); // id -> content
    let killed = false;
    let seq = 0;
    const KILL_AFTER = 60;
    const stream = async (name: string): Promise<void> => {
      while (!killed) {
        const i = seq++;
        const content = `Worker ${name}-${i} writes its logs to /var/log/worker-${name}-${i}.log.`;
        let r;
        try {
          r = await http(first.url, "POST", "/api/v1/memories", { token: TOKEN, body: { content, type: "fact", subject: `worker ${name}-${i}` } });
        } catch {
          return; // connection reset by the kill: not acknowledged
        }
        assert.equal(r.status, 201, r.text);
        acked.set(r.json.id as string, content);
        if (acked.size >= KILL_AFTER && !killed) {
          killed = true;
          first.child.kill("SIGKILL");
        }
      }
    };
    mark("first server up");
    const mcp = await mcpClient(first.url, TOKEN, "crash");
    const mcpStream = async (): Promise<void> => {
      while (!killed) {
        const i = seq++;
        const content = `Queue q-${i} is drained by the nightly job number ${i}.`;
        let r;
        try {
          // A call in flight when the process dies is never answered: the SDK would wait out its 60 s default.
          r = await mcp.callTool({ name: "memory_write", arguments: { content, type: "fact", subject: `queue q-${i}` } }, undefined, { timeout: 2000 });
        } catch {
          return;
        }
        if (r.isError) throw new Error(toolText(r));
        const sc = r.structuredContent as { id: string };
        acked.set(sc.id, content);
      }
    };
    await Promise.all([stream("a"), stream("b"), stream("c"), mcpStream()]);
    mark(`killed after ${acked.size} acknowledged writes`);
    await mcp.close().catch(() => undefined);
    const code = await first.exited;
    assert.equal(code, null, "killed by a signal");
    assert.equal(first.child.signalCode, "SIGKILL");
    assert.ok(acked.size >= KILL_AFTER, `${acked.size} writes acknowledged before the kill`);

    const second = await spawnServe(home, data, SCOPE, TOKEN);
    children.push(second.child);
    mark("second server up");
    const list = await http(second.url, "GET", "/api/v1/memories?limit=10000", { token: TOKEN });
    assert.equal(list.status, 200, list.text);
    const stored = new Map((list.json.memories as Array<{ id: string; content: string }>).map((m) => [m.id, m.content]));
    const lost = [...acked].filter(([id, content]) => stored.get(id) !== content);
    assert.deepEqual(lost, [], `acknowledged writes lost after kill -9 (${acked.size} acknowledged, ${stored.size} stored)`);
    assert.ok(stored.size <= seq, "nothing appears that was never sent");
    for (const [id] of [...acked].slice(0, 5)) assert.equal((await http(second.url, "GET", `/api/v1/memories/${id}`, { token: TOKEN })).status, 200);

    const stats = await http(second.url, "GET", "/api/v1/stats", { token: TOKEN });
    assert.equal(stats.status, 200, stats.text);
    assert.equal(stats.json.by_status.active, stored.size);
    const [someId, someContent] = [...acked][7]!;
    const recall = await http(second.url, "POST", "/api/v1/recall", { token: TOKEN, body: { query: someContent.replace(/\.$/, "?"), k: 5 } });
    assert.equal(recall.status, 200, recall.text);
    assert.ok((recall.json.memories as Array<{ id: string }>).some((m) => m.id === someId), recall.text);
    const fresh = await http(second.url, "POST", "/api/v1/memories", { token: TOKEN, body: { content: "After the crash the deploy bot runs at 06:00 UTC.", type: "fact" } });
    assert.equal(fresh.status, 201, fresh.text);
    const client = await mcpClient(second.url, TOKEN, "after");
    const r = await client.callTool({ name: "memory_recall", arguments: { query: "When does the deploy bot run?", k: 3 } });
    assert.ok(!r.isError && toolText(r).includes("06:00"), toolText(r));
    await client.close();
    mark("checked");
    second.child.kill("SIGTERM");
    assert.equal(await second.exited, 0, second.stderr());
  });
});
