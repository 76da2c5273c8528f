import { strict as assert } from "node:assert";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { MemoryEngine } from "../../src/core/engine.js";
import { TransformersEmbedder } from "../../src/models/transformersEmbedder.js";
import { LanceStore } from "../../src/stores/lancedb/lanceStore.js";
import { FixedClock } from "../helpers/fakes.js";

/** out/test/integration -> the checkout's sibling folder shared/models. */
const MODEL_DIR = resolve(__dirname, "../../../..", "shared/models");

/**
 * A question that asks two things at once, on the real multilingual model and the real store: one
 * embedding of the whole question sits near the part its words favour, and the other part's answer
 * does not pass the floor; asked part by part, both answers come back. Sentences in no case file.
 */
describe("integration: a question that asks two things at once", function () {
  this.timeout(180_000);
  const facts = [
    "Our pipelines are orchestrated by Prefect.",
    "Data quality checks run with Soda Core on the raw tables.",
    "We moved the warehouse from Redshift to Snowflake.",
    "The BI dashboards are built in Metabase.",
    "Raw tables land in S3 under /landing every hour.",
    "Data contracts are reviewed by the analytics guild.",
  ];
  const question = "What do we use for orchestration and for data quality checks?";

  it("answers both parts when split, each part's best answer among the first two", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hindsight-parts-"));
    const embedder = new TransformersEmbedder({ modelDir: MODEL_DIR, allowDownload: false });
    const store = new LanceStore({ dir });
    try {
      const writer = new MemoryEngine({ store, embedder, clock: new FixedClock() }, { defaultScope: "project:data" });
      await writer.open();
      for (const content of facts) await writer.write({ content, type: "fact" });
      await writer.close();
      const ask = async (splitQuestions: boolean) => {
        const engine = new MemoryEngine({ store, embedder, clock: new FixedClock() }, { defaultScope: "project:data", recall: { splitQuestions } });
        await engine.open();
        const r = await engine.recall({ query: question, k: 3 });
        await engine.close();
        return r;
      };
      const split = await ask(true);
      const firstTwo = split.memories.slice(0, 2).map((m) => m.content).join(" | ");
      assert.match(firstTwo, /Prefect/, split.text);
      assert.match(firstTwo, /Soda Core/, split.text);
      const whole = await ask(false);
      assert.match(whole.memories[0]?.content ?? "", /Soda Core/, whole.text);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
