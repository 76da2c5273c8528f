import { strict as assert } from "node:assert";
import { MemoryEngine } from "../../../src/core/engine.js";
import type { LlmClient, LlmRequest } from "../../../src/core/ports.js";
import { ScopeQueue } from "../../../src/core/scopeQueue.js";
import { RecentMessages } from "../../../src/core/write/recentMessages.js";
import { InMemoryStore } from "../../../src/stores/memory/memoryStore.js";
import { FakeEmbedder, FixedClock } from "../../helpers/fakes.js";

/** A promise with its resolve handle, to hold a task open until the test lets it go. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("the scope queue: decisions one at a time per scope, scopes side by side", () => {
  it("runs one scope's tasks in call order and another scope's meanwhile", async () => {
    const q = new ScopeQueue();
    const log: string[] = [];
    const hold = gate();
    const a1 = q.run({ scope: "project:a" }, async () => {
      log.push("a1 start");
      await hold.promise;
      log.push("a1 end");
    });
    const a2 = q.run({ scope: "project:a" }, async () => {
      log.push("a2");
    });
    const b1 = q.run({ scope: "project:b" }, async () => {
      log.push("b1");
    });
    await b1;
    assert.deepEqual(log, ["a1 start", "b1"], "project b is not held up by project a");
    hold.open();
    await Promise.all([a1, a2]);
    assert.deepEqual(log, ["a1 start", "b1", "a1 end", "a2"]);
    await tick();
    assert.equal(q.busyScopes(), 0, "an idle scope leaves nothing behind");
  });

  it("a task for every scope waits for all before it and holds all after it; a failure stops nothing", async () => {
    const q = new ScopeQueue();
    const log: string[] = [];
    const hold = gate();
    const a = q.run({ scope: "project:a" }, async () => {
      await hold.promise;
      log.push("a");
    });
    const failed = q.run({ scope: "project:b" }, async () => {
      log.push("b fails");
      throw new Error("boom");
    });
    const all = q.run("all", async () => {
      log.push("all");
    });
    const b = q.run({ scope: "project:b" }, async () => {
      log.push("b after all");
    });
    await tick();
    assert.deepEqual(log, ["b fails"]);
    hold.open();
    await Promise.all([a, all, b]);
    await assert.rejects(failed, /boom/);
    assert.deepEqual(log, ["b fails", "a", "all", "b after all"]);
    await q.idle();
  });

  it("afterPreparing: preparations run at once, commits keep call order, a failed preparation fails only its own call", async () => {
    const q = new ScopeQueue();
    const log: string[] = [];
    const slow = gate();
    const first = q.afterPreparing("project:a", slow.promise.then(() => "first"), async (p) => {
      log.push(p);
      return p;
    });
    const broken = q.afterPreparing("project:a", Promise.reject(new Error("guard failed")), async () => "never");
    const second = q.afterPreparing("project:a", Promise.resolve("second"), async (p) => {
      log.push(p);
      return p;
    });
    await tick();
    assert.deepEqual(log, [], "the second's preparation is done, but its commit waits for the first's");
    slow.open();
    assert.equal(await second, "second");
    assert.equal(await first, "first");
    await assert.rejects(broken, /guard failed/);
    assert.deepEqual(log, ["first", "second"]);
  });
});

describe("recent messages of a session", () => {
  it("each turn reads what the turn before it was heard as, in call order, even when heard out of order", async () => {
    const m = new RecentMessages();
    const one = m.claim("s");
    const two = m.claim("s");
    const three = m.claim("s");
    two.heard({ text: "second", at: 2 });
    assert.equal(await one.before, null);
    three.heard(null);
    one.heard({ text: "first", at: 1 });
    assert.deepEqual(await two.before, { text: "first", at: 1 });
    assert.deepEqual(await three.before, { text: "second", at: 2 });
    assert.deepEqual(await m.claim("s").before, { text: "second", at: 2 }, "a turn not heard leaves the one before it as the last");
  });

  it("keeps at most the most recently used sessions", async () => {
    const m = new RecentMessages(2);
    m.claim("a").heard({ text: "a", at: 1 });
    m.claim("b").heard({ text: "b", at: 1 });
    m.claim("a").heard({ text: "a2", at: 2 });
    m.claim("c").heard({ text: "c", at: 1 });
    assert.equal(m.size(), 2);
    assert.equal(await m.claim("b").before, null, "the least recently used session went first");
  });
});

/** An LLM whose answers for one project wait until the test lets them go. */
class HeldLlm implements LlmClient {
  readonly id = "held-llm";
  readonly hold = gate();
  async complete(request: LlmRequest): Promise<string> {
    if (request.user.includes("warehouse")) await this.hold.promise;
    const turnId = /Turn id: (\S+)/.exec(request.user)?.[1] ?? "t";
    const content = request.user.includes("warehouse") ? "The warehouse scanners run firmware 4.2." : "The docs site deploys from the gh-pages branch.";
    return JSON.stringify({
      memories: [{ should_remember: true, memory_type: "fact", subject: "project", content, confidence: 0.9, valid_until: null, source_turn: turnId }],
    });
  }
}

describe("engine: a slow model call of one project does not stall another project's writers", () => {
  it("project b ingests and writes while project a's extraction is still waiting for the LLM; a's turn lands afterwards", async () => {
    const llm = new HeldLlm();
    const store = new InMemoryStore();
    let n = 0;
    const engine = new MemoryEngine({ store, embedder: new FakeEmbedder(), clock: new FixedClock(), llm, newId: () => `id-${++n}` }, { defaultScope: "project:a" });
    await engine.open();
    try {
      const slow = engine.ingest({ user: "the warehouse scanners are on firmware 4.2 now", scope: "project:a" });
      const other = await engine.ingest({ user: "docs site deploys from gh-pages", scope: "project:b" });
      assert.equal(other.results[0]?.action, "added");
      const written = await engine.write({ content: "The docs site uses Docusaurus 3.", scope: "project:b" });
      assert.equal(written.action, "added");
      assert.equal((await engine.list({ scope: "project:a" })).length, 0, "a's turn is still being extracted");
      llm.hold.open();
      const r = await slow;
      assert.equal(r.extractor, "llm");
      assert.deepEqual(
        (await engine.list({ scope: "project:a" })).map((m) => m.content),
        ["The warehouse scanners run firmware 4.2."],
      );
    } finally {
      llm.hold.open();
      await engine.close();
    }
  });
});
