import { strict as assert } from "node:assert";
import { classifyType, inferSubject, isHedged } from "../../../src/core/write/classify.js";

describe("write/classify", () => {
  const types: Array<[string, string]> = [
    ["I prefer dark mode in the editor.", "preference"],
    ["Please always reply in English.", "preference"],
    ["我喜欢简洁的回答。", "preference"],
    ["Never commit directly to main.", "constraint"],
    ["PRs must have two approvals.", "constraint"],
    ["禁止在周五发布。", "constraint"],
    ["Step 3 of 5 is done.", "task_state"],
    ["The migration is in progress.", "task_state"],
    ["The deploy failed yesterday.", "event"],
    ["昨天数据库发生故障。", "event"],
    ["The API listens on port 8080.", "fact"],
    // A share reached by now is progress; a share of something else is not (sentences in no case file).
    ["the search re-index is already past 60%", "task_state"],
    ["Subtitle translation now at 30%, Spanish is next", "task_state"],
    ["数据回填做到 70% 了", "task_state"],
    ["The spring sale gives 15% off every plan.", "fact"],
    ["VAT is 20% on the invoices we send.", "fact"],
    ["每张发票至少得两个人复核", "constraint"],
    ["附件最多只能传 20MB", "constraint"],
    // A count never exceeds its total: "N/M" with N > M is a date.
    ["The launch slipped to 28/10 because of the audit.", "fact"],
    ["QA signed off 18/20 test plans.", "task_state"],
    ["Video transcode at 60% already", "task_state"],
    ["教材录入：30 课里录完 12 课", "task_state"],
  ];
  for (const [text, type] of types) {
    it(`classifyType(${JSON.stringify(text)}) is ${type}`, () => {
      assert.equal(classifyType(text), type);
    });
  }

  it("inferSubject recognises an English third party", () => {
    assert.equal(inferSubject("My friend uses plan X", null), "third-party:friend");
    assert.equal(inferSubject("Oh, my colleague prefers tabs.", "alice"), "third-party:colleague");
  });

  it("inferSubject recognises a Chinese third party", () => {
    assert.equal(inferSubject("我朋友用的是XX套餐", null), "third-party:朋友");
    assert.equal(inferSubject("我的同事喜欢用Vim。", null), "third-party:同事");
  });

  it("inferSubject says the speaker, the project or general otherwise", () => {
    assert.equal(inferSubject("I use the economy plan.", null), "user");
    assert.equal(inferSubject("I use the economy plan.", "Caroline"), "Caroline");
    assert.equal(inferSubject("我用的是经济套餐。", null), "user");
    assert.equal(inferSubject("We deploy on Fridays.", null), "project");
    assert.equal(inferSubject("The API listens on port 8080.", null), "general");
  });

  it("isHedged spots uncertainty in English and Chinese", () => {
    assert.equal(isHedged("I think the build uses Gradle."), true);
    assert.equal(isHedged("可能是周三发布。"), true);
    assert.equal(isHedged("The build uses Gradle."), false);
  });
});
