import { strict as assert } from "node:assert";
import { MemoryEngine } from "../../../src/core/engine.js";
import { HindsightError } from "../../../src/core/errors.js";
import { ALL_SCOPES, type KeptRecall, type LlmClient, type LlmRequest, type RecallCache, type ScopeLeases } from "../../../src/core/ports.js";
import type { ScopeChange } from "../../../src/core/recall/reach.js";
import { syntheticMemory } from "../../../src/bench/synthetic.js";
import { ScopeQueue } from "../../../src/core/scopeQueue.js";
import type { MemoryRecord } from "../../../src/core/model/memory.js";
import { RecentMessages } from "../../../src/core/write/recentMessages.js";
import type { StagedWrites } from "../../../src/core/write/stagedWrites.js";
import { InMemoryStore } from "../../../src/stores/memory/memoryStore.js";
import { FakeEmbedder, FixedClock, makeEngine } from "../../helpers/fakes.js";

/** A promise with its resolve handle, to hold a task open until the test lets it go. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

function memory(id: string, content: string): MemoryRecord {
  return {
    id, scope: "project:a", layer: "L3", type: "fact", subject: "", content, context: null, confidence: 0.8, source: "agent", sourceTurns: [], sourceRefs: [],
    sessionId: null, createdAt: 0, updatedAt: 0, confirmedAt: 0, lastAccessedAt: null, accessCount: 0, confirmCount: 1, validUntil: null, status: "active",
    statusReason: null, supersedes: [], supersededBy: null, conflictsWith: [], compressedInto: null, pinned: false, tags: [], embeddingModel: "fake",
  };
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

  it("inBatches: writes waiting for a busy scope are decided in call order, each seeing the ones before it, and stored in one commit", async () => {
    const q = new ScopeQueue();
    const store = new InMemoryStore();
    let puts = 0;
    const put = store.putMemories.bind(store);
    store.putMemories = async (items) => {
      puts++;
      return put(items);
    };
    const hold = gate();
    const busy = q.run({ scope: "project:a" }, () => hold.promise);
    const seen: number[] = [];
    const write = (n: number) =>
      q.inBatches(
        "project:a",
        Promise.resolve(async (batch: StagedWrites) => {
          seen.push((await batch.searchMemoriesByText("deploy", { scope: "project:a" }, 10)).length);
          await batch.putMemories([{ record: memory(`m${n}`, `deploy step ${n}`), vector: new Float32Array([1, 0]) }]);
          return n;
        }),
        store,
        () => undefined,
      );
    const broken = q.inBatches("project:a", Promise.reject(new Error("guard failed")), store, () => undefined);
    const results = Promise.all([write(1), write(2), write(3)]);
    hold.open();
    await busy;
    assert.deepEqual(await results, [1, 2, 3]);
    await assert.rejects(broken, /guard failed/);
    assert.deepEqual(seen, [0, 1, 2], "each decision sees the batch's earlier writes");
    assert.equal(puts, 1, "one commit for the batch");
    assert.equal((await store.listMemories({ scope: "project:a" })).length, 3);
  });

  it("inBatches: a stored write hears back only after the recall cache was told of its scope's change", async () => {
    const told = gate();
    const events: string[] = [];
    const q = new ScopeQueue(null, async (scope) => {
      events.push(`changed ${scope}`);
      await told.promise;
    });
    const store = new InMemoryStore();
    const written = q
      .inBatches(
        "project:a",
        Promise.resolve(async (batch: StagedWrites) => {
          await batch.putMemories([{ record: memory("m1", "the export lands in bucket one"), vector: new Float32Array([1, 0]) }]);
          return "m1";
        }),
        store,
        () => undefined,
      )
      .then((id) => events.push(`heard back ${id}`));
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(events, ["changed project:a"], "stored, but the caller waits while the cache is being told");
    told.open();
    await written;
    assert.deepEqual(events, ["changed project:a", "heard back m1"]);
  });

  it("inBatches: a task queued between two writes splits the batch, so call order holds", async () => {
    const q = new ScopeQueue();
    const store = new InMemoryStore();
    const log: string[] = [];
    const hold = gate();
    const busy = q.run({ scope: "project:a" }, () => hold.promise);
    const write = (name: string) =>
      q.inBatches(
        "project:a",
        Promise.resolve(async () => {
          log.push(name);
          return name;
        }),
        store,
        () => undefined,
      );
    const first = write("write 1");
    const between = q.run({ scope: "project:a" }, async () => {
      log.push("forget");
    });
    const second = write("write 2");
    hold.open();
    await Promise.all([busy, first, between, second]);
    assert.deepEqual(log, ["write 1", "forget", "write 2"]);
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

  it("concurrent writes of one scope are judged exactly as the same writes one by one (restatement, named change, addition, task progress)", async () => {
    const statements = [
      "The staging cluster runs Kubernetes 1.28.",
      "The staging cluster runs Kubernetes 1.28.",
      "We upgraded the staging cluster from Kubernetes 1.28 to 1.30.",
      "The staging cluster also hosts the preview environments.",
      "Migration status: 4 of 12 services are on the new cluster.",
      "Migration status: 9 of 12 services are on the new cluster.",
    ];
    const outcome = async (concurrent: boolean) => {
      const { engine } = await makeEngine();
      try {
        const results = concurrent
          ? await Promise.all(statements.map((content) => engine.write({ content })))
          : await statements.reduce<Promise<Array<Awaited<ReturnType<typeof engine.write>>>>>(async (acc, content) => [...(await acc), await engine.write({ content })], Promise.resolve([]));
        const active = (await engine.list()).map((m) => m.content).sort();
        return { actions: results.map((r) => `${r.action}:${r.supersedes.length}`), active };
      } finally {
        await engine.close();
      }
    };
    const oneByOne = await outcome(false);
    assert.ok(oneByOne.actions.includes("duplicate:0") && oneByOne.actions.some((a) => a === "superseded:1"), oneByOne.actions.join(" "));
    assert.deepEqual(await outcome(true), oneByOne);
  });
});

describe("engine with write leases (a fake lease service; the Redis one is proven in teamReplicas.test.ts)", () => {
  /** Grants every lease and records it; `lose` makes the next fence fail, `refuse` makes every hold fail. */
  function fakeLeases() {
    const held: string[] = [];
    const state = { lose: false, refuse: false };
    const leases: ScopeLeases = {
      async hold(key, task) {
        if (state.refuse) throw new HindsightError("COORDINATION_UNAVAILABLE", "Redis is away");
        held.push(key);
        return task(async () => {
          if (state.lose) throw new HindsightError("COORDINATION_UNAVAILABLE", `lost the lease of ${key}`);
        });
      },
    };
    return { leases, held, state };
  }

  async function engineWith(leases: ScopeLeases) {
    const engine = new MemoryEngine({ store: new InMemoryStore(), embedder: new FakeEmbedder(), clock: new FixedClock(), leases }, { defaultScope: "project:a" });
    await engine.open();
    return engine;
  }

  it("a write holds its scope's lease, an import every scope's; an export takes none", async () => {
    const { leases, held } = fakeLeases();
    const engine = await engineWith(leases);
    await engine.write({ content: "The staging cluster runs in Frankfurt." });
    await engine.write({ content: "Invoices are sent on the first of the month.", scope: "project:b" });
    await engine.importMemories([{ content: "The mobile app ships every other Thursday." }]);
    const before = held.length;
    await engine.exportJsonl("project:a");
    assert.deepEqual(held, ["project:a", "project:b", ALL_SCOPES]);
    assert.equal(held.length, before);
  });

  it("a lease lost before the commit stores nothing and says so; without coordination writes are refused and reads served", async () => {
    const { leases, state } = fakeLeases();
    const engine = await engineWith(leases);
    await engine.write({ content: "Backups are kept for thirty days." });
    state.lose = true;
    await assert.rejects(engine.write({ content: "The on-call rotation changes on Mondays." }), (err: unknown) => HindsightError.is(err) && err.code === "COORDINATION_UNAVAILABLE");
    state.lose = false;
    state.refuse = true;
    await assert.rejects(engine.write({ content: "Logs are shipped to the EU region only." }), (err: unknown) => HindsightError.is(err) && err.code === "COORDINATION_UNAVAILABLE");
    const listed = await engine.list({});
    assert.deepEqual(listed.map((m) => m.content), ["Backups are kept for thirty days."]);
    const r = await engine.recall({ query: "How long are backups kept?" });
    assert.equal(r.memories[0]?.content, "Backups are kept for thirty days.");
  });

  it("an operation on ids (edit, pin, forget by id, import, review) whose lease is lost stores nothing and says so", async () => {
    const { leases, state } = fakeLeases();
    const engine = await engineWith(leases);
    const written = await engine.write({ content: "The release train leaves every second Tuesday." });
    const id = written.memory?.id as string;
    const auditBefore = (await engine.auditLog({})).length;
    state.lose = true;
    const lost = (err: unknown): boolean => HindsightError.is(err) && err.code === "COORDINATION_UNAVAILABLE";
    await assert.rejects(engine.edit(id, { content: "The release train leaves every Wednesday." }), lost);
    await assert.rejects(engine.pin(id, true), lost);
    await assert.rejects(engine.forget({ ids: [id] }), lost);
    await assert.rejects(engine.importMemories([{ content: "Design reviews happen on Fridays." }]), lost);
    await assert.rejects(engine.importJsonl(await engine.exportJsonl("project:a"), "project:c"), lost);
    await assert.rejects(engine.summarize({ topic: "release train", propose: true }), lost);
    state.lose = false;
    const [kept] = await engine.list({});
    assert.equal(kept?.content, "The release train leaves every second Tuesday.");
    assert.equal(kept?.pinned, false);
    assert.equal(kept?.status, "active");
    assert.equal(await engine.count(), 1);
    assert.equal((await engine.auditLog({})).length, auditBefore, "nothing audited either");
    assert.deepEqual(await engine.listProposals({}), []);
  });
});

