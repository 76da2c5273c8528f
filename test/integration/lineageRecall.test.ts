import { strict as assert } from "node:assert";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { MemoryEngine } from "../../src/core/engine.js";
import { TransformersEmbedder } from "../../src/models/transformersEmbedder.js";
import { LanceStore } from "../../src/stores/lancedb/lanceStore.js";
import { DAY, FixedClock } from "../helpers/fakes.js";

/** out/test/integration -> the checkout's sibling folder shared/models. */
const MODEL_DIR = resolve(__dirname, "../../../..", "shared/models");

/**
 * On the real model and store: a change that names the value it replaces ("A → B") supersedes the
 * memory holding A by the rules; a later question worded like the old memory finds the old one,
 * and recall leads it to the memory that holds the slot now — never to the replaced one.
 */
describe("integration: a question that finds a replaced memory is led to what replaced it", function () {
  this.timeout(180_000);
  const cases = [
    {
      scope: "project:team",
      before: "The team's standup happens in the Juniper meeting room.",
      after: "Standup: Juniper → Birch from next week.",
      neighbours: ["The team's standup starts at 9:30.", "The team's standup is skipped on Fridays."],
      question: "Which meeting room is the team's standup in?",
      answer: /Birch/,
      stale: /happens in the Juniper/,
    },
    {
      scope: "project:canteen",
      before: "食堂的外卖柜是丰巢的。",
      after: "食堂外卖柜已经从丰巢换成了美团的智能柜。",
      neighbours: ["食堂的外卖柜在一楼东门旁边。", "食堂的外卖柜晚上十点断电。"],
      question: "食堂的外卖柜是哪家的？",
      answer: /美团/,
      stale: /^食堂的外卖柜是丰巢的/,
    },
  ];

  it("the successor answers first and the replaced memory is never returned", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hindsight-lineage-"));
    const embedder = new TransformersEmbedder({ modelDir: MODEL_DIR, allowDownload: false });
    const store = new LanceStore({ dir });
    const clock = new FixedClock();
    try {
      for (const c of cases) {
        const writer = new MemoryEngine({ store, embedder, clock }, { defaultScope: c.scope });
        await writer.open();
        await writer.write({ content: c.before, type: "fact" });
        for (const n of c.neighbours) await writer.write({ content: n, type: "fact" });
        clock.advance(5 * DAY);
        const w = await writer.write({ content: c.after, type: "fact" });
        assert.equal(w.action, "superseded", `${c.after}: ${JSON.stringify(w)}`);
        await writer.close();
        const ask = async (followReplacements: boolean) => {
          const engine = new MemoryEngine({ store, embedder, clock }, { defaultScope: c.scope, recall: { followReplacements } });
          await engine.open();
          const r = await engine.recall({ query: c.question, k: 3 });
          await engine.close();
          return r;
        };
        const led = await ask(true);
        const plain = await ask(false);
        assert.match(led.memories[0]?.content ?? "", c.answer, led.text);
        for (const r of [led, plain]) assert.ok(!r.memories.some((m) => c.stale.test(m.content)), r.text);
        const rel = (r: typeof led) => r.memories.find((m) => c.answer.test(m.content))?.factors.relevance ?? 0;
        assert.ok(rel(led) > rel(plain), `${c.question}: ${rel(led)} vs ${rel(plain)}`);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
