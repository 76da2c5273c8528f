import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { HindsightError } from "../../src/core/errors.js";
import type { ModelInfo } from "../../src/core/ports.js";
import { QdrantStore } from "../../src/stores/qdrant/qdrantStore.js";
import { FAKE_DIMENSION, fakeVector, rejection } from "../helpers/fakes.js";
import { axis, memoryRecord, turnRecord } from "../helpers/records.js";
import { runStoreContract } from "./memoryStore.contract.js";
import { startFakeQdrant, type FakeQdrant } from "./qdrantFake.js";

const MODEL: ModelInfo = { id: "fake-embedder", dimension: FAKE_DIMENSION };
const REAL_URL = process.env.QDRANT_URL;

/** A fresh collection prefix per store, so tests never see each other's data (and can share one server). */
function prefix(): string {
  return `hs_test_${randomBytes(4).toString("hex")}`;
}

function qdrantHandle(url: string, apiKey?: string) {
  return async () => {
    const p = prefix();
    const options = { url, prefix: p, ...(apiKey ? { apiKey } : {}) };
    return {
      store: new QdrantStore(options),
      cleanup: () => new QdrantStore(options).dropAll(),
      reopen: async () => new QdrantStore(options),
    };
  };
}

if (REAL_URL) {
  runStoreContract("QdrantStore (real Qdrant at QDRANT_URL)", qdrantHandle(REAL_URL, process.env.QDRANT_API_KEY), { persistent: true });
} else {
  // Printed where the run is read: the real-server half of the contract did not run.
  console.log("[qdrant] QDRANT_URL is not set: the MemoryStore contract runs against the in-process FAKE Qdrant only; set QDRANT_URL=http://host:6333 to run it against a real Qdrant.");
  describe("MemoryStore contract: QdrantStore (real Qdrant)", () => {
    it("is skipped: QDRANT_URL is not set (no Qdrant server can run on this machine)");
  });
}

