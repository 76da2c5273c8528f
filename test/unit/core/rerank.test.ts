import { strict as assert } from "node:assert";
import { MemoryEngine } from "../../../src/core/engine.js";
import { secondOpinion } from "../../../src/core/recall/recall.js";
import type { Reranker } from "../../../src/core/ports.js";
import { TransformersReranker, rerankerIsLocal } from "../../../src/models/transformersReranker.js";
import { InMemoryStore } from "../../../src/stores/memory/memoryStore.js";
import { FakeEmbedder, FixedClock, rejection, withTempDir } from "../../helpers/fakes.js";
import { HindsightError } from "../../../src/core/errors.js";
import { EmbeddingReranker } from "../../../src/models/embeddingReranker.js";

async function engineWith(reranker: Reranker, config = {}): Promise<MemoryEngine> {
  const engine = new MemoryEngine({ store: new InMemoryStore(), embedder: new FakeEmbedder(), clock: new FixedClock(), reranker }, { defaultScope: "project:test", ...config });
  await engine.open();
  await engine.write({ content: "The deploy pipeline runs on GitHub Actions.", type: "fact" });
  await engine.write({ content: "The deploy pipeline pushes images to the registry.", type: "fact" });
  return engine;
}

/** Prefers documents that mention the registry, whatever the fused evidence says. */
const registryLover: Reranker = {
  id: "fake-cross-encoder",
  kind: "cross-encoder",
  score: async (_q, docs) => docs.map((d) => (d.includes("registry") ? 0.95 : 0.1)),
};

describe("recall with a cross-encoder", () => {
  it("the cross-encoder's score becomes the relevance and the result says so", async () => {
    const engine = await engineWith(registryLover);
    const r = await engine.recall({ query: "deploy pipeline" });
    assert.match(r.memories[0]?.content ?? "", /registry/);
    assert.equal(r.memories[0]?.relevanceSource, "cross-encoder");
    assert.equal(r.memories[0]?.factors.relevance, 0.95);
  });

  it("over its time budget the fused relevance stands", async () => {
    const slow: Reranker = { id: "slow", kind: "cross-encoder", score: (_q, docs) => new Promise((res) => setTimeout(() => res(docs.map(() => 1)), 200)) };
    const engine = await engineWith(slow, { recall: { rerankBudgetMs: 20 } });
    const r = await engine.recall({ query: "deploy pipeline" });
    assert.ok(r.memories.length > 0);
    assert.ok(r.memories.every((m) => m.relevanceSource === "fused"));
  });

  it("a failing cross-encoder does not fail recall", async () => {
    const broken: Reranker = { id: "broken", kind: "cross-encoder", score: () => Promise.reject(new Error("onnx exploded")) };
    const engine = await engineWith(broken);
    const r = await engine.recall({ query: "deploy pipeline" });
    assert.ok(r.memories.length > 0);
    assert.equal(r.memories[0]?.relevanceSource, "fused");
  });

  it("an irrelevant query still recalls nothing: the floor is applied before reranking", async () => {
    let calls = 0;
    const eager: Reranker = { id: "eager", kind: "cross-encoder", score: async (_q, docs) => (calls++, docs.map(() => 1)) };
    const engine = await engineWith(eager);
    assert.deepEqual((await engine.recall({ query: "favourite pizza topping" })).memories, []);
    assert.equal(calls, 0);
  });

  it("the transformers.js cross-encoder is absent here and says what to do", async () => {
    await withTempDir(async (dir) => {
      assert.equal(rerankerIsLocal(dir), false);
      const err = await rejection(new TransformersReranker({ modelDir: dir, allowDownload: false }).score("q", ["d"]));
      assert.ok(HindsightError.is(err, "MODEL_UNAVAILABLE"));
      assert.match((err as Error).message, /HINDSIGHT_ALLOW_DOWNLOAD/);
    });
  });
});

describe("recall with a second embedding model", () => {
  /** Likes the registry, reads nothing about GitHub. */
  const second: Reranker = {
    id: "fake-bi-encoder",
    kind: "bi-encoder",
    score: async (_q, docs) => docs.map((d) => (d.includes("registry") ? 1 : d.includes("GitHub") ? null : 0)),
  };

  it("reorders the candidates it read among themselves and leaves their mean relevance, and the unread ones, alone", () => {
    const out = secondOpinion([0.8, 0.6, 0.7], [0, 1, null], 0.4);
    assert.ok(Math.abs((out[0] as number) - (0.6 * 0.8 + 0.4 * (0 - 0.5 + 0.7))) < 1e-9);
    assert.ok(Math.abs((out[1] as number) - (0.6 * 0.6 + 0.4 * (1 - 0.5 + 0.7))) < 1e-9);
    assert.ok((out[1] as number) > (out[0] as number), "its preference decides between two close candidates");
    assert.ok(Math.abs((out[0] as number) + (out[1] as number) - 1.4) < 1e-9, "no net lift over the unread one");
    assert.equal(out[2], null);
    assert.deepEqual(secondOpinion([0.5], [null], 0.4), [null]);
  });

  it("is asked only with a weight, and the result says which memories it scored", async () => {
    const plain = await (await engineWith(second, { recall: { secondOpinionWeight: 0 } })).recall({ query: "deploy pipeline" });
    assert.ok(plain.memories.every((m) => m.relevanceSource === "fused"));
    const engine = await engineWith(second, { recall: { secondOpinionWeight: 0.4 } });
    await engine.write({ content: "The deploy pipeline tags every release in git.", type: "fact" });
    const r = await engine.recall({ query: "deploy pipeline" });
    assert.match(r.memories[0]?.content ?? "", /registry/, r.text);
    assert.equal(r.memories.find((m) => /GitHub/.test(m.content))?.relevanceSource, "fused");
    assert.equal(r.memories.find((m) => /registry/.test(m.content))?.relevanceSource, "bi-encoder");
  });
});

