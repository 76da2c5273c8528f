import { strict as assert } from "node:assert";
import { questionParts } from "../../../src/core/recall/questionParts.js";

// Sentences in no case file.
describe("recall/questionParts: a question that asks two things at once", () => {
  it("splits a coordination that repeats its preposition", () => {
    assert.deepEqual(questionParts("What do we pay for hosting and for error tracking?"), ["What do we pay for hosting?", "What do we pay for error tracking?"]);
    assert.deepEqual(questionParts("Which tool do we use for linting and for formatting"), ["Which tool do we use for linting?", "Which tool do we use for formatting?"]);
  });

  it("splits at a second question word", () => {
    assert.deepEqual(questionParts("Who signs the invoices and who files them?"), ["Who signs the invoices?", "who files them?"]);
    assert.deepEqual(questionParts("Where is the staging DB, and which version does it run?"), ["Where is the staging DB?", "which version does it run?"]);
  });

  it("splits a Chinese question that asks each of two things (分别), the owner kept for the second", () => {
    assert.deepEqual(questionParts("订单服务的数据库和缓存分别是什么？"), ["订单服务的数据库是什么？", "订单服务的缓存是什么？"]);
    assert.deepEqual(questionParts("前端和后端分别用什么语言？"), ["前端用什么语言？", "后端用什么语言？"]);
  });

  it("leaves whole a question that asks one thing of two people or things", () => {
    assert.deepEqual(questionParts("What did Ana and Raj bring to the picnic?"), []);
    assert.deepEqual(questionParts("When did Mia go to Lisbon and Porto?"), []);
    assert.deepEqual(questionParts("订单服务和库存服务用什么数据库？"), []);
    assert.deepEqual(questionParts("How fast is the build and the test run?"), []);
  });
});

describe("recall of a question that asks two things at once", () => {
  it("leads with each part's best answer, then the whole question's list, k in all", async () => {
    const { makeEngine, DAY } = await import("../../helpers/fakes.js");
    const { engine, clock } = await makeEngine();
    for (const content of [
      "We pay Hetzner for hosting the API servers.",
      "We pay for hosting monthly, by company card.",
      "Error tracking runs on Sentry, billed per seat.",
      "The office plants are watered on Mondays.",
      "The API servers are patched every second Tuesday.",
    ]) {
      await engine.write({ content });
      clock.advance(DAY);
    }
    const [first, second] = await Promise.all(["What do we pay for hosting?", "What do we pay for error tracking?"].map((query) => engine.recall({ query, k: 3 })));
    const both = await engine.recall({ query: "What do we pay for hosting and for error tracking?", k: 3 });
    assert.equal(both.memories.length, 3);
    assert.deepEqual(new Set(both.memories.slice(0, 2).map((m) => m.id)), new Set([first!.memories[0]!.id, second!.memories[0]!.id]));
    assert.equal(new Set(both.memories.map((m) => m.id)).size, 3, "no memory twice");
    assert.ok(both.text.includes(second!.memories[0]!.content));
  });

  it("with a session, each part still brings its own best answer, the session's working memory comes once", async () => {
    const { makeEngine, DAY } = await import("../../helpers/fakes.js");
    const { engine, clock } = await makeEngine();
    for (const content of ["We pay Hetzner for hosting the API servers.", "Error tracking runs on Sentry, billed per seat.", "The office plants are watered on Mondays."]) {
      await engine.write({ content });
      clock.advance(DAY);
    }
    await engine.write({ content: "Invoice run: 4 of 9 vendors paid.", type: "task_state", sessionId: "s1" });
    const [first, second] = await Promise.all(["What do we pay for hosting?", "What do we pay for error tracking?"].map((query) => engine.recall({ query, k: 4 })));
    const both = await engine.recall({ query: "What do we pay for hosting and for error tracking?", k: 4, sessionId: "s1" });
    assert.deepEqual(new Set(both.memories.slice(0, 2).map((m) => m.id)), new Set([first!.memories[0]!.id, second!.memories[0]!.id]));
    assert.equal(both.memories.filter((m) => m.content.startsWith("Invoice run")).length, 1, JSON.stringify(both.memories.map((m) => m.content)));
  });
});
