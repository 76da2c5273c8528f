import { strict as assert } from "node:assert";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SidebarBackendTarget } from "../../../src/extension/sidebar/backend.js";
import { MemoryRunHistory } from "../../../src/extension/sidebar/history.js";
import { SidebarRouter, type SidebarRouterDeps } from "../../../src/extension/sidebar/router.js";
import { suiteForFile, type SuiteSource } from "../../../src/extension/sidebar/suites.js";
import { PROTOCOL_VERSION } from "../../../src/protocol/constants.js";
import type { HostMessage } from "../../../src/protocol/messages.js";
import type { Method, Params } from "../../../src/protocol/requests.js";
import { startServer, type RunningServer } from "../../../src/server/serve.js";
import { DAY, makeEngine, withTempDir, type TestEngine } from "../../helpers/fakes.js";

const TOKEN = "router-test-token-0123456789abcdef";
const SCOPE = "project:test";

type Response = Extract<HostMessage, { type: "response" }>;

/**
 * The router against the real HTTP server and engine (in-memory store and hashing embedder: these
 * tests are about the protocol, validation and paging, not about recall quality).
 */
describe("protocol: SidebarRouter over the REST API", function () {
  this.timeout(30_000);
  let t: TestEngine;
  let server: RunningServer;
  const closers: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    t = await makeEngine();
    server = await startServer({ engine: t.engine, tokens: [TOKEN], host: "127.0.0.1", port: 0, rate: 0 });
    closers.push(async () => {
      await server.close(100);
      await t.engine.close();
    });
  });

  afterEach(async () => {
    for (const c of closers.splice(0)) await c();
  });

  function harness(overrides: Partial<SidebarRouterDeps> = {}) {
    const posted: HostMessage[] = [];
    let target: SidebarBackendTarget | null = { url: server.url, token: TOKEN, scope: SCOPE };
    const suites: SuiteSource = { list: async () => [], read: async () => "{}" };
    const router = new SidebarRouter({ backend: () => target, post: (m) => posted.push(m), history: new MemoryRunHistory(), suites, now: () => t.clock.now(), ...overrides });
    let id = 0;
    async function call<M extends Method>(method: M, params: Params<M>): Promise<Response> {
      const mine = ++id;
      await router.handle({ type: "request", id: mine, method, params });
      const answers = posted.filter((m): m is Response => m.type === "response" && m.id === mine);
      assert.equal(answers.length, 1, `one response to ${method}`);
      return answers[0]!;
    }
    async function ok<M extends Method>(method: M, params: Params<M>) {
      const r = await call(method, params);
      assert.ok(r.ok, r.ok ? "" : `${method}: ${r.error.code} ${r.error.message}`);
      return (r as Extract<Response, { ok: true }>).result as never;
    }
    return { router, posted, call, ok, setTarget: (x: SidebarBackendTarget | null) => (target = x) };
  }

  it("answers ready with the session snapshot", async () => {
    const h = harness();
    await h.router.handle({ type: "ready", protocolVersion: PROTOCOL_VERSION });
    assert.deepEqual(h.posted, [
      { type: "notification", event: "session", data: { protocolVersion: PROTOCOL_VERSION, backend: { connected: true, mode: "local", url: server.url, scope: SCOPE, message: null } } },
    ]);
  });

  it("refuses malformed messages and params with INVALID_INPUT naming the field, before anything runs", async () => {
    const h = harness();
    await h.router.handle({ type: "request", id: 7, method: "memories.drop", params: {} });
    const bad = h.posted.pop() as Response;
    assert.ok(!bad.ok && bad.id === 7 && bad.error.code === "INVALID_INPUT" && bad.error.field === "method", JSON.stringify(bad));
    const w = await t.engine.write({ content: "The API uses PostgreSQL 16.", confidence: 0.8 });
    const r = await h.call("memories.edit", { id: w.id!, patch: { confidence: 3 } });
    assert.ok(!r.ok);
    assert.equal(r.error.code, "INVALID_INPUT");
    assert.equal(r.error.field, "patch.confidence");
    assert.match(r.error.message, /^memories\.edit: patch\.confidence: must be between 0 and 1/);
    const unknown = await h.call("memories.pin", { id: w.id!, pinned: true, force: true } as never);
    assert.ok(!unknown.ok && unknown.error.field === "force");
    assert.equal((await t.engine.get(w.id!)).confidence, 0.8);
    const before = h.posted.length;
    await h.router.handle("not even an object");
    assert.equal(h.posted.length, before, "no id: nothing to answer");
  });

  it("passes the server's errors through (code, message, field) and says when no server runs", async () => {
    const h = harness({ unavailableMessage: () => "the memory server failed: port in use" });
    const missing = await h.call("memories.get", { id: "nope" });
    assert.ok(!missing.ok && missing.error.code === "NOT_FOUND" && missing.error.field === "id", JSON.stringify(missing));
    const w = await t.engine.write({ content: "Deploys go through the release train." });
    const secret = await h.call("memories.edit", { id: w.id!, patch: { content: "The password is hunter2hunter2" } });
    assert.ok(!secret.ok && secret.error.code === "GUARD_REFUSED" && secret.error.field === "content", JSON.stringify(secret));
    h.setTarget(null);
    const down = await h.call("review.get", {});
    assert.ok(!down.ok);
    assert.deepEqual(down.error, { code: "BACKEND_UNAVAILABLE", message: "the memory server failed: port in use" });
    h.setTarget({ url: "http://127.0.0.1:9", token: TOKEN, scope: SCOPE });
    const refused = await h.call("activity.get", {});
    assert.ok(!refused.ok && refused.error.code === "BACKEND_UNAVAILABLE" && /did not answer/.test(refused.error.message), JSON.stringify(refused));
  });

  it("counts groups and pages through them; text search covers every memory, not one page", async () => {
    const h = harness();
    const inputs = Array.from({ length: 230 }, (_, i) => ({ content: `Service ${i} runs on port ${3000 + i}${i % 10 === 0 ? " behind the gateway" : ""}.`, type: "fact" as const }));
    await t.engine.importMemories(inputs);
    await t.engine.write({ content: "The user prefers tabs.", type: "preference" });
    let grouped = 0;
    let counted = 0;
    const memoryGroups = t.engine.memoryGroups.bind(t.engine);
    const listPage = t.engine.listPage.bind(t.engine);
    t.engine.memoryGroups = async (...args) => (grouped++, memoryGroups(...args));
    t.engine.listPage = async (...args) => (counted++, listPage(...args));
    const groups = await h.ok("memories.groups", { filter: { statuses: ["active"] } });
    assert.deepEqual(groups, { groups: [{ layer: "L3", type: "preference", total: 1 }, { layer: "L3", type: "fact", total: 230 }], total: 231 });
    assert.deepEqual({ grouped, counted }, { grouped: 1, counted: 0 }, "the group view is one request, not one count per layer and type");
    const filter = { statuses: ["active" as const], text: "GATEWAY" };
    assert.deepEqual(await h.ok("memories.groups", { filter }), { groups: [{ layer: "L3", type: "fact", total: 23 }], total: 23 });
    const seen = new Set<string>();
    for (let offset = 0; offset < 23; offset += 10) {
      const page = (await h.ok("memories.page", { filter, layer: "L3", type: "fact", offset, limit: 10 })) as { rows: Array<{ id: string; preview: string }>; total: number };
      assert.equal(page.total, 23);
      for (const row of page.rows) {
        assert.match(row.preview, /behind the gateway/);
        seen.add(row.id);
      }
    }
    assert.equal(seen.size, 23);
  });

  it("marks expired rows and sends the whole content on one line (the row clamps it to two; its tooltip shows it all)", async () => {
    const h = harness();
    const content = `The freeze lasts this week only.\n\n${"Details follow. ".repeat(40)}`;
    await t.engine.write({ content, type: "fact", validUntil: new Date(t.clock.now() + DAY).toISOString() });
    t.clock.advance(2 * DAY);
    const page = (await h.ok("memories.page", { filter: { statuses: ["active"] }, layer: "L3", type: "fact", offset: 0, limit: 10 })) as { rows: Array<{ expired: boolean; preview: string }> };
    assert.equal(page.rows.length, 1, "expired memories are listed (kept, not recalled)");
    assert.equal(page.rows[0]!.expired, true);
    assert.equal(page.rows[0]!.preview, content.replace(/\s+/g, " ").trim());
    assert.ok(page.rows[0]!.preview.length > 600);
  });

  it("explains a memory: source turns and links", async () => {
    const h = harness();
    const ingested = await t.engine.ingest({ user: "We deploy the web app to Fly.io every Friday.", assistant: "Noted." });
    const id = ingested.results.find((r) => r.id)!.id!;
    const detail = (await h.ok("memories.get", { id })) as { memory: { id: string }; turns: Array<{ user: string }>; links: unknown[] };
    assert.equal(detail.memory.id, id);
    assert.deepEqual(detail.turns.map((x) => x.user), ["We deploy the web app to Fly.io every Friday."]);
    const a = await t.engine.write({ content: "The release branch is named main.", subject: "release branch", confidence: 0.8 });
    const b = await t.engine.write({ content: "The release branch is named trunk.", subject: "release branch", confidence: 0.8 });
    const linked = (await h.ok("memories.get", { id: b.id! })) as { links: Array<{ relation: string; memory: { id: string } }> };
    assert.deepEqual(linked.links.map((l) => [l.relation, l.memory.id]), [["conflicts_with", a.id]]);
  });

  it("after a mutation, tells the webview which views are stale", async () => {
    const h = harness();
    const w = await t.engine.write({ content: "Never push directly to main.", type: "constraint" });
    await h.ok("memories.pin", { id: w.id!, pinned: true });
    assert.deepEqual(h.posted.at(-1), { type: "notification", event: "invalidate", data: { topics: ["memories", "activity"] } });
    assert.equal((await t.engine.get(w.id!)).pinned, true);
  });

  it("runs a suite, records the history, and reports a malformed cases file naming the field", async () => {
    await withTempDir(async (dir) => {
      const good = join(dir, "good.json");
      const bad = join(dir, "bad.json");
      await writeFile(
        good,
        JSON.stringify({
          version: 1,
          cases: [{ id: "c1", category: "basics", lang: "en", scope: "project:eval", steps: [{ at: "2026-01-12T09:30:00Z", write: { content: "We use pnpm for installs.", type: "fact" } }, { at: "2026-01-12T09:31:00Z", list: {}, expect: { count: 1 } }] }],
        }),
      );
      await writeFile(bad, JSON.stringify({ version: 1, cases: [{ id: "c1", steps: [] }] }));
      const listed = [suiteForFile(good), suiteForFile(bad)];
      const history = new MemoryRunHistory();
      const h = harness({ history, suites: { list: async () => listed, read: (p) => import("node:fs/promises").then((fs) => fs.readFile(p, "utf8")), pick: async () => null } });
      const result = (await h.ok("tests.run", { suiteId: good })) as { run: { passed: number; failed: number; label: string }; history: unknown[] };
      assert.deepEqual([result.run.passed, result.run.failed, result.run.label], [1, 0, "good.json"]);
      assert.equal(result.history.length, 1);
      const cancelled = (await h.ok("tests.run", { pick: true })) as { run: null };
      assert.equal(cancelled.run, null);
      const malformed = await h.call("tests.run", { suiteId: bad });
      assert.ok(!malformed.ok && malformed.error.code === "CASES_INVALID" && typeof malformed.error.field === "string", JSON.stringify(malformed));
      const gone = await h.call("tests.run", { suiteId: join(dir, "moved.json") });
      assert.ok(!gone.ok && gone.error.code === "NOT_FOUND" && gone.error.field === "suite_id");
      const got = (await h.ok("tests.get", {})) as { last: { label: string }; history: unknown[] };
      assert.equal(got.last.label, "good.json");
      assert.equal(got.history.length, 1);
    });
  });

  it("retries after 429 (Retry-After) instead of failing the view", async () => {
    let now = 0;
    const limited = await startServer({ engine: t.engine, tokens: [TOKEN], host: "127.0.0.1", port: 0, rate: 1, burst: 1, now: () => now });
    closers.push(() => limited.close(100));
    const waits: number[] = [];
    const h = harness({
      backend: () => ({ url: limited.url, token: TOKEN, scope: SCOPE }),
      backendOptions: {
        sleep: async (ms) => {
          waits.push(ms);
          now += ms;
        },
      },
    });
    await h.ok("activity.get", {}); // stats + audit: the second is limited, then retried
    assert.deepEqual(waits, [1000]);
  });
});
