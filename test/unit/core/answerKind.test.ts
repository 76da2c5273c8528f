import { strict as assert } from "node:assert";
import { askedKind, askedNoun, favourAnswerKind, holdsKind } from "../../../src/core/recall/answerKind.js";
import { makeEngine } from "../../helpers/fakes.js";

describe("recall/answerKind", () => {
  it("reads the kind of value a question asks for, in English and Chinese", () => {
    assert.equal(askedKind("How far is the depot from the port?"), "amount");
    assert.equal(askedKind("How often does the linter run?"), "amount");
    assert.equal(askedKind("这批货有几箱？"), "amount");
    assert.equal(askedKind("充一次电能跑多远？"), "amount");
    assert.equal(askedKind("When does the lease end?"), "time");
    assert.equal(askedKind("Which year was the warehouse built?"), "time");
    assert.equal(askedKind("快递一般几点到？"), "time");
    assert.equal(askedKind("Where is the depot?"), "place");
    assert.equal(askedKind("备用发电机放在哪？"), "place");
    assert.equal(askedKind("门禁系统是哪家的？"), null, "哪家 asks which vendor, not where");
    assert.equal(askedKind("Which region does the backup bucket live in?"), "place");
    assert.equal(askedKind("How does the exporter authenticate?"), null, "a how-question of manner asks for no amount");
    assert.equal(askedKind("仓库用什么系统？"), null);
  });

  it("reads whether a memory holds such a value", () => {
    assert.ok(holdsKind("The depot is 40 km from the port.", "amount"));
    assert.ok(holdsKind("The linter runs twice a day.", "amount"));
    assert.ok(holdsKind("这批货一共七箱。", "amount"));
    assert.ok(!holdsKind("The depot is next to the rail yard.", "amount"));
    assert.ok(!holdsKind("这一批货是统一发的。", "amount"), "一 inside a word is no amount");
    assert.ok(holdsKind("The lease ends in March.", "time"));
    assert.ok(holdsKind("快递一般下午送到，周六也送。", "time"));
    assert.ok(!holdsKind("The lease is held by the parent company.", "time"));
    assert.ok(!holdsKind("日志都写到对象存储里。", "time"), "日 inside a word is no date");
    assert.ok(holdsKind("The spare generator is in the basement.", "place"));
    assert.ok(holdsKind("The nightly dump goes to /srv/backups.", "place"));
    assert.ok(holdsKind("备用发电机放在地下车库B2层。", "place"));
    assert.ok(!holdsKind("The spare generator was serviced in March.", "place"), "a month is no place");
    assert.ok(!holdsKind("We moved the wiki from Notion to Outline.", "place"), "a move between tools is no place");
    assert.ok(holdsKind("The wiki runs on a VM in us-east-2.", "place"));
    assert.ok(holdsKind("We migrated the blog onto Netlify last spring.", "place"), "a move onto a platform ends somewhere");
    assert.ok(!holdsKind("备用发电机每月试机一次。", "place"));
    assert.ok(!holdsKind("The ferry terminal closes at 21:30 on Sundays.", "amount"), "a clock time is no amount");
    assert.ok(holdsKind("The ferry terminal has 6 berths.", "amount"));
  });

  it("favours the candidates that hold the value, only when some do and some do not", () => {
    const texts = ["The depot is 40 km from the port.", "The depot is next to the rail yard."];
    assert.deepEqual(favourAnswerKind("How far is the depot?", texts, [0.5, 0.52], 0.05), [0.55, 0.52]);
    assert.deepEqual(favourAnswerKind("What does the depot store?", texts, [0.5, 0.52], 0.05), [0.5, 0.52]);
    assert.deepEqual(favourAnswerKind("How far is the depot?", [texts[0]!, "It is 3 km to the yard."], [0.5, 0.52], 0.05), [0.5, 0.52]);
    assert.deepEqual(favourAnswerKind("How far is the depot?", texts, [0.5, 0.52], 0), [0.5, 0.52]);
  });

  it("reads the noun a which/what question asks a value of (fresh10)", () => {
    assert.equal(askedNoun("Which compiler does the firmware team use?"), "compiler");
    assert.equal(askedNoun("What kind of cache sits in front of the catalog API?"), "cache");
    assert.equal(askedNoun("What is the catalog API written in?"), null);
    assert.equal(askedNoun("打印机用什么墨盒？"), "墨盒");
    assert.equal(askedNoun("门禁系统是哪家的？"), null);
    assert.equal(askedNoun("这台服务器的操作系统是什么？"), "操作系统");
    assert.equal(askedNoun("Which one does the kiosk use?"), null, "'one' stands for a noun said before");
    const texts = ["The firmware team's compiler is GCC 13.", "The firmware team ships a build every month."];
    assert.deepEqual(favourAnswerKind("Which compiler does the firmware team use?", texts, [0.5, 0.52], 0.05), [0.55, 0.52]);
    assert.deepEqual(favourAnswerKind("Which compiler does the firmware team use?", [texts[1]!, "The team likes Rust."], [0.5, 0.52], 0.05), [0.5, 0.52], "nobody names it: nothing moves");
  });

  it("on the engine, a how-many question ranks the memory with the count first, and only reorders", async () => {
    const { engine } = await makeEngine();
    await engine.write({ content: "The rooftop terrace has a charcoal grill and tall planters.", type: "fact" });
    await engine.write({ content: "The rooftop terrace fits 40 guests.", type: "fact" });
    const r = await engine.recall({ query: "How many guests fit on the rooftop terrace?" });
    assert.match(r.memories[0]?.content ?? "", /40 guests/, r.text);
    const none = await engine.recall({ query: "How many parking spaces does the office have?" });
    assert.equal(none.memories.length, 0, "the bonus never lets an unrelated memory through");
  });
});
