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
 * Recall among several memories about one thing, on the real multilingual model and the real store:
 * read without the thing's name, which every candidate shares, the question is about the attribute
 * it asks for, and the memory holding that attribute pulls ahead of its neighbours.
 */
describe("integration: the focused reading of a question among memories about one thing", function () {
  this.timeout(180_000);
  const sets = [
    {
      scope: "project:payroll",
      facts: ["The payroll exporter is written in Go.", "The payroll exporter runs every Friday at 18:00.", "The payroll exporter uploads its CSV files to an SFTP server.", "The payroll exporter logs to Loki."],
      question: "Where does the payroll exporter send its files?",
      answer: /SFTP/,
    },
    {
      scope: "project:kitchen",
      facts: ["厨房显示屏的后端用 Elixir 写的。", "厨房显示屏每隔十秒刷新一次订单。", "厨房显示屏的订单数据存在 Redis 里。", "厨房显示屏部署在门店的树莓派上。"],
      question: "厨房显示屏多久刷新一次？",
      answer: /十秒/,
    },
  ];

  it("widens the lead of the memory that holds the attribute asked for, and its off switch restores the plain reading", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hindsight-focus-"));
    const embedder = new TransformersEmbedder({ modelDir: MODEL_DIR, allowDownload: false });
    const store = new LanceStore({ dir });
    // The answer-kind bonus is off: the lead measured is the focused reading's alone.
    const lead = async (scope: string, question: string, answer: RegExp, focusWeight: number) => {
      const engine = new MemoryEngine({ store, embedder, clock: new FixedClock() }, { defaultScope: scope, recall: { focusWeight, answerKindBonus: 0 } });
      await engine.open();
      const r = await engine.recall({ query: question, k: 4 });
      await engine.close();
      const mine = r.memories.find((m) => answer.test(m.content));
      const best = Math.max(...r.memories.filter((m) => m !== mine).map((m) => m.factors.relevance));
      return { r, lead: (mine?.factors.relevance ?? NaN) - best };
    };
    try {
      for (const s of sets) {
        const writer = new MemoryEngine({ store, embedder, clock: new FixedClock() }, { defaultScope: s.scope });
        await writer.open();
        for (const content of s.facts) await writer.write({ content, type: "fact" });
        await writer.close();
        const plain = await lead(s.scope, s.question, s.answer, 0);
        const focused = await lead(s.scope, s.question, s.answer, 0.5);
        assert.equal(plain.r.memories.length, s.facts.length, plain.r.text);
        assert.ok(focused.lead > plain.lead, `${s.question}: ${focused.lead} vs ${plain.lead}`);
        assert.match(focused.r.memories[0]?.content ?? "", s.answer, focused.r.text);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
