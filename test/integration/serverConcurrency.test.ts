import { strict as assert } from "node:assert";
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { http } from "../helpers/http.js";
import { ensureBundle, mcpClient, seedStore, spawnServe, toolText } from "../helpers/serveProcess.js";

const TOKEN = "concurrency-token-0123456789abcdef";
const PER_CLIENT = 500;

describe("integration: `hindsight serve` under concurrent MCP clients (LanceDB, real model)", function () {
  // 1,000 writes through the full write path (embedding, dedup/supersede search, LanceDB append) at ~20-40 writes/s on 2 cores.
  this.timeout(240_000);
  let home: string;
  const children: ChildProcess[] = [];
  const clients: Client[] = [];

  before(() => ensureBundle());
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "hindsight-conc-"));
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    await rm(home, { recursive: true, force: true });
  });

  it(`two clients write ${PER_CLIENT} distinct memories each at once while a third recalls: all ${2 * PER_CLIENT} stored, none lost or duplicated`, async () => {
    const data = join(home, "store");
    await seedStore(data, "project:seed", 300); // another scope: project:c starts empty
    const served = await spawnServe(home, data, "project:c", TOKEN);
    children.push(served.child);
    const [a, b, reader] = await Promise.all([mcpClient(served.url, TOKEN, "a"), mcpClient(served.url, TOKEN, "b"), mcpClient(served.url, TOKEN, "reader")]);
    clients.push(a, b, reader);

    const ids = new Map<string, string>(); // content -> id
    const failures: string[] = [];
    const writer = async (client: Client, name: string): Promise<void> => {
      for (let i = 0; i < PER_CLIENT; i++) {
        const content = `Service s-${name}-${i} listens on port ${10_000 + i}.`;
        const r = await client.callTool({ name: "memory_write", arguments: { content, type: "fact", subject: `service s-${name}-${i}` } });
        const sc = r.structuredContent as { id: string | null; action: string } | undefined;
        if (r.isError || sc?.action !== "added" || !sc.id) failures.push(`${content} -> ${toolText(r)}`);
        else ids.set(content, sc.id);
      }
    };
    let writing = true;
    let recalls = 0;
    const recallFailures: string[] = [];
    const recaller = async (): Promise<void> => {
      while (writing) {
        const i = recalls % PER_CLIENT;
        const r = await reader.callTool({ name: "memory_recall", arguments: { query: `Which port does service s-a-${i} listen on?`, k: 5 } });
        recalls++;
        if (r.isError || !Array.isArray((r.structuredContent as { memories?: unknown[] } | undefined)?.memories)) recallFailures.push(toolText(r));
        await new Promise((resolve) => setTimeout(resolve, 25)); // a steady reader, not a CPU hog on 2 cores
      }
    };

    const t0 = Date.now();
    const recalling = recaller();
    await Promise.all([writer(a, "a"), writer(b, "b")]);
    writing = false;
    await recalling;
    const seconds = (Date.now() - t0) / 1000;
    process.stderr.write(`      ${2 * PER_CLIENT} concurrent MCP writes + ${recalls} recalls in ${seconds.toFixed(1)} s (${((2 * PER_CLIENT) / seconds).toFixed(1)} writes/s)\n`);

    assert.deepEqual(failures, [], "every write was added");
    assert.deepEqual(recallFailures, [], "every recall succeeded");
    assert.ok(recalls > 0, "the reader ran while the writers wrote");
    assert.equal(ids.size, 2 * PER_CLIENT);
    assert.equal(new Set(ids.values()).size, 2 * PER_CLIENT, "every write got its own id");

    const stats = await http(served.url, "GET", "/api/v1/stats", { token: TOKEN });
    assert.equal(stats.status, 200, stats.text);
    assert.equal(stats.json.by_status.active, 2 * PER_CLIENT, stats.text);
    const list = await http(served.url, "GET", "/api/v1/memories?limit=5000", { token: TOKEN });
    assert.equal(list.status, 200, list.text);
    const stored = list.json.memories as Array<{ id: string; content: string }>;
    assert.equal(stored.length, 2 * PER_CLIENT);
    assert.equal(new Set(stored.map((m) => m.content)).size, 2 * PER_CLIENT, "no duplicate content");
    for (const m of stored) assert.equal(ids.get(m.content), m.id, `stored ${m.content} under the acknowledged id`);

    // After the storm, recall finds a specific one.
    const r = await reader.callTool({ name: "memory_recall", arguments: { query: "Which port does service s-b-123 listen on?", k: 5 } });
    assert.ok(toolText(r).includes("s-b-123"), toolText(r));

    served.child.kill("SIGTERM");
    assert.equal(await served.exited, 0, served.stderr());
  });
});