describe("QdrantStore against the FAKE Qdrant REST endpoints (catches translation bugs; not Qdrant)", function () {
  this.timeout(60_000);
  let fake: FakeQdrant;
  let url = "";

  before(async () => {
    fake = await startFakeQdrant();
    url = fake.url;
  });
  after(async () => {
    await fake.close();
  });

  runStoreContract(
    "QdrantStore (fake Qdrant)",
    async () => qdrantHandle(url)(),
    { persistent: true },
  );

  describe("QdrantStore specifics", () => {
    /** A fresh store on the fake, opened, and dropped after `fn` whatever happens in it. */
    async function withStore(fn: (store: QdrantStore, p: string) => Promise<void>, options: { textCandidates?: number } = {}): Promise<void> {
      const p = prefix();
      const store = new QdrantStore({ url, prefix: p, ...options });
      await store.open(MODEL);
      try {
        await fn(store, p);
      } finally {
        await store.dropAll();
      }
    }

    it("points written before the entity index get their entity terms when the store opens", async () => {
      await withStore(async (store, p) => {
        await store.putMemories([{ record: memoryRecord({ id: "m1", content: "Ingrid walks Biscuit along the Thames." }), vector: axis(FAKE_DIMENSION, 1) }]);
        // What a point of the previous release holds: the same payload without the entity terms.
        const memories = [...fake.collections.entries()].find(([n]) => n.startsWith(`${p}_memories`))![1];
        for (const point of memories.points.values()) delete point.payload.entities;
        assert.deepEqual(await store.searchMemoriesByEntities(["biscuit"], {}, 10), []);
        const reopened = new QdrantStore({ url, prefix: p });
        await reopened.open(MODEL);
        assert.deepEqual((await reopened.searchMemoriesByEntities(["biscuit"], {}, 10)).map((h) => h.record.id), ["m1"]);
        assert.equal((await reopened.getMemories(["m1"]))[0]?.content, "Ingrid walks Biscuit along the Thames.");
        await reopened.close();
      });
    });

    it("one collection pair per embedding model, with the payload indexes; the rest shared", async () => {
      await withStore(async (store, p) => {
        const names = [...fake.collections.keys()].filter((n) => n.startsWith(`${p}_`)).sort();
        assert.deepEqual(names.map((n) => n.replace(/_[0-9a-f]{6}$/, "")), [
          `${p}_audit`,
          `${p}_memories_fake-embedder_64`,
          `${p}_meta`,
          `${p}_proposals`,
          `${p}_turns_fake-embedder_64`,
        ]);
        const memories = fake.collections.get(names[1]!)!;
        assert.equal(memories.size, 64);
        assert.deepEqual([...memories.indexes.keys()].sort(), ["created_at", "entities", "fts", "layer", "scope", "session_id", "status", "type", "valid_until"]);
        assert.deepEqual(memories.indexes.get("fts"), { type: "text", tokenizer: "whitespace", lowercase: false });
        assert.deepEqual(memories.indexes.get("scope"), { type: "keyword", is_tenant: true });
        assert.equal(fake.collections.get(`${p}_audit`)!.size, null, "the audit log has no vectors");
      });
    });

    it("re-embedding to another model moves memories and turns to that model's collections and keeps audit and proposals", async () => {
      await withStore(async (store, p) => {
        await store.putMemories([{ record: memoryRecord({ id: "m1", content: "alpha" }), vector: axis(FAKE_DIMENSION, 0) }]);
        await store.putTurns([{ record: turnRecord({ id: "t1", user: "alpha turn" }), vector: axis(FAKE_DIMENSION, 1) }]);
        await store.appendAudit({ id: "e1", at: 1, actor: "test", operation: "write", scope: "project:a", memoryIds: ["m1"], turnIds: [], detail: "x" });
        await store.reembed({ id: "other-model", dimension: 8 }, async (texts) => texts.map(() => axis(8, 2)));
        const names = [...fake.collections.keys()].filter((n) => n.startsWith(`${p}_`));
        assert.ok(names.some((n) => n.startsWith(`${p}_memories_other-model_8_`)), names.join(", "));
        assert.ok(!names.some((n) => n.includes("fake-embedder")), `old collections left: ${names.join(", ")}`);
        await store.open({ id: "other-model", dimension: 8 });
        assert.equal((await store.getMemories(["m1"]))[0]!.embeddingModel, "other-model");
        assert.deepEqual((await store.listAudit()).map((e) => e.id), ["e1"]);
        assert.deepEqual((await store.searchTurnsByText("alpha", {}, 5)).map((h) => h.record.id), ["t1"]);
      });
    });

    it("20 concurrent puts and updates all land, in call order", async () => {
      await withStore(async (store) => {
        const ids = Array.from({ length: 20 }, (_, i) => `n${String(i).padStart(2, "0")}`);
        await Promise.all(
          ids.flatMap((id, i) => [
            store.putMemories([{ record: memoryRecord({ id, content: `new ${i}` }), vector: axis(FAKE_DIMENSION, i) }]),
            store.updateMemories([memoryRecord({ id, content: `new ${i} updated`, status: "archived" })]),
          ]),
        );
        assert.equal(await store.countMemories({ statuses: ["archived"] }), 20);
        const got = await store.getMemories(ids);
        assert.ok(got.every((m, i) => m.content === `new ${i} updated`));
        const [hit] = await store.searchMemoriesByVector(axis(FAKE_DIMENSION, 7), {}, 1);
        assert.equal(hit!.record.id, "n07", "vectors survive payload updates");
      });
    });

    it("keyword search with a candidate cap reads the rarest term's matches first", async () => {
      await withStore(async (store) => {
        const common = Array.from({ length: 8 }, (_, i) => memoryRecord({ id: `c${i}`, content: `Deploy note number ${i} for the service.` }));
        const rare = memoryRecord({ id: "rare", content: "Deploy to Frankfurt only on Tuesdays." });
        await store.putMemories([...common, rare].map((r) => ({ record: r, vector: fakeVector(r.content) })));
        const hits = await store.searchMemoriesByText("deploy frankfurt", {}, 2);
        assert.equal(hits[0]!.record.id, "rare");
        assert.equal(hits.length, 2);
      }, { textCandidates: 3 });
    });

    it("keyword search asks for two counts whatever the number of query terms, while the matches fit the candidate cap", async () => {
      await withStore(async (store) => {
        const records = [
          memoryRecord({ id: "redis", content: "Redis cluster runs the job queue for workers." }),
          memoryRecord({ id: "cache", content: "Redis is used for caching sessions." }),
          memoryRecord({ id: "deploy", content: "Workers deploy to Fly.io in Frankfurt." }),
          memoryRecord({ id: "tests", content: "Unit tests are written with Vitest." }),
        ];
        await store.putMemories(records.map((r) => ({ record: r, vector: fakeVector(r.content) })));
        const counts = () => fake.calls.filter((c) => c === "POST /collections/{c}/points/count").length;
        const before = counts();
        const hits = await store.searchMemoriesByText("redis job queue workers frankfurt", { scope: "project:a" }, 10);
        assert.deepEqual(hits.map((h) => h.record.id), ["redis", "deploy", "cache"]);
        assert.equal(counts() - before, 2, "one count of the filter, one of the points holding any term (five terms used to be six counts)");
        const none = counts();
        assert.deepEqual(await store.searchMemoriesByText("kubernetes helm", { scope: "project:a" }, 10), []);
        assert.equal(counts() - none, 2);
      });
    });

    it("past the candidate cap each term is counted by Qdrant, to read the rarest term's points first", async () => {
      await withStore(async (store) => {
        const content = ["Redis runs the job queue.", "Redis caches sessions.", "The job queue retries jobs.", "Workers deploy to Frankfurt."];
        await store.putMemories(content.map((c, i) => ({ record: memoryRecord({ id: `m${i}`, content: c }), vector: fakeVector(c) })));
        const counts = () => fake.calls.filter((c) => c === "POST /collections/{c}/points/count").length;
        const before = counts();
        const hits = await store.searchMemoriesByText("redis frankfurt", {}, 10);
        assert.equal(hits[0]!.record.id, "m3", "the rarest term's point is read first and ranks first");
        assert.equal(counts() - before, 2 + 2, "the two counts, then one per term");
      }, { textCandidates: 2 });
    });

    it("a stored document that does not match the record schema is a STORE_ERROR naming the collection, the point's record and the field", async () => {
      await withStore(async (store, p) => {
        await store.putMemories([{ record: memoryRecord({ id: "m-bad", content: "Staging runs on Fly.io." }), vector: axis(FAKE_DIMENSION, 0) }]);
        const name = [...fake.collections.keys()].find((n) => n.startsWith(`${p}_memories_`))!;
        const point = [...fake.collections.get(name)!.points.values()][0]!;
        const doc = JSON.parse(String(point.payload.doc)) as Record<string, unknown>;
        point.payload.doc = JSON.stringify({ ...doc, confidence: "very" });
        const err = await rejection(store.getMemories(["m-bad"]));
        assert.ok(HindsightError.is(err, "STORE_ERROR"), String(err));
        assert.deepEqual(err.details, { table: name, id: "m-bad", field: "doc.confidence" });
        assert.match(err.message, /Qdrant collection/);
      });
    });

    it("an unreachable Qdrant is STORE_ERROR naming the address", async () => {
      const store = new QdrantStore({ url: "http://127.0.0.1:9", prefix: prefix(), timeoutMs: 2000 });
      const err = await rejection(store.open(MODEL));
      assert.ok(HindsightError.is(err, "STORE_ERROR"), String(err));
      assert.match((err as Error).message, /Qdrant at http:\/\/127\.0\.0\.1:9: .*(ECONNREFUSED|fetch failed)/);
    });

    it("refuses a malformed url or prefix with the field named", () => {
      assert.throws(() => new QdrantStore({ url: "qdrant:6333" }), (e: unknown) => HindsightError.is(e, "INVALID_INPUT") && e.field === "qdrantUrl");
      assert.throws(() => new QdrantStore({ url, prefix: "bad prefix" }), (e: unknown) => HindsightError.is(e, "INVALID_INPUT") && e.field === "qdrantPrefix");
    });
  });
});
