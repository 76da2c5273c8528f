import { strict as assert } from "node:assert";
import * as lancedb from "@lancedb/lancedb";
import { HindsightError } from "../../../src/core/errors.js";
import type { ModelInfo } from "../../../src/core/ports.js";
import { LanceStore } from "../../../src/stores/lancedb/lanceStore.js";
import { auditToRow, docOf, memoryToRow, metaValueOf, scoreOf, turnToRow, vectorOf, type Row } from "../../../src/stores/lancedb/rows.js";
import { FAKE_DIMENSION, withTempDir } from "../../helpers/fakes.js";
import { auditEntry, axis, memoryRecord, turnRecord } from "../../helpers/records.js";

/** The assertion for every unreadable row: a STORE_ERROR that names where, never a TypeError from deep inside. */
function storeErrorAbout(table: string, id: string, field: string): (err: unknown) => boolean {
  return (err: unknown) => {
    assert.ok(HindsightError.is(err, "STORE_ERROR"), `expected STORE_ERROR, got ${String(err)}`);
    assert.deepEqual(err.details, { table, id, field });
    assert.ok(err.message.includes(`"${table}"`) && err.message.includes(id) && err.message.includes(field), err.message);
    return true;
  };
}

const withDoc = (doc: Record<string, unknown>): Row => ({ id: String(doc.id), doc: JSON.stringify(doc) });