/** Counts the texts it embeds, by kind. */
class CountingEmbedder extends FakeEmbedder {
  readonly embedded: Array<{ text: string; kind: string }> = [];

  override async embed(texts: string[], kind: string = "passage"): Promise<Float32Array[]> {
    for (const text of texts) this.embedded.push({ text, kind });
    return super.embed(texts);
  }
}

describe("the second opinion reads memories ahead of recall", () => {
  it("a passage read ahead is not embedded again when recall asks about it: only the query is", async () => {
    const embedder = new CountingEmbedder("Xenova/all-MiniLM-L6-v2");
    const reranker = new EmbeddingReranker("Xenova/all-MiniLM-L6-v2", embedder);
    const docs = ["Quarterly reports are due on the fifth working day.", "The VPN config lives in the infra repo.", "Standups moved to 9:45."];
    await reranker.readAhead(docs);
    assert.deepEqual(embedder.embedded.map((e) => e.kind), ["passage", "passage", "passage"]);
    embedder.embedded.length = 0;
    const scores = await reranker.score("where is the VPN config?", docs);
    assert.deepEqual(embedder.embedded, [{ text: "where is the VPN config?", kind: "query" }]);
    assert.equal(scores.length, 3);
    assert.equal(Math.max(...(scores as number[])), scores[1]);
    // What it already read, or cannot read (Chinese for an English model), is not queued again.
    embedder.embedded.length = 0;
    await reranker.readAhead([...docs, "周报每周五下午五点前交"]);
    assert.deepEqual(embedder.embedded, []);
  });

  it("a query prepared when recall begins is embedded once, before score() asks for it; an unprepared one is embedded by score()", async () => {
    const embedder = new CountingEmbedder("Xenova/all-MiniLM-L6-v2");
    const reranker = new EmbeddingReranker("Xenova/all-MiniLM-L6-v2", embedder);
    const docs = ["Payroll runs on the 25th.", "Expense reports go through Ramp."];
    await reranker.readAhead(docs);
    embedder.embedded.length = 0;
    reranker.prepare("when does payroll run?");
    assert.deepEqual(embedder.embedded, [{ text: "when does payroll run?", kind: "query" }], "started at once");
    const prepared = await reranker.score("when does payroll run?", docs);
    assert.equal(embedder.embedded.length, 1, "not embedded again");
    const unprepared = await reranker.score("when does payroll run?", docs);
    assert.equal(embedder.embedded.length, 2, "a query is used once: the next recall embeds it again");
    assert.deepEqual(prepared, unprepared);
  });

  it("the engine has it read each write's new memories, and the whole store when an owner asks", async () => {
    const read: string[] = [];
    const reader: Reranker = { id: "reader", kind: "bi-encoder", score: async (_q, docs) => docs.map(() => null), readAhead: async (docs) => void read.push(...docs) };
    const store = new InMemoryStore();
    const engine = new MemoryEngine({ store, embedder: new FakeEmbedder(), clock: new FixedClock(), reranker: reader }, { defaultScope: "project:test" });
    await engine.open();
    await engine.write({ content: "Invoices are archived after seven years.", type: "fact" });
    await engine.write({ content: "The office closes at 18:00 on Fridays.", type: "fact" });
    // The write's caller does not wait for it.
    for (let i = 0; i < 20 && !read.includes("The office closes at 18:00 on Fridays."); i++) await new Promise((r) => setTimeout(r, 5));
    assert.ok(read.includes("Invoices are archived after seven years."), JSON.stringify(read));
    assert.ok(read.includes("The office closes at 18:00 on Fridays."), JSON.stringify(read));
    read.length = 0;
    await engine.write({ content: "Backups run at 02:00.", type: "fact", scope: "project:other" });
    read.length = 0;
    await engine.readAhead();
    assert.deepEqual(new Set(read), new Set(["Invoices are archived after seven years.", "The office closes at 18:00 on Fridays.", "Backups run at 02:00."]));
  });
});
