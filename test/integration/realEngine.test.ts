import { strict as assert } from "node:assert";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { MemoryEngine } from "../../src/core/engine.js";
import { HindsightError } from "../../src/core/errors.js";
import type { EmbedKind, Embedder, ModelInfo } from "../../src/core/ports.js";
import { cosine } from "../../src/core/text/vector.js";
import { TransformersEmbedder } from "../../src/models/transformersEmbedder.js";
import { LanceStore } from "../../src/stores/lancedb/lanceStore.js";
import { DAY, FixedClock, rejection, withTempDir } from "../helpers/fakes.js";

/** out/test/integration -> the checkout's sibling folder shared/models. */
const MODEL_DIR = resolve(__dirname, "../../../..", "shared/models");
const MODEL_ID = "Xenova/multilingual-e5-small";

/** The same vectors under another model name: what a changed HINDSIGHT_MODEL looks like to the store. */
class RenamedEmbedder implements Embedder {
  constructor(
    private readonly inner: Embedder,
    private readonly id: string,
  ) {}
  async info(): Promise<ModelInfo> {
    return { ...(await this.inner.info()), id: this.id };
  }
  embed(texts: string[], kind?: EmbedKind): Promise<Float32Array[]> {
    return this.inner.embed(texts, kind);
  }
}