describe("engine with a shared recall cache (a Map-backed fake; the Redis one is proven in teamReplicas.test.ts)", () => {
  /** Kept answers and each scope's changes, as the Redis cache keeps them (generation numbers and notes). */
  function mapCache() {
    const kept = new Map<string, { gen: number; all: number; answer: KeptRecall }>();
    const notes = new Map<string, Array<ScopeChange | null>>();
    const changes: string[] = [];
    const gen = (scope: string) => notes.get(scope)?.length ?? 0;
    const cache: RecallCache = {
      async lookup(scope, key) {
        const slot = JSON.stringify([`${scope}|${key}`, gen(scope), gen(ALL_SCOPES)]);
        const k = kept.get(`${scope}|${key}`);
        if (!k) return { kept: null, since: null, slot };
        const since = k.all === gen(ALL_SCOPES) ? (notes.get(scope) ?? []).slice(k.gen) : null;
        return { kept: structuredClone(k.answer), since, slot };
      },
      async keep(slot, answer) {
        const [key, g, all] = JSON.parse(slot) as [string, number, number];
        kept.set(key, { gen: g, all, answer: structuredClone(answer) });
      },
      async changed(scope, change) {
        changes.push(scope);
        notes.set(scope, [...(notes.get(scope) ?? []), change]);
      },
    };
    return { cache, changes };
  }

  /** An engine on an in-memory store with the Map-backed cache, and its cache's hits and misses so far. */
  async function cachedEngine() {
    const { cache } = mapCache();
    const engine = new MemoryEngine({ store: new InMemoryStore(), embedder: new FakeEmbedder(), clock: new FixedClock(), recallCache: cache }, { defaultScope: "project:a" });
    await engine.open();
    const counts = async () => {
      const s = await engine.stats();
      return [s.recallCache?.hits, s.recallCache?.misses];
    };
    return { engine, counts };
  }

  it("the same question is answered from the cache until its scope changes; another scope's change keeps it; an import changes every scope; a session's recall is never cached", async () => {
    const { cache, changes } = mapCache();
    const store = new InMemoryStore();
    const engine = new MemoryEngine({ store, embedder: new FakeEmbedder(), clock: new FixedClock(), recallCache: cache }, { defaultScope: "project:a" });
    await engine.open();
    await engine.write({ content: "The staging cluster runs in Frankfurt." });
    const ask = () => engine.recall({ query: "Where does the staging cluster run?" });
    const first = await ask();
    assert.deepEqual((await ask()).memories.map((m) => m.id), first.memories.map((m) => m.id));
    let stats = await engine.stats();
    assert.deepEqual([stats.recallCache?.hits, stats.recallCache?.misses], [1, 1]);

    await engine.write({ content: "Invoices are sent on the first of the month.", scope: "project:b" });
    await ask();
    stats = await engine.stats();
    assert.deepEqual([stats.recallCache?.hits, stats.recallCache?.misses], [2, 1], "another project's write keeps the answer");

    await engine.write({ content: "The staging cluster moved from Frankfurt to Dublin." });
    const after = await ask();
    assert.ok(after.memories.some((m) => m.content.includes("Dublin")), after.text);
    stats = await engine.stats();
    assert.deepEqual([stats.recallCache?.hits, stats.recallCache?.misses], [2, 2], "its own project's write: computed again");

    await engine.importMemories([{ content: "The mobile app ships every other Thursday." }]);
    await ask();
    await engine.recall({ query: "Where does the staging cluster run?", sessionId: "s1" });
    stats = await engine.stats();
    assert.deepEqual([stats.recallCache?.hits, stats.recallCache?.misses], [2, 3]);
    assert.deepEqual(changes, ["project:a", "project:b", "project:a", ALL_SCOPES]);
  });

  it("a write the answer's searches cannot find keeps it; one sharing a word of the question, changing a memory it read, or not described (a forget) does not", async () => {
    const { engine, counts } = await cachedEngine();
    // More memories than the vector search asks for, each a little like the question: the weakest candidate sets the bar.
    await Promise.all(Array.from({ length: 40 }, (_, i) => engine.write({ content: `On staging: ${syntheticMemory(i).content}` })));
    const target = await engine.write({ content: "The staging cluster runs in Frankfurt." });
    const ask = () => engine.recall({ query: "Where does the staging cluster run?" });
    const first = await ask();
    assert.equal(first.memories[0]?.id, target.id, first.text);
    assert.deepEqual(await counts(), [0, 1]);

    const unrelated = await engine.write({ content: "Invoices go out by wire every Monday." });
    assert.deepEqual((await ask()).memories.map((m) => m.id), first.memories.map((m) => m.id));
    assert.deepEqual(await counts(), [1, 1], "a memory no search of the question finds: the answer is kept");

    await engine.write({ content: "The cluster dashboard is read-only for contractors." });
    const withWord = await ask();
    assert.deepEqual(await counts(), [1, 2], "a memory sharing a word of the question, which its full-text search now finds: computed again");
    assert.ok(withWord.memories.some((m) => m.content.includes("dashboard")), withWord.text);
    await ask();
    assert.deepEqual(await counts(), [2, 2]);

    await engine.write({ content: "The staging cluster moved from Frankfurt to Dublin.", replaces: [target.id!] });
    const moved = await ask();
    assert.deepEqual(await counts(), [2, 3], "a memory the answer read was replaced: computed again");
    assert.match(moved.memories[0]?.content ?? "", /Dublin/);

    await engine.forget({ ids: [unrelated.id!] });
    await ask();
    assert.deepEqual(await counts(), [2, 4], "a change the cache is not told the details of reaches every answer");
    await engine.close();
  });

  it("a write sharing only a common word of the question, ranked below everything its full-text search already found, keeps the answer; asked again, the search finding it does not", async () => {
    const { engine, counts } = await cachedEngine();
    // More memories holding the question's words than the full-text search asks for: a newcomer must outrank the weakest to join.
    await engine.importMemories(Array.from({ length: 40 }, (_, i) => ({ content: `Shelf ${i} of the pottery studio holds glaze jars.` })));
    const target = await engine.write({ content: "The pottery studio fires the big kiln on Thursdays." });
    const ask = () => engine.recall({ query: "When does the pottery studio fire the big kiln?" });
    const first = await ask();
    assert.equal(first.memories[0]?.id, target.id, first.text);
    // One word of the question, in a long memory about something else: full-text ranks it under all forty.
    await engine.write({ content: "Volunteers who help out at the community garden get a free tote bag, a seed packet, a watering can and a studio tour." });
    assert.deepEqual((await ask()).memories.map((m) => m.id), first.memories.map((m) => m.id));
    assert.deepEqual(await counts(), [1, 1], "the word searches asked again found nothing new: the answer is kept");

    await engine.write({ content: "The big kiln in the pottery studio now fires on Fridays." });
    const after = await ask();
    assert.deepEqual(await counts(), [1, 2], "a memory the searches now find: computed again");
    assert.ok(after.memories.some((m) => m.content.includes("Fridays")), after.text);
    await engine.close();
  });

  it("a cached answer still counts as a recall of its memories (access counts)", async () => {
    const { cache } = mapCache();
    const store = new InMemoryStore();
    const engine = new MemoryEngine({ store, embedder: new FakeEmbedder(), clock: new FixedClock(), recallCache: cache }, { defaultScope: "project:a" });
    await engine.open();
    const w = await engine.write({ content: "Backups are kept for thirty days." });
    for (let i = 0; i < 3; i++) await engine.recall({ query: "How long are backups kept?" });
    await engine.close();
    const [m] = await store.getMemories([w.id!]);
    assert.equal(m?.accessCount, 3);
  });
});
