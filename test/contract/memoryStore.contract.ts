import { strict as assert } from "node:assert";
import { HindsightError } from "../../src/core/errors.js";
import type { MemoryFilter, MemoryStore, ModelInfo } from "../../src/core/ports.js";
import { FAKE_DIMENSION, rejection, T0 } from "../helpers/fakes.js";
import { auditEntry, axis, memoryRecord, turnRecord } from "../helpers/records.js";

export interface StoreHandle {
  /** A fresh, empty store, not yet opened. */
  store: MemoryStore;
  /** Removes whatever the store left behind (folders). */
  cleanup: () => Promise<void>;
  /** For persistent stores: a new store instance on the same data (the old one is closed first by the test). */
  reopen?: () => Promise<MemoryStore>;
}

export interface ContractOptions {
  /** The store keeps its data on disk: run the reopen tests (makeStore must provide reopen). */
  persistent: boolean;
}

const MODEL: ModelInfo = { id: "fake-embedder", dimension: FAKE_DIMENSION };
const D = FAKE_DIMENSION;

function assertClose(actual: number, expected: number, what: string, eps = 1e-4): void {
  assert.ok(Math.abs(actual - expected) < eps, `${what}: expected ${expected}, got ${actual}`);
}

function assertSameVector(actual: Float32Array, expected: Float32Array): void {
  assert.equal(actual.length, expected.length);
  for (let i = 0; i < expected.length; i++) assertClose(actual[i]!, expected[i]!, `vector[${i}]`, 1e-6);
}