describe("integration: real embedder + LanceStore", function () {
  this.timeout(120_000);
  let embedder: TransformersEmbedder;
  let dir: string;

  before(async () => {
    assert.ok(existsSync(join(MODEL_DIR, MODEL_ID, "config.json")), `model folder not found at ${MODEL_DIR}`);
    embedder = new TransformersEmbedder({ modelDir: MODEL_DIR, allowDownload: false });
    await embedder.info(); // load once for the whole file
  });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "hindsight-real-"));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function openEngine(clock: FixedClock, e: Embedder = embedder): Promise<MemoryEngine> {
    const engine = new MemoryEngine({ store: new LanceStore({ dir }), embedder: e, clock }, { defaultScope: "project:webshop" });
    await engine.open();
    return engine;
  }

  describe("embedder", () => {
    it("reports the model id and 384 dimensions", async () => {
      assert.deepEqual(await embedder.info(), { id: MODEL_ID, dimension: 384 });
    });

    it("returns one unit-length 384-dim vector per text, in order", async () => {
      const texts = ["Unit tests are written with Jest.", "我们的主数据库是PostgreSQL。", "x"];
      const vs = await embedder.embed(texts);
      assert.equal(vs.length, 3);
      for (const v of vs) {
        assert.equal(v.length, 384);
        assert.ok(Math.abs(cosine(v, v) - 1) < 1e-3, `norm² ${cosine(v, v)}`);
      }
      const [alone] = await embedder.embed([texts[0]!]);
      const [again] = await embedder.embed([texts[0]!]);
      assert.ok(cosine(alone!, again!) > 0.9999, "embedding is deterministic");
      // int8 dynamic quantization depends a little on the batch, so batched and single vectors agree closely, not exactly
      assert.ok(cosine(alone!, vs[0]!) > 0.97, "the same text must embed about the same way alone and in a batch");
      assert.deepEqual(await embedder.embed([]), []);
    });

    it("similar sentences are closer than unrelated ones", async () => {
      const [a] = await embedder.embed(["Which framework are the unit tests written with?"], "query");
      const [b, c] = await embedder.embed(["Unit tests are written with Jest.", "The customer prefers window seats on long flights."]);
      const related = cosine(a!, b!);
      const unrelated = cosine(a!, c!);
      // E5's cosines are compressed (unrelated pairs sit near 0.75): the margin, not the level, is what recall uses.
      assert.ok(related > unrelated + 0.05, `related ${related.toFixed(3)} vs unrelated ${unrelated.toFixed(3)}`);
    });

    it("a text's vector does not depend on what it is embedded beside", async () => {
      const text = "The invoice exporter retries three times before paging.";
      const [alone] = await embedder.embed([text]);
      const [first] = await embedder.embed([text, "a much longer neighbour in the same call, about the canteen menu and the weather on the coast this weekend"]);
      const [, second] = await embedder.embed(["短句", text]);
      assert.deepEqual([...first!], [...alone!]);
      assert.deepEqual([...second!], [...alone!]);
      // Batched, the int8 model's per-tensor activation scale mixes the texts: the test above would fail.
      const batched = new TransformersEmbedder({ modelDir: MODEL_DIR, modelId: MODEL_ID, allowDownload: false, batchSize: 8 });
      const [mixed] = await batched.embed([text, "a much longer neighbour in the same call, about the canteen menu and the weather on the coast this weekend"]);
      assert.ok(cosine(mixed!, alone!) < 0.99999, "batching changes the vector: single-text inference is what makes it stable");
    });

    it("a model folder without the model fails with MODEL_UNAVAILABLE naming HINDSIGHT_MODEL_DIR", async () => {
      await withTempDir(async (empty) => {
        const missing = new TransformersEmbedder({ modelDir: empty, allowDownload: false });
        const err = await rejection(missing.info());
        assert.ok(HindsightError.is(err, "MODEL_UNAVAILABLE"), String(err));
        assert.match((err as Error).message, /HINDSIGHT_MODEL_DIR/);
        assert.ok((err as Error).message.includes(empty), (err as Error).message);
        assert.ok(HindsightError.is(await rejection(missing.embed(["text"])), "MODEL_UNAVAILABLE"));
      });
      // the shared model still loads afterwards
      assert.equal((await embedder.embed(["still works"]))[0]!.length, 384);
    });
  });

  describe("engine", () => {
    it("a task's last known state stays listed past its week in working memory, also in a store that stored the week as valid_until", async () => {
      const clock = new FixedClock(Date.parse("2026-03-02T08:00:00Z"));
      const engine = await openEngine(clock);
      let earlier = "";
      try {
        const now = await engine.write({ content: "Tile order for the showroom: 40 of 120 boxes delivered.", type: "task_state" });
        const old = await engine.write({ content: "Website copy rewrite: about page and pricing page drafted.", type: "task_state" });
        assert.equal(now.memory?.validUntil, null);
        earlier = old.id ?? "";
      } finally {
        await engine.close();
      }
      // What an earlier version stored: the week as a bound, rewritten on the real table.
      const store = new LanceStore({ dir });
      await store.open(await embedder.info());
      const [record] = await store.getMemories([earlier]);
      assert.ok(record);
      await store.updateMemories([{ ...record, validUntil: record.createdAt + 7 * DAY }]);
      await store.close();
      clock.set(Date.parse("2026-04-20T08:00:00Z"));
      const reopened = await openEngine(clock);
      try {
        const listed = await reopened.list({ types: ["task_state"] });
        assert.equal(listed.length, 2, JSON.stringify(listed.map((m) => m.content)));
        assert.ok(listed.every((m) => m.validUntil === null));
        const r = await reopened.recall({ query: "How far along is the tile delivery?", k: 3 });
        assert.match(r.memories[0]?.content ?? "", /40 of 120/);
      } finally {
        await reopened.close();
      }
    });

    it("write/recall round trip: a newer statement on the same subject replaces the older one", async () => {
      const clock = new FixedClock(Date.parse("2026-01-12T09:30:00Z"));
      const engine = await openEngine(clock);
      try {
        const jest = await engine.write({ content: "Unit tests are written with Jest.", type: "fact", subject: "unit test framework", confidence: 0.9 });
        clock.set(Date.parse("2026-01-20T10:00:00Z"));
        const before = await engine.recall({ query: "Which framework are the unit tests written with?", k: 3 });
        assert.equal(before.memories[0]?.id, jest.id);

        clock.set(Date.parse("2026-02-16T14:05:00Z"));
        const vitest = await engine.write({ content: "Unit tests were migrated to Vitest.", type: "fact", subject: "unit test framework", confidence: 0.9 });
        assert.equal(vitest.action, "superseded");
        clock.set(Date.parse("2026-02-18T09:00:00Z"));
        const after = await engine.recall({ query: "Which test framework do we use for unit tests?", k: 3 });
        assert.match(after.memories[0]?.content ?? "", /Vitest/);
        assert.ok(!after.memories.some((m) => /Jest/.test(m.content)), after.text);
        assert.equal((await engine.get(jest.id!)).status, "superseded");

        const unrelated = await engine.recall({ query: "What is the customer's favourite pizza topping?" });
        assert.deepEqual(unrelated.memories, []);
      } finally {
        await engine.close();
      }
    });

    it("replaces: an id taken from recall's text block is superseded by the new memory; bad ids write nothing", async () => {
      const clock = new FixedClock(Date.parse("2026-03-02T09:00:00Z"));
      let engine = await openEngine(clock);
      try {
        const owner = await engine.write({ content: "Priya owns the on-call rotation for the payments service.", type: "fact" });
        const elsewhere = await engine.write({ content: "Priya owns the on-call rotation for the search service.", type: "fact", scope: "project:search" });
        const stale = await engine.write({ content: "The payments service deploys from the release branch.", type: "fact" });
        await engine.write({ content: "The payments service deploys from main behind a feature flag.", type: "fact", replaces: [stale.id!] });
        clock.advance(DAY);

        const seen = await engine.recall({ query: "Who owns the on-call rotation for payments?", k: 3 });
        const line = seen.text.split("\n").find((l) => l.includes("on-call rotation"));
        const shown = /^- \[id (\S+)\] \(fact, confidence 0\.80\) /.exec(line ?? "")?.[1];
        assert.equal(shown, owner.id, seen.text);

        const content = "Marco took over the payments on-call rotation from Priya.";
        const count = await engine.count();
        for (const [ids, message] of [
          [["0000-not-an-id"], /replaces: no memory with id 0000-not-an-id in scope project:webshop/],
          [[elsewhere.id!], new RegExp(`replaces: no memory with id ${elsewhere.id} in scope project:webshop`)],
          [[shown!, stale.id!], new RegExp(`replaces: memory ${stale.id} is superseded, not active`)],
        ] as const) {
          const err = await rejection(engine.write({ content, replaces: [...ids] }));
          assert.ok(HindsightError.is(err, "INVALID_INPUT") && err.field === "replaces", String(err));
          assert.match(err.message, message);
        }
        assert.equal(await engine.count(), count, "a refused write stored nothing");
        assert.equal((await engine.get(owner.id!)).status, "active");
        assert.equal((await engine.get(elsewhere.id!)).status, "active");

        const w = await engine.write({ content, type: "fact", replaces: [shown!] });
        assert.equal(w.action, "superseded");
        assert.equal(w.decidedBy, "caller");
        assert.deepEqual(w.supersedes, [owner.id]);

        clock.advance(DAY);
        const after = await engine.recall({ query: "Who owns the on-call rotation for payments?", k: 3 });
        assert.match(after.memories[0]?.content ?? "", /Marco/, after.text);
        assert.ok(!after.memories.some((m) => m.id === owner.id), after.text);
        assert.ok(!after.text.includes(`[id ${owner.id}]`), after.text);
      } finally {
        await engine.close();
      }
      engine = await openEngine(clock);
      try {
        const superseded = await engine.list({ statuses: ["superseded"] });
        const old = superseded.find((m) => m.content.startsWith("Priya owns"));
        assert.ok(old, "list shows the replaced memory as superseded after a reopen");
        assert.equal(old.statusReason, "replaced by the caller");
        assert.match((await engine.get(old.supersededBy!)).content, /Marco/);
        assert.ok((await engine.list()).every((m) => m.id !== old.id));
      } finally {
        await engine.close();
      }
    });

    it("restating a fact is a duplicate, not a second memory", async () => {
      const clock = new FixedClock();
      const engine = await openEngine(clock);
      try {
        const a = await engine.write({ content: "The web app is deployed to Fly.io." });
        clock.advance(DAY);
        const b = await engine.write({ content: "The web app is deployed to Fly.io." });
        assert.equal(b.action, "duplicate");
        assert.equal(b.id, a.id);
        assert.equal(await engine.count(), 1);
        assert.equal((await engine.get(a.id!)).confirmCount, 2);
      } finally {
        await engine.close();
      }
    });

    it("ingests a Chinese turn and recalls it with a Chinese query, also after reopening from disk", async () => {
      const clock = new FixedClock();
      let engine = await openEngine(clock);
      let memoryId: string;
      try {
        const ing = await engine.ingest({ user: "你好！我们的主数据库是PostgreSQL 16。" });
        assert.equal(ing.results.length, 1);
        memoryId = ing.results[0]!.id!;
        assert.equal(ing.results[0]!.memory!.content, "我们的主数据库是PostgreSQL 16。");
        await engine.write({ content: "The customer prefers window seats on long flights.", type: "preference" });
        const r = await engine.recall({ query: "主数据库用的是什么？" });
        assert.equal(r.memories[0]?.id, memoryId);
        assert.equal(r.usedFallback, false);
      } finally {
        await engine.close();
      }

      clock.advance(7 * DAY);
      engine = await openEngine(clock);
      try {
        assert.equal(await engine.count(), 2);
        const zh = await engine.recall({ query: "主数据库用的是什么？" });
        assert.equal(zh.memories[0]?.id, memoryId);
        const en = await engine.recall({ query: "Which seat does the customer like on flights?" });
        assert.match(en.memories[0]?.content ?? "", /window seats/);
        assert.ok((await engine.auditLog()).length >= 2, "the audit log survives a reopen");
      } finally {
        await engine.close();
      }
    });

    it("refuses a store written with another model, and reembedStore fixes it", async () => {
      const clock = new FixedClock();
      const engine = await openEngine(clock);
      await engine.write({ content: "Unit tests were migrated to Vitest." });
      await engine.ingest({ user: "We deploy the web app to Fly.io." });
      await engine.close();

      const renamed = new RenamedEmbedder(embedder, "example/other-model");
      const store = new LanceStore({ dir });
      const refused = new MemoryEngine({ store, embedder: renamed, clock }, { defaultScope: "project:webshop" });
      const err = await rejection(refused.open());
      assert.ok(HindsightError.is(err, "EMBEDDING_MODEL_MISMATCH"), String(err));
      assert.match((err as Error).message, /hindsight reembed/);
      assert.ok((err as Error).message.includes(MODEL_ID));
      assert.ok((err as Error).message.includes("example/other-model"));

      clock.advance(60_000);
      const counts = await MemoryEngine.reembedStore(store, renamed, clock);
      assert.deepEqual(counts, { memories: 2, turns: 1 });
      await store.close();

      const fixed = await openEngine(clock, renamed);
      try {
        assert.equal(fixed.model.id, "example/other-model");
        const r = await fixed.recall({ query: "Which test framework do the unit tests use?" });
        assert.match(r.memories[0]?.content ?? "", /Vitest/);
        const listed = await fixed.list();
        assert.ok(listed.every((m) => m.embeddingModel === "example/other-model"), JSON.stringify(listed.map((m) => m.embeddingModel)));
        const [entry] = await fixed.auditLog();
        assert.equal(entry?.operation, "reembed");
      } finally {
        await fixed.close();
      }
      // and now the original model is the one refused
      const back = new MemoryEngine({ store: new LanceStore({ dir }), embedder, clock });
      assert.ok(HindsightError.is(await rejection(back.open()), "EMBEDDING_MODEL_MISMATCH"));
    });
  });
});
