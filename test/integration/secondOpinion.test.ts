import { strict as assert } from "node:assert";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { MemoryEngine } from "../../src/core/engine.js";
import { MINILM_L6, MULTILINGUAL_E5_SMALL } from "../../src/core/model/profiles.js";
import { EmbeddingReranker } from "../../src/models/embeddingReranker.js";
import { localReranker } from "../../src/models/rerankers.js";
import { TransformersEmbedder } from "../../src/models/transformersEmbedder.js";
import { LanceStore } from "../../src/stores/lancedb/lanceStore.js";
import { FixedClock } from "../helpers/fakes.js";

/** out/test/integration -> the checkout's sibling folder shared/models. */
const MODEL_DIR = resolve(__dirname, "../../../..", "shared/models");

/**
 * The small English model as a second opinion on the multilingual model's best candidates, on the
 * real models and the real store: it knows that "written in Ruby" answers "which programming
 * language", which E5-small's compressed cosines do not separate from "exposes a REST API" (0.842 vs
 * 0.843 with the q8 weights in ../shared/models; MiniLM 0.534 vs 0.372).
 */
describe("integration: the second embedding model as a second opinion in recall", function () {
  this.timeout(180_000);
  const question = "Which programming language is the storefront written in?";
  const facts = ["The storefront exposes a REST API under /v2.", "The storefront is written in Ruby.", "The storefront stores product photos in a GCS bucket."];

  it("is what the product composes when MiniLM is in the model folder and E5 is the main model, and not otherwise", () => {
    const base = { modelDir: MODEL_DIR, cacheDir: tmpdir(), allowDownload: false };
    const chosen = localReranker({ ...base, embeddingModel: MULTILINGUAL_E5_SMALL });
    assert.ok(chosen instanceof EmbeddingReranker);
    assert.equal(chosen.kind, "bi-encoder");
    assert.equal(localReranker({ ...base, embeddingModel: MINILM_L6 }), null, "a model is no second opinion on itself");
    assert.equal(localReranker({ ...base, embeddingModel: MULTILINGUAL_E5_SMALL, setting: "off" }), null);
    assert.equal(localReranker({ ...base, modelDir: tmpdir(), embeddingModel: MULTILINGUAL_E5_SMALL }), null, "nothing is downloaded behind the user's back");
  });

  it("scores the pair it can read and leaves Chinese to the main model", async () => {
    const second = new EmbeddingReranker(MINILM_L6, new TransformersEmbedder({ modelId: MINILM_L6, modelDir: MODEL_DIR, allowDownload: false }));
    const [rest, ruby, photos, zh] = await second.score(question, [...facts, "店铺前端是用 Ruby 写的。"]);
    assert.ok(typeof ruby === "number" && typeof rest === "number" && typeof photos === "number");
    // Read relative to the best candidate: the answer scores 1, the others less, the farthest least (0 past SPREAD).
    assert.equal(ruby, 1);
    assert.ok(ruby > rest && rest >= photos && ruby > photos, `${ruby} ${rest} ${photos}`);
    assert.equal(zh, null);
    assert.deepEqual(await second.score("店铺用什么语言写的？", facts), [null, null, null]);
  });

  it("moves the memory that answers the question up in a real recall, and says where its relevance came from", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hindsight-second-"));
    const embedder = new TransformersEmbedder({ modelDir: MODEL_DIR, allowDownload: false });
    const reranker = localReranker({ embeddingModel: MULTILINGUAL_E5_SMALL, modelDir: MODEL_DIR, cacheDir: tmpdir(), allowDownload: false });
    const store = new LanceStore({ dir });
    const gap = async (secondOpinionWeight: number) => {
      const engine = new MemoryEngine({ store, embedder, reranker, clock: new FixedClock() }, { defaultScope: "project:shop", recall: { secondOpinionWeight } });
      await engine.open();
      const r = await engine.recall({ query: question, k: 3 });
      await engine.close();
      const rel = (re: RegExp) => r.memories.find((m) => re.test(m.content))?.factors.relevance ?? NaN;
      return { r, rubyAhead: rel(/Ruby/) - rel(/REST/) };
    };
    try {
      const writer = new MemoryEngine({ store, embedder, clock: new FixedClock() }, { defaultScope: "project:shop" });
      await writer.open();
      for (const content of facts) await writer.write({ content, type: "fact" });
      await writer.close();
      const none = await gap(0);
      const byDefault = await gap(0.2);
      const strong = await gap(0.4);
      assert.ok(none.r.memories.every((m) => m.relevanceSource === "fused"));
      assert.ok(byDefault.rubyAhead > none.rubyAhead, `${byDefault.rubyAhead} vs ${none.rubyAhead}`);
      assert.equal(byDefault.r.memories.find((m) => /Ruby/.test(m.content))?.relevanceSource, "bi-encoder");
      assert.match(strong.r.memories[0]?.content ?? "", /Ruby/, strong.r.text);
      const engine = new MemoryEngine({ store, embedder, reranker, clock: new FixedClock() }, { defaultScope: "project:shop" });
      await engine.open();
      const zh = await engine.recall({ query: "店铺的商品图片存在哪里？", k: 3 });
      await engine.close();
      assert.ok(zh.memories.some((m) => /GCS/.test(m.content)), zh.text);
      assert.ok(zh.memories.every((m) => m.relevanceSource === "fused"), "an English model has no opinion on a Chinese question");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