describe("LanceDB rows are parsed, not trusted (stores/lancedb/rows.ts)", () => {
  describe("documents", () => {
    it("a row written by the store reads back as the same record, for every table", () => {
      const memory = memoryRecord({ id: "m1", tags: ["x"], validUntil: 5 });
      const turn = turnRecord({ id: "t1", speaker: "Ana", memoryIds: ["m1"] });
      const entry = auditEntry({ id: "a1", scope: null });
      assert.deepEqual(docOf(memoryToRow(memory, axis(4, 0)), "memories"), memory);
      assert.deepEqual(docOf(turnToRow(turn, axis(4, 1)), "turns"), turn);
      assert.deepEqual(docOf(auditToRow(entry), "audit"), entry);
      const proposal = {
        id: "p1",
        scope: "project:a",
        subject: "deploys",
        type: "fact",
        sourceIds: ["m1", "m2"],
        summary: "Deploys happen on Tuesdays.",
        summarizer: "extractive",
        status: "pending",
        reason: "11 memories over 9 days",
        createdAt: 1,
        decidedAt: null,
        summaryId: null,
      };
      assert.deepEqual(docOf(withDoc(proposal), "proposals"), proposal);
    });

    it("reads a scope the engine was configured with even when it is not project:/user:/team: (no stricter than the engine writes)", () => {
      const memory = memoryRecord({ id: "m-personal", scope: "personal" });
      const turn = turnRecord({ id: "t-personal", scope: "personal" });
      assert.deepEqual(docOf(memoryToRow(memory, axis(4, 0)), "memories"), memory);
      assert.deepEqual(docOf(turnToRow(turn, axis(4, 1)), "turns"), turn);
      assert.throws(() => docOf(withDoc({ ...memory, scope: "" }), "memories"), storeErrorAbout("memories", "m-personal", "doc.scope"));
    });

    it("keeps fields this version does not know, and fills a field older records lack with its default", () => {
      const { context: _omitted, ...older } = memoryRecord({ id: "m-old" });
      const read = docOf(withDoc({ ...older, fromANewerVersion: 7 }), "memories");
      assert.equal(read.context, null);
      assert.equal((read as unknown as Record<string, unknown>).fromANewerVersion, 7);
    });

    it("a field of the wrong type is a STORE_ERROR naming the table, the row id and the field", () => {
      const row = withDoc({ ...memoryRecord({ id: "m-bad" }), confidence: "high" });
      assert.throws(() => docOf(row, "memories"), storeErrorAbout("memories", "m-bad", "doc.confidence"));
    });

    it("names a nested field and the physical table a rewrite created", () => {
      const row = withDoc({ ...turnRecord({ id: "t-bad" }), memoryIds: ["m1", 2] });
      assert.throws(() => docOf(row, "turns", "turns_0123456789ab"), storeErrorAbout("turns_0123456789ab", "t-bad", "doc.memoryIds.1"));
    });

    it("a missing field and an unknown status are refused the same way", () => {
      const { detail: _omitted, ...noDetail } = auditEntry({ id: "a-bad" });
      assert.throws(() => docOf(withDoc(noDetail), "audit"), storeErrorAbout("audit", "a-bad", "doc.detail"));
      assert.throws(() => docOf(withDoc({ ...turnRecord({ id: "t-odd" }), status: "shredded" }), "turns"), storeErrorAbout("turns", "t-odd", "doc.status"));
    });

    it("a doc that is not JSON, or not there, is a STORE_ERROR about the doc column", () => {
      assert.throws(() => docOf({ id: "m-cut", doc: '{"id":"m-cut","content":"trunc' }, "memories"), storeErrorAbout("memories", "m-cut", "doc"));
      assert.throws(() => docOf({ id: "m-none" }, "memories"), storeErrorAbout("memories", "m-none", "doc"));
      assert.throws(() => docOf({ id: "m-num", doc: 42 }, "memories"), storeErrorAbout("memories", "m-num", "doc"));
      assert.throws(() => docOf({ id: "m-null", doc: "null" }, "memories"), storeErrorAbout("memories", "m-null", "doc"));
    });

    it("takes the row id from the document when the id column was not selected", () => {
      const doc = { ...memoryRecord({ id: "m-doc-id" }), pinned: "yes" };
      assert.throws(() => docOf({ doc: JSON.stringify(doc) }, "memories"), storeErrorAbout("memories", "m-doc-id", "doc.pinned"));
      assert.throws(() => docOf({ doc: "[]" }, "memories"), storeErrorAbout("memories", "(unknown id)", "doc"));
    });
  });

  describe("vectors and scores", () => {
    it("reads a plain list, a Float32Array and an Arrow vector (toArray)", () => {
      const expected = Float32Array.from([0.6, 0.8]);
      assert.deepEqual(vectorOf({ id: "v", vector: [0.6, 0.8] }, "memories"), expected);
      assert.deepEqual(vectorOf({ id: "v", vector: Float32Array.from([0.6, 0.8]) }, "memories"), expected);
      assert.deepEqual(vectorOf({ id: "v", vector: { toArray: () => Float32Array.from([0.6, 0.8]) } }, "memories"), expected);
    });

    it("a missing, empty or non-numeric vector is a STORE_ERROR about the vector column", () => {
      assert.throws(() => vectorOf({ id: "v1" }, "memories"), storeErrorAbout("memories", "v1", "vector"));
      assert.throws(() => vectorOf({ id: "v2", vector: "0.6,0.8" }, "turns"), storeErrorAbout("turns", "v2", "vector"));
      assert.throws(() => vectorOf({ id: "v3", vector: [] }, "memories"), storeErrorAbout("memories", "v3", "vector"));
      assert.throws(() => vectorOf({ id: "v4", vector: { toArray: () => ["a", "b"] } }, "memories"), storeErrorAbout("memories", "v4", "vector"));
    });

    it("a score column that is not a number is a STORE_ERROR naming it", () => {
      assert.equal(scoreOf({ id: "s", _distance: 0.25 }, "_distance", "memories"), 0.25);
      assert.throws(() => scoreOf({ id: "s1" }, "_distance", "memories"), storeErrorAbout("memories", "s1", "_distance"));
      assert.throws(() => scoreOf({ id: "s2", _score: "3.1" }, "_score", "turns"), storeErrorAbout("turns", "s2", "_score"));
    });
  });

  describe("meta values", () => {
    it("reads the model, the table generation and the recall statistics", () => {
      assert.deepEqual(metaValueOf("model", '{"id":"m","dimension":384}'), { id: "m", dimension: 384 });
      assert.deepEqual(metaValueOf("tables", '{"memories":"memories_a","turns":"turns_a"}'), { memories: "memories_a", turns: "turns_a" });
      const stats = { since: 1, count: 2, hits: 1, sumMs: 30, recent: [10, 20], hours: [{ at: 0, count: 2, hits: 1, p50Ms: 10, p95Ms: 20 }] };
      assert.deepEqual(metaValueOf("recall_stats", JSON.stringify(stats)), stats);
    });

    it("a damaged value is a STORE_ERROR naming the meta key and the field", () => {
      assert.throws(() => metaValueOf("model", '{"id":"m","dimension":"384"}'), storeErrorAbout("meta", "model", "value.dimension"));
      assert.throws(() => metaValueOf("tables", "{"), storeErrorAbout("meta", "tables", "value"));
      assert.throws(() => metaValueOf("recall_stats", '{"since":1,"count":2,"hits":1,"sumMs":3,"recent":[],"hours":[{"at":0}]}'), storeErrorAbout("meta", "recall_stats", "value.hours.0.count"));
    });
  });

  describe("through the store", function () {
    this.timeout(60_000);
    const MODEL: ModelInfo = { id: "fake-embedder", dimension: FAKE_DIMENSION };

    it("a damaged row fails list, get and search with STORE_ERROR; the good rows are not dropped silently", async () => {
      await withTempDir(async (dir) => {
        const writer = new LanceStore({ dir });
        await writer.open(MODEL);
        await writer.putMemories([{ record: memoryRecord({ id: "good", content: "the deploy window is Tuesday" }), vector: axis(FAKE_DIMENSION, 0) }]);
        await writer.close();
        // Written behind the store's back, as another tool or a damaged file would leave it.
        const db = await lancedb.connect(dir);
        const table = await db.openTable("memories");
        await table.add([{ ...memoryToRow(memoryRecord({ id: "bad", content: "the deploy window is Friday" }), axis(FAKE_DIMENSION, 1)), doc: '{"id":"bad","confidence":"high"}' }]);
        table.close();
        db.close();

        const store = new LanceStore({ dir });
        await store.open(MODEL);
        try {
          const about = storeErrorAbout("memories", "bad", "doc.scope");
          await assert.rejects(store.listMemories({ scope: "project:a" }), about);
          await assert.rejects(store.getMemories(["good", "bad"]), about);
          await assert.rejects(store.searchMemoriesByVector(axis(FAKE_DIMENSION, 1), { scope: "project:a" }, 5), about);
          assert.deepEqual((await store.getMemories(["good"])).map((m) => m.id), ["good"]);
        } finally {
          await store.close();
        }
      });
    });
  });
});