/** The MemoryStore port's contract: every store implementation must pass it. */
export function runStoreContract(name: string, makeStore: () => Promise<StoreHandle>, options: ContractOptions): void {
  describe(`MemoryStore contract: ${name}`, function () {
    this.timeout(60_000);
    let handle: StoreHandle;
    let store: MemoryStore;

    beforeEach(async () => {
      handle = await makeStore();
      store = handle.store;
      await store.open(MODEL);
    });

    afterEach(async () => {
      await store.close();
      await handle.cleanup();
    });

    describe("memories", () => {
      it("put then get returns the same record", async () => {
        const rec = memoryRecord({ id: "m1", tags: ["infra"], sourceTurns: ["t1"], sourceRefs: ["D1:2"], validUntil: T0 + 5000, sessionId: "s1" });
        await store.putMemories([{ record: rec, vector: axis(D, 0) }]);
        assert.deepEqual(await store.getMemories(["m1"]), [rec]);
      });

      it("get returns records in the order asked and skips unknown ids", async () => {
        await store.putMemories([
          { record: memoryRecord({ id: "m1" }), vector: axis(D, 0) },
          { record: memoryRecord({ id: "m2" }), vector: axis(D, 1) },
        ]);
        assert.deepEqual((await store.getMemories(["m2", "nope", "m1"])).map((m) => m.id), ["m2", "m1"]);
        assert.deepEqual(await store.getMemories([]), []);
      });

      it("put of an existing id replaces it", async () => {
        await store.putMemories([{ record: memoryRecord({ id: "m1", content: "old" }), vector: axis(D, 0) }]);
        await store.putMemories([{ record: memoryRecord({ id: "m1", content: "new" }), vector: axis(D, 1) }]);
        assert.equal(await store.countMemories({}), 1);
        assert.equal((await store.getMemories(["m1"]))[0]!.content, "new");
      });

      it("update replaces metadata and keeps the vector", async () => {
        const v = axis(D, 3);
        await store.putMemories([{ record: memoryRecord({ id: "m1", content: "The gateway uses port 8443." }), vector: v }]);
        const updated = memoryRecord({ id: "m1", content: "The gateway uses port 8443.", status: "superseded", supersededBy: "m2", accessCount: 4, confidence: 0.55 });
        await store.updateMemories([updated]);
        assert.deepEqual(await store.getMemories(["m1"]), [updated]);
        const [hit] = await store.searchMemoriesByVector(v, {}, 1);
        assert.equal(hit!.record.id, "m1");
        assertClose(hit!.score, 1, "cosine to its own vector");
        assertSameVector(hit!.vector, v);
      });

      it("update with the vectors the caller holds keeps them; a vector of an unknown id adds nothing", async () => {
        const v1 = axis(D, 3);
        const v2 = axis(D, 4);
        await store.putMemories([
          { record: memoryRecord({ id: "m1", content: "one" }), vector: v1 },
          { record: memoryRecord({ id: "m2", content: "two" }), vector: v2 },
        ]);
        const one = memoryRecord({ id: "m1", content: "one", accessCount: 2 });
        const two = memoryRecord({ id: "m2", content: "two", accessCount: 3 });
        await store.updateMemories([one, two, memoryRecord({ id: "ghost" })], new Map([["m1", v1], ["ghost", v2]]));
        assert.deepEqual(await store.getMemories(["m1", "m2", "ghost"]), [one, two]);
        assert.equal(await store.countMemories({}), 2);
        for (const [id, v] of [["m1", v1], ["m2", v2]] as const) {
          const [hit] = await store.searchMemoriesByVector(v, {}, 1);
          assert.equal(hit!.record.id, id);
          assertSameVector(hit!.vector, v);
        }
      });

      it("update of an unknown id adds nothing", async () => {
        await store.updateMemories([memoryRecord({ id: "ghost" })]);
        await store.updateMemories([]);
        assert.equal(await store.countMemories({}), 0);
        assert.deepEqual(await store.getMemories(["ghost"]), []);
      });

      it("list filters by scope, status, type, layer and validity", async () => {
        await store.putMemories([
          { record: memoryRecord({ id: "a-fact", scope: "project:a", type: "fact", layer: "L3" }), vector: axis(D, 0) },
          { record: memoryRecord({ id: "a-event", scope: "project:a", type: "event", layer: "L2" }), vector: axis(D, 1) },
          { record: memoryRecord({ id: "a-old", scope: "project:a", status: "superseded" }), vector: axis(D, 2) },
          { record: memoryRecord({ id: "a-expired", scope: "project:a", validUntil: T0 + 1000 }), vector: axis(D, 3) },
          { record: memoryRecord({ id: "a-later", scope: "project:a", validUntil: T0 + 10_000 }), vector: axis(D, 4) },
          { record: memoryRecord({ id: "b-fact", scope: "project:b" }), vector: axis(D, 5) },
        ]);
        const ids = async (f: Parameters<MemoryStore["listMemories"]>[0]) => (await store.listMemories(f)).map((m) => m.id).sort();
        assert.deepEqual(await ids({ scope: "project:b" }), ["b-fact"]);
        assert.deepEqual(await ids({ scope: "project:a", statuses: ["superseded"] }), ["a-old"]);
        assert.deepEqual(await ids({ scope: "project:a", types: ["event"] }), ["a-event"]);
        assert.deepEqual(await ids({ layers: ["L2"] }), ["a-event"]);
        assert.deepEqual(await ids({ scope: "project:a", statuses: ["active"], validAt: T0 + 1000 }), ["a-event", "a-fact", "a-later"]);
        assert.deepEqual(await ids({ scope: "project:a", statuses: ["active"], validAt: T0 + 500 }), ["a-event", "a-expired", "a-fact", "a-later"]);
        assert.deepEqual(await ids({ scope: "project:nope" }), []);
        assert.equal((await store.listMemories({})).length, 6);
      });

      it("list filters by session", async () => {
        await store.putMemories([
          { record: memoryRecord({ id: "s1", sessionId: "one" }), vector: axis(D, 0) },
          { record: memoryRecord({ id: "s2", sessionId: "two" }), vector: axis(D, 1) },
        ]);
        assert.deepEqual((await store.listMemories({ sessionId: "two" })).map((m) => m.id), ["s2"]);
      });

      it("list is newest first and pages with limit and offset", async () => {
        await store.putMemories([0, 1, 2, 3, 4].map((i) => ({ record: memoryRecord({ id: `m${i}`, createdAt: T0 + i * 1000 }), vector: axis(D, i) })));
        assert.deepEqual((await store.listMemories({})).map((m) => m.id), ["m4", "m3", "m2", "m1", "m0"]);
        assert.deepEqual((await store.listMemories({}, { limit: 2 })).map((m) => m.id), ["m4", "m3"]);
        assert.deepEqual((await store.listMemories({}, { limit: 2, offset: 1 })).map((m) => m.id), ["m3", "m2"]);
        assert.deepEqual((await store.listMemories({}, { offset: 4 })).map((m) => m.id), ["m0"]);
        assert.deepEqual(await store.listMemories({}, { offset: 10 }), []);
      });

      it("memories created in the same millisecond list by id, and pages neither repeat nor skip one", async () => {
        const ids = ["m-c", "m-a", "m-e", "m-b", "m-d"];
        await store.putMemories(ids.map((id, i) => ({ record: memoryRecord({ id, createdAt: T0 }), vector: axis(D, i) })));
        await store.putMemories([{ record: memoryRecord({ id: "m-z", createdAt: T0 + 1 }), vector: axis(D, 9) }]);
        const all = ["m-z", "m-a", "m-b", "m-c", "m-d", "m-e"];
        assert.deepEqual((await store.listMemories({})).map((m) => m.id), all);
        const pages: string[] = [];
        for (let offset = 0; offset < 6; offset += 2) pages.push(...(await store.listMemories({}, { limit: 2, offset })).map((m) => m.id));
        assert.deepEqual(pages, all);
      });

      describe("text filter (case-insensitive substring of content or subject)", () => {
        const records = [
          memoryRecord({ id: "pct", content: "The discount is 100% for staff.", createdAt: T0 + 9 }),
          memoryRecord({ id: "pct-no", content: "The discount is 100 percent for staff.", createdAt: T0 + 8 }),
          memoryRecord({ id: "under", content: "Use snake_case for column names.", createdAt: T0 + 7 }),
          memoryRecord({ id: "under-no", content: "Use snakeXcase for column names.", createdAt: T0 + 6 }),
          memoryRecord({ id: "quote", content: "It's the team's call; say \"done\" at C:\\temp.", createdAt: T0 + 5 }),
          memoryRecord({ id: "zh", content: "我们的主数据库是PostgreSQL 16。", createdAt: T0 + 4 }),
          memoryRecord({ id: "subj", subject: "Deploy Target", content: "Fly.io in Frankfurt.", createdAt: T0 + 3 }),
          memoryRecord({ id: "upper", content: "DEPLOY only on Tuesdays.", createdAt: T0 + 3, layer: "L2", type: "event" }),
          memoryRecord({ id: "ctx", content: "The answer is yes.", context: "Do we deploy to zebra hosts?", createdAt: T0 + 2 }),
          memoryRecord({ id: "other", scope: "project:b", content: "We deploy elsewhere 100%.", createdAt: T0 + 1 }),
          memoryRecord({ id: "gone", content: "Deploy to Heroku.", status: "superseded", createdAt: T0 }),
        ];
        beforeEach(async () => {
          await store.putMemories(records.map((record, i) => ({ record, vector: axis(D, i) })));
        });
        const ids = async (text: string, filter: Parameters<MemoryStore["listMemories"]>[0] = { scope: "project:a" }) => (await store.listMemories({ ...filter, text })).map((m) => m.id);

        it("treats %, _, quotes, backslashes and Chinese as plain characters", async () => {
          assert.deepEqual(await ids("100%"), ["pct"]);
          assert.deepEqual(await ids("snake_case"), ["under"]);
          assert.deepEqual(await ids("team's"), ["quote"]);
          assert.deepEqual(await ids("say \"done\""), ["quote"]);
          assert.deepEqual(await ids("c:\\temp"), ["quote"]);
          assert.deepEqual(await ids("数据库"), ["zh"]);
          assert.deepEqual(await ids("postgresql 16。"), ["zh"]);
          assert.deepEqual(await ids(".*"), [], "no regular expression either");
        });

        it("matches content or subject in any case, never another field", async () => {
          assert.deepEqual(await ids("deploy"), ["subj", "upper", "gone"], "newest first; `ctx` has it only in its context");
          assert.deepEqual(await ids("deploy", { scope: "project:a", statuses: ["active"] }), ["subj", "upper"]);
          assert.deepEqual(await ids("DePlOy TaRgEt"), ["subj"]);
          assert.deepEqual(await ids("zebra"), [], "context is not listed text");
          assert.deepEqual(await ids("project:a"), [], "nor the scope");
          assert.deepEqual(await ids("superseded"), [], "nor the status");
          assert.deepEqual(await ids("general"), records.filter((r) => r.scope === "project:a" && r.subject === "general").map((r) => r.id), "the default subject");
          assert.deepEqual(await ids('","'), [], "a needle cannot span two fields of the stored document");
          assert.deepEqual(await ids("100%", {}), ["pct", "other"]);
        });

        it("pages and counts after filtering, with the same total as the list", async () => {
          const filter = { scope: "project:a", text: "DEPLOY" };
          assert.deepEqual((await store.listMemories(filter, { limit: 1, offset: 1 })).map((m) => m.id), ["upper"]);
          assert.deepEqual((await store.listMemories(filter, { limit: 5, offset: 2 })).map((m) => m.id), ["gone"]);
          assert.equal(await store.countMemories(filter), 3);
          assert.equal(await store.countMemories({ ...filter, statuses: ["active"] }), 2);
          assert.equal(await store.countMemories({ scope: "project:a", text: "kubernetes" }), 0);
          assert.equal(await store.countMemories({ scope: "project:a", text: "" }), 10, "an empty text is no condition");
          assert.deepEqual(await store.countMemoryGroups({ ...filter, statuses: ["active"] }), [
            { layer: "L2", type: "event", count: 1 },
            { layer: "L3", type: "fact", count: 1 },
          ]);
        });
      });

      it("count applies the same filter as list", async () => {
        await store.putMemories([
          { record: memoryRecord({ id: "a1" }), vector: axis(D, 0) },
          { record: memoryRecord({ id: "a2", status: "quarantined" }), vector: axis(D, 1) },
          { record: memoryRecord({ id: "a3", validUntil: T0 }), vector: axis(D, 2) },
          { record: memoryRecord({ id: "b1", scope: "project:b" }), vector: axis(D, 3) },
        ]);
        assert.equal(await store.countMemories({}), 4);
        assert.equal(await store.countMemories({ scope: "project:a" }), 3);
        assert.equal(await store.countMemories({ scope: "project:a", statuses: ["active"] }), 2);
        assert.equal(await store.countMemories({ scope: "project:a", statuses: ["active"], validAt: T0 }), 1);
      });

      it("grouped counts apply the same filter as count, per layer and type, leaving out empty groups", async () => {
        await store.putMemories([
          { record: memoryRecord({ id: "g1", layer: "L3", type: "fact" }), vector: axis(D, 0) },
          { record: memoryRecord({ id: "g2", layer: "L3", type: "fact" }), vector: axis(D, 1) },
          { record: memoryRecord({ id: "g3", layer: "L1", type: "task_state" }), vector: axis(D, 2) },
          { record: memoryRecord({ id: "g4", layer: "L3", type: "preference", status: "superseded" }), vector: axis(D, 3) },
          { record: memoryRecord({ id: "g5", layer: "L3", type: "fact", scope: "project:b" }), vector: axis(D, 4) },
        ]);
        assert.deepEqual(await store.countMemoryGroups({ scope: "project:a", statuses: ["active"] }), [
          { layer: "L1", type: "task_state", count: 1 },
          { layer: "L3", type: "fact", count: 2 },
        ]);
        assert.deepEqual(await store.countMemoryGroups({ scope: "project:a", types: ["preference"] }), [{ layer: "L3", type: "preference", count: 1 }]);
        assert.deepEqual(await store.countMemoryGroups({ scope: "project:c" }), []);
      });

      it("vector search orders by cosine similarity and reports it", async () => {
        await store.putMemories([
          { record: memoryRecord({ id: "far" }), vector: axis(D, 1) },
          { record: memoryRecord({ id: "near" }), vector: axis(D, 0) },
          { record: memoryRecord({ id: "mid" }), vector: axis(D, 0, 1, 1) },
          { record: memoryRecord({ id: "close" }), vector: axis(D, 0, 1, 0.2) },
        ]);
        const hits = await store.searchMemoriesByVector(axis(D, 0), {}, 10);
        assert.deepEqual(hits.map((h) => h.record.id), ["near", "close", "mid", "far"]);
        assertClose(hits[0]!.score, 1, "near");
        assertClose(hits[1]!.score, 1 / Math.sqrt(1.04), "close");
        assertClose(hits[2]!.score, Math.SQRT1_2, "mid");
        assertClose(hits[3]!.score, 0, "far");
        assertSameVector(hits[2]!.vector, axis(D, 0, 1, 1));
        assert.deepEqual((await store.searchMemoriesByVector(axis(D, 0), {}, 2)).map((h) => h.record.id), ["near", "close"]);
      });

      it("vector search filters before ranking", async () => {
        await store.putMemories([
          { record: memoryRecord({ id: "a-best", scope: "project:a" }), vector: axis(D, 0) },
          { record: memoryRecord({ id: "a-good", scope: "project:a" }), vector: axis(D, 0, 1, 0.3) },
          { record: memoryRecord({ id: "b-poor", scope: "project:b" }), vector: axis(D, 0, 1, 3) },
          { record: memoryRecord({ id: "a-hidden", scope: "project:a", status: "superseded" }), vector: axis(D, 0, 2, 0.1) },
        ]);
        const inB = await store.searchMemoriesByVector(axis(D, 0), { scope: "project:b" }, 1);
        assert.deepEqual(inB.map((h) => h.record.id), ["b-poor"]);
        const active = await store.searchMemoriesByVector(axis(D, 0), { scope: "project:a", statuses: ["active"] }, 5);
        assert.deepEqual(active.map((h) => h.record.id), ["a-best", "a-good"]);
        assert.deepEqual(await store.searchMemoriesByVector(axis(D, 0), { scope: "project:none" }, 5), []);
      });

      it("text search finds words, stems, and Chinese words, filtered", async () => {
        await store.putMemories([
          { record: memoryRecord({ id: "deploy", content: "We deploy the web app to Fly.io in Frankfurt." }), vector: axis(D, 0) },
          { record: memoryRecord({ id: "tests", content: "Unit tests are written with Vitest." }), vector: axis(D, 1) },
          { record: memoryRecord({ id: "zh", content: "我们的主数据库是PostgreSQL 16。" }), vector: axis(D, 2) },
          { record: memoryRecord({ id: "b", scope: "project:b", content: "We deploy the billing app to Render." }), vector: axis(D, 3) },
        ]);
        const ids = async (q: string, f = { scope: "project:a" }) => (await store.searchMemoriesByText(q, f, 10)).map((h) => h.record.id);
        assert.deepEqual(await ids("Where do we deploy?"), ["deploy"]);
        assert.deepEqual(await ids("deployed"), ["deploy"]);
        assert.deepEqual(await ids("vitest"), ["tests"]);
        assert.deepEqual(await ids("数据库用的是什么"), ["zh"]);
        assert.deepEqual(await ids("deploy", { scope: "project:b" }), ["b"]);
        assert.deepEqual(await ids("kubernetes"), []);
        assert.deepEqual(await ids("the and of"), [], "stopwords alone match nothing");
        const [hit] = await store.searchMemoriesByText("Frankfurt", {}, 10);
        assert.ok(hit!.score > 0);
        assertSameVector(hit!.vector, axis(D, 0));
      });

      it("entity search finds memories naming any of the names, the rarer shared name first, filtered", async () => {
        await store.putMemories([
          { record: memoryRecord({ id: "both", subject: "Ingrid", content: "Ingrid walks Biscuit along the Thames every morning." }), vector: axis(D, 0) },
          { record: memoryRecord({ id: "ingrid", subject: "Ingrid", content: "Ingrid prefers tea to coffee." }), vector: axis(D, 1) },
          { record: memoryRecord({ id: "ingrid2", subject: "Ingrid", content: "Ingrid learned the cello at school." }), vector: axis(D, 2) },
          { record: memoryRecord({ id: "zh", content: "老周在成都开了一家火锅店。" }), vector: axis(D, 3) },
          { record: memoryRecord({ id: "other", scope: "project:b", content: "Tomasz has a beagle called Biscuit." }), vector: axis(D, 4) },
        ]);
        const ids = async (names: string[], f: MemoryFilter = { scope: "project:a" }) => (await store.searchMemoriesByEntities(names, f, 10)).map((h) => h.record.id);
        const hits = await ids(["ingrid", "biscuit"]);
        assert.equal(hits[0], "both", "the memory sharing the rare name comes first");
        assert.deepEqual([...hits].sort(), ["both", "ingrid", "ingrid2"]);
        assert.deepEqual(await ids(["成都"]), ["zh"]);
        assert.deepEqual(await ids(["biscuit"], { scope: "project:b" }), ["other"]);
        assert.deepEqual(await ids(["nobody"]), []);
        assert.deepEqual(await ids([]), []);
        const [hit] = await store.searchMemoriesByEntities(["thames"], {}, 1);
        assertSameVector(hit!.vector, axis(D, 0));
      });

      it("a filter by creation time keeps memories created in the span (from inclusive, to exclusive)", async () => {
        await store.putMemories([
          { record: memoryRecord({ id: "before", createdAt: T0 - 1 }), vector: axis(D, 0) },
          { record: memoryRecord({ id: "first", createdAt: T0 }), vector: axis(D, 1) },
          { record: memoryRecord({ id: "inside", createdAt: T0 + 500 }), vector: axis(D, 2) },
          { record: memoryRecord({ id: "end", createdAt: T0 + 1000 }), vector: axis(D, 3) },
        ]);
        const createdIn = { from: T0, to: T0 + 1000 };
        assert.deepEqual((await store.listMemories({ createdIn })).map((m) => m.id).sort(), ["first", "inside"]);
        assert.deepEqual((await store.searchMemoriesByVector(axis(D, 0), { createdIn }, 10)).map((h) => h.record.id).sort(), ["first", "inside"]);
        assert.equal(await store.countMemories({ createdIn }), 2);
      });

      it("text search ranks the better match first and honours the limit", async () => {
        await store.putMemories([
          { record: memoryRecord({ id: "one", content: "Redis is used for caching sessions." }), vector: axis(D, 0) },
          { record: memoryRecord({ id: "two", content: "Redis cluster runs the job queue for workers." }), vector: axis(D, 1) },
          { record: memoryRecord({ id: "other", content: "Unit tests are written with Vitest." }), vector: axis(D, 2) },
        ]);
        const hits = await store.searchMemoriesByText("redis job queue workers", {}, 10);
        assert.deepEqual(hits.map((h) => h.record.id), ["two", "one"]);
        assert.ok(hits[0]!.score > hits[1]!.score);
        assert.equal((await store.searchMemoriesByText("redis", {}, 1)).length, 1);
      });

      it("text search skips memories that do not pass the status filter", async () => {
        await store.putMemories([
          { record: memoryRecord({ id: "gone", content: "Unit tests are written with Jest.", status: "superseded" }), vector: axis(D, 0) },
          { record: memoryRecord({ id: "live", content: "Unit tests were migrated to Vitest." }), vector: axis(D, 1) },
        ]);
        const hits = await store.searchMemoriesByText("unit tests", { statuses: ["active"] }, 10);
        assert.deepEqual(hits.map((h) => h.record.id), ["live"]);
      });

      it("delete removes memories and reports how many", async () => {
        await store.putMemories([
          { record: memoryRecord({ id: "m1", content: "Redis caches sessions." }), vector: axis(D, 0) },
          { record: memoryRecord({ id: "m2" }), vector: axis(D, 1) },
        ]);
        assert.equal(await store.deleteMemories(["m1", "nope"]), 1);
        assert.equal(await store.deleteMemories([]), 0);
        assert.deepEqual(await store.getMemories(["m1"]), []);
        assert.equal(await store.countMemories({}), 1);
        assert.deepEqual((await store.searchMemoriesByVector(axis(D, 0), {}, 5)).map((h) => h.record.id), ["m2"]);
        assert.deepEqual(await store.searchMemoriesByText("redis", {}, 5), []);
      });
    });

    describe("L0 turns", () => {
      it("put, get, list (oldest first, filtered), update, search and delete", async () => {
        const t1 = turnRecord({ id: "t1", user: "We deploy the web app to Fly.io.", speaker: "dana", at: T0 + 2000, ref: "D1:1" });
        const t2 = turnRecord({ id: "t2", user: "Is the staging database on Postgres 14?", at: T0 });
        const t3 = turnRecord({ id: "t3", user: "The secret was [REDACTED:password].", status: "redacted", at: T0 + 1000 });
        const t4 = turnRecord({ id: "t4", scope: "project:b", user: "Deploy the billing app to Render." });
        await store.putTurns([
          { record: t1, vector: axis(D, 0) },
          { record: t2, vector: axis(D, 1) },
          { record: t3, vector: axis(D, 2) },
          { record: t4, vector: axis(D, 3) },
        ]);
        assert.deepEqual(await store.getTurns(["t1", "nope"]), [t1]);
        assert.deepEqual((await store.listTurns({ scope: "project:a" })).map((t) => t.id), ["t2", "t3", "t1"]);
        assert.deepEqual((await store.listTurns({ scope: "project:a", statuses: ["active"] })).map((t) => t.id), ["t2", "t1"]);
        assert.deepEqual((await store.listTurns({ scope: "project:a" }, { limit: 1, offset: 1 })).map((t) => t.id), ["t3"]);

        const updated = { ...t2, memoryIds: ["m9"], user: "Is the staging database on Postgres 16?" };
        await store.updateTurns([updated]);
        assert.deepEqual(await store.getTurns(["t2"]), [updated]);
        const [vhit] = await store.searchTurnsByVector(axis(D, 1), { scope: "project:a" }, 1);
        assert.equal(vhit!.record.id, "t2");
        assertClose(vhit!.score, 1, "turn cosine after update");
        assertSameVector(vhit!.vector, axis(D, 1));

        const vhits = await store.searchTurnsByVector(axis(D, 2), { scope: "project:a", statuses: ["active"] }, 5);
        assert.ok(!vhits.some((h) => h.record.id === "t3"), "a redacted turn passed the status filter");

        assert.deepEqual((await store.searchTurnsByText("deploy", { scope: "project:a" }, 5)).map((h) => h.record.id), ["t1"]);
        assert.deepEqual((await store.searchTurnsByText("dana", {}, 5)).map((h) => h.record.id), ["t1"], "the speaker is searchable");
        assert.deepEqual((await store.searchTurnsByText("deploy", { scope: "project:b" }, 5)).map((h) => h.record.id), ["t4"]);

        assert.equal(await store.deleteTurns(["t1", "t4", "nope"]), 2);
        assert.deepEqual(await store.getTurns(["t1", "t4"]), []);
        assert.deepEqual(await store.searchTurnsByText("deploy", {}, 5), []);
        assert.equal((await store.listTurns({})).length, 2);
      });
    });

    describe("audit", () => {
      it("append then list: newest first, by scope, paged", async () => {
        await store.appendAudit(auditEntry({ id: "e1", at: T0, detail: "first" }));
        await store.appendAudit(auditEntry({ id: "e2", at: T0 + 1, scope: "project:b", operation: "forget" }));
        await store.appendAudit(auditEntry({ id: "e3", at: T0 + 2, scope: null, operation: "reembed", memoryIds: ["m1"], turnIds: ["t1"] }));
        const all = await store.listAudit();
        assert.deepEqual(all.map((e) => e.id), ["e3", "e2", "e1"]);
        assert.deepEqual(all[0], auditEntry({ id: "e3", at: T0 + 2, scope: null, operation: "reembed", memoryIds: ["m1"], turnIds: ["t1"] }));
        assert.deepEqual((await store.listAudit({ scope: "project:a" })).map((e) => e.id), ["e1"]);
        assert.deepEqual((await store.listAudit({ limit: 1 })).map((e) => e.id), ["e3"]);
        assert.deepEqual((await store.listAudit({ limit: 1, offset: 1 })).map((e) => e.id), ["e2"]);
      });

      it("entries of the same millisecond: newest appended first, and pages cut the same order", async () => {
        await store.appendAudit(auditEntry({ id: "old", at: T0 - 1 }));
        for (const id of ["s1", "s2"]) await store.appendAudit(auditEntry({ id, at: T0 }));
        await store.appendAudit(auditEntry({ id: "s3", at: T0 }), auditEntry({ id: "s4", at: T0 }));
        await store.appendAudit(auditEntry({ id: "s5", at: T0 }));
        const all = ["s5", "s4", "s3", "s2", "s1", "old"];
        assert.deepEqual((await store.listAudit()).map((e) => e.id), all);
        const pages: string[] = [];
        for (let offset = 0; offset < 6; offset += 2) pages.push(...(await store.listAudit({ limit: 2, offset })).map((e) => e.id));
        assert.deepEqual(pages, all);
        assert.deepEqual((await store.listAudit({ limit: 2, offset: 10 })).map((e) => e.id), []);
      });
    });

    describe("recall statistics", () => {
      it("none before the first put; a put replaces the whole document; a reembed keeps it", async () => {
        assert.equal(await store.getRecallStats(), null);
        const first = { since: T0, count: 2, hits: 1, sumMs: 12.5, recent: [4.5, 8], hours: [{ at: T0, count: 2, hits: 1, p50Ms: 4.5, p95Ms: 8, durations: [4.5, 8] }] };
        await store.putRecallStats(first);
        assert.deepEqual(await store.getRecallStats(), first);
        const second = { ...first, count: 3, recent: [4.5, 8, 1], hours: [{ at: T0, count: 2, hits: 1, p50Ms: 4.5, p95Ms: 8 }, { at: T0 + 3_600_000, count: 1, hits: 0, p50Ms: 1, p95Ms: 1, durations: [1] }] };
        await store.putRecallStats(second);
        assert.deepEqual(await store.getRecallStats(), second);
        await store.reembed({ id: "other-model", dimension: D }, async (texts) => texts.map(() => axis(D, 0)));
        assert.deepEqual(await store.getRecallStats(), second);
      });
    });

    describe("review queue", () => {
      const proposal = (id: string, scope: string, status: "pending" | "approved", createdAt: number) => ({
        id,
        scope,
        subject: "billing deploys",
        type: "event" as const,
        sourceIds: ["m1", "m2"],
        summary: "Two deploys shipped.",
        summarizer: "extractive" as const,
        status,
        reason: "test",
        createdAt,
        decidedAt: null,
        summaryId: null,
      });

      it("put, get, replace by id, list by scope and status, newest first", async () => {
        await store.putProposal(proposal("p1", "project:a", "pending", T0));
        await store.putProposal(proposal("p2", "project:a", "pending", T0 + 1));
        await store.putProposal(proposal("p3", "project:b", "pending", T0 + 2));
        assert.deepEqual(await store.getProposal("p2"), proposal("p2", "project:a", "pending", T0 + 1));
        assert.equal(await store.getProposal("nope"), null);
        await store.putProposal({ ...proposal("p1", "project:a", "approved", T0), decidedAt: T0 + 5, summaryId: "s1" });
        assert.equal((await store.getProposal("p1"))?.status, "approved");
        assert.deepEqual((await store.listProposals({ scope: "project:a" })).map((p) => p.id), ["p2", "p1"]);
        assert.deepEqual((await store.listProposals({ statuses: ["pending"] })).map((p) => p.id), ["p3", "p2"]);
        assert.deepEqual((await store.listProposals({ scope: "project:a", statuses: ["approved"] })).map((p) => p.id), ["p1"]);
      });
    });

    describe("embedding model", () => {
      it("remembers the model it was opened with", async () => {
        assert.deepEqual(await store.storedModel(), MODEL);
        await store.open(MODEL);
      });

      it("refuses to open for another model with EMBEDDING_MODEL_MISMATCH", async () => {
        await store.putMemories([{ record: memoryRecord({ id: "m1" }), vector: axis(D, 0) }]);
        for (const other of [{ id: "other-model", dimension: D }, { id: MODEL.id, dimension: 384 }]) {
          const err = await rejection(store.open(other));
          assert.ok(HindsightError.is(err, "EMBEDDING_MODEL_MISMATCH"), String(err));
          assert.ok((err as Error).message.includes(MODEL.id));
          assert.ok((err as Error).message.includes(other.id));
        }
        assert.deepEqual(await store.storedModel(), MODEL);
        assert.equal(await store.countMemories({}), 1);
      });

      it("reembed rewrites every vector with the new model and records it", async () => {
        await store.putMemories([
          { record: memoryRecord({ id: "m1", content: "alpha memory" }), vector: axis(D, 0) },
          { record: memoryRecord({ id: "m2", content: "beta memory" }), vector: axis(D, 1) },
        ]);
        await store.putTurns([{ record: turnRecord({ id: "t1", user: "gamma turn", speaker: "dana" }), vector: axis(D, 2) }]);
        const seen: string[] = [];
        const newModel = { id: "tiny-model", dimension: 8 };
        const embed = async (texts: string[]) => {
          seen.push(...texts);
          return texts.map((t) => axis(8, t.includes("alpha") ? 1 : t.includes("beta") ? 2 : 3));
        };
        const counts = await store.reembed(newModel, embed);
        assert.deepEqual(counts, { memories: 2, turns: 1 });
        assert.deepEqual([...seen].sort(), ["alpha memory", "beta memory", "dana: gamma turn"]);
        assert.deepEqual(await store.storedModel(), newModel);
        await store.open(newModel);
        assert.ok(HindsightError.is(await rejection(store.open(MODEL)), "EMBEDDING_MODEL_MISMATCH"));

        const [hit] = await store.searchMemoriesByVector(axis(8, 2), {}, 1);
        assert.equal(hit!.record.id, "m2");
        assert.equal(hit!.vector.length, 8);
        assertClose(hit!.score, 1, "cosine with the new vector");
        assert.equal(hit!.record.embeddingModel, "tiny-model");
        assert.deepEqual((await store.getMemories(["m1"]))[0]!.embeddingModel, "tiny-model");
        const [turnHit] = await store.searchTurnsByVector(axis(8, 3), {}, 1);
        assert.equal(turnHit!.record.id, "t1");
        assertClose(turnHit!.score, 1, "turn cosine with the new vector");
        assert.deepEqual((await store.searchMemoriesByText("alpha", {}, 5)).map((h) => h.record.id), ["m1"]);
        assert.deepEqual((await store.searchTurnsByText("gamma", {}, 5)).map((h) => h.record.id), ["t1"]);
      });
    });

    if (options.persistent) {
      describe("persistence", () => {
        it("a store reopened from disk keeps memories, turns, audit and the model", async () => {
          const rec = memoryRecord({ id: "m1", content: "We deploy the web app to Fly.io." });
          await store.putMemories([{ record: rec, vector: axis(D, 0) }]);
          await store.putTurns([{ record: turnRecord({ id: "t1", user: "We deploy the web app to Fly.io." }), vector: axis(D, 0) }]);
          await store.appendAudit(auditEntry({ id: "e1" }));
          const stats = { since: T0, count: 1, hits: 1, sumMs: 3, recent: [3], hours: [{ at: T0, count: 1, hits: 1, p50Ms: 3, p95Ms: 3, durations: [3] }] };
          await store.putRecallStats(stats);
          await store.close();
          assert.ok(handle.reopen, "a persistent store must provide reopen");

          store = await handle.reopen();
          assert.deepEqual(await store.storedModel(), MODEL);
          assert.ok(HindsightError.is(await rejection(store.open({ id: "other-model", dimension: D })), "EMBEDDING_MODEL_MISMATCH"));
          await store.open(MODEL);
          assert.deepEqual(await store.getMemories(["m1"]), [rec]);
          assert.equal((await store.getTurns(["t1"])).length, 1);
          assert.deepEqual((await store.listAudit()).map((e) => e.id), ["e1"]);
          assert.deepEqual(await store.getRecallStats(), stats, "the recall statistics survive a restart");
          assert.deepEqual((await store.searchMemoriesByVector(axis(D, 0), {}, 1)).map((h) => h.record.id), ["m1"]);
          assert.deepEqual((await store.searchMemoriesByText("deploy", {}, 5)).map((h) => h.record.id), ["m1"]);
          assert.deepEqual((await store.searchTurnsByText("deploy", {}, 5)).map((h) => h.record.id), ["t1"]);
          // writes after reopening work and are searchable
          await store.putMemories([{ record: memoryRecord({ id: "m2", content: "Deploy previews run on Render." }), vector: axis(D, 1) }]);
          assert.deepEqual((await store.searchMemoriesByText("deploy", {}, 5)).map((h) => h.record.id).sort(), ["m1", "m2"]);
          assert.ok((await store.diskBytes()) > 0);
        });
      });
    } else {
      it("reports no size on disk", async () => {
        await store.putMemories([{ record: memoryRecord({ id: "m1" }), vector: axis(D, 0) }]);
        assert.equal(await store.diskBytes(), 0);
      });
    }
  });
}
