import { strict as assert } from "node:assert";
import { extractRules, readTakeBack } from "../../../src/core/write/extract.js";
import { makeEngine, MINUTE } from "../../helpers/fakes.js";

// A message that only takes back the speaker's previous one ("ignore what I just said", "当我没说"): what that
// turn stored is archived and what it had replaced is active again. Sentences in no case file.
describe("a turn that takes back the one before it", () => {
  it("says so by pointing at the speaker's own words, not by a bare 'never mind'", () => {
    for (const text of ["ignore what I just said, wrong repo", "Scratch that.", "我刚才说的不算，当我没说。", "收回刚才那句，维持原样。", "I take that back, we keep the current setup."]) {
      assert.ok(readTakeBack(text).takesBack, text);
    }
    for (const text of ["never mind", "算了", "never mind, it works now", "Scratch that, the offsite is in Porto.", "The cron runs at 2am, ignore what I said about 3am."]) {
      assert.equal(readTakeBack(text).takesBack, false, text);
    }
  });

  it("archives what the previous turn stored and restores what it replaced", async () => {
    const { engine, clock } = await makeEngine();
    const old = await engine.write({ content: "The nightly export runs at 01:00." });
    clock.advance(60 * MINUTE);
    const said = await engine.ingest({ user: "The nightly export moved from 01:00 to 04:30.", sessionId: "s1" });
    const stored = said.results.find((r) => r.action === "superseded");
    assert.ok(stored?.id, JSON.stringify(said.results));
    assert.equal((await engine.get(old.id!)).status, "superseded");
    clock.advance(MINUTE);
    const back = await engine.ingest({ user: "ignore what I just said, wrong window.", sessionId: "s1" });
    assert.deepEqual(back.takenBack.map((b) => b.id), [stored.id]);
    assert.deepEqual(back.takenBack[0]?.restored, [old.id]);
    assert.equal((await engine.get(stored.id!)).status, "archived", "kept as history");
    assert.equal((await engine.get(old.id!)).status, "active");
    const r = await engine.recall({ query: "When does the nightly export run?" });
    assert.match(r.memories[0]?.content ?? "", /01:00/, r.text);
  });

  it("takes back nothing of another session, nothing past the correction window, nothing written by a caller", async () => {
    const { engine, clock } = await makeEngine();
    const other = await engine.ingest({ user: "The lab printer is on the third floor.", sessionId: "a" });
    clock.advance(MINUTE);
    assert.deepEqual((await engine.ingest({ user: "当我没说。", sessionId: "b" })).takenBack, [], "another session");
    const late = await engine.ingest({ user: "The loading dock closes at 17:00.", sessionId: "c" });
    clock.advance(60 * MINUTE);
    assert.deepEqual((await engine.ingest({ user: "当我没说。", sessionId: "c" })).takenBack, [], "past the window");
    assert.equal((await engine.get(late.results[0]!.id!)).status, "active");
    assert.equal((await engine.get(other.results[0]!.id!)).status, "active");
  });
});

describe("more ways of taking back the turn before (fresh13)", () => {
  it("'wait no, ignore that, don't change anything' takes it back", () => {
    assert.ok(readTakeBack("wait no, ignore that, don't change anything yet, I still need the client's OK").takesBack);
    assert.equal(readTakeBack("ignore that warning, the build is fine").takesBack, false, "'that' followed by a noun is a thing, not the speaker's words");
  });
});

describe("the turn before, when turns share an instant", () => {
  it("is the one logged last", async () => {
    const { engine } = await makeEngine();
    const first = await engine.ingest({ user: "The kiln fires on Tuesdays.", sessionId: "k" });
    const second = await engine.ingest({ user: "The glaze room closes at 18:00.", sessionId: "k" });
    const back = await engine.ingest({ user: "当我没说。", sessionId: "k" });
    assert.deepEqual(back.takenBack.map((b) => b.id), second.results.map((r) => r.id));
    assert.equal((await engine.get(first.results[0]!.id!)).status, "active");
  });
});

describe("taking back, said as people say it (fresh20)", () => {
  const rulesOf = (text: string) => extractRules(text, { now: 0, speaker: "user", maxMemoryChars: 400, defaultConfidence: 0.9 });

  it("'forget I said that' with a mix-up and a promise to check takes the turn before back and keeps nothing", () => {
    const text = "hold on, forget I said that, I got the two vans mixed up. I'll check on Monday.";
    assert.ok(readTakeBack(text).takesBack);
    assert.deepEqual(rulesOf(text), []);
  });

  it("a value said, doubted and not to be kept leaves nothing; a place to keep it in is no take-back", () => {
    assert.deepEqual(rulesOf("The courier pickup is at 3pm... no wait, scratch that, not certain. Don't store it, I'll verify."), []);
    assert.equal(readTakeBack("Don't save it in the wiki, put it in the runbook.").takesBack, false);
    assert.equal(rulesOf("Don't save it in the wiki, put it in the runbook.").length, 1);
    assert.equal(rulesOf("不要保存密码到浏览器里，统一用公司的密码管理器。").length, 1, "a rule about saving something is no take-back");
  });

  it("points at the one thing taken back", () => {
    assert.ok(readTakeBack("嗯，快递柜那条先别记，我跟另一栋楼搞混了").takesBack);
    assert.equal(readTakeBack("嗯，快递柜那条先别记，我跟另一栋楼搞混了").pointer, "快递柜");
    assert.equal(readTakeBack("当我没说。").pointer, null);
  });

  it("takes back only the memory that names what it points at", async () => {
    const { engine, clock } = await makeEngine();
    const said = await engine.ingest({ user: "来访客人必须先在前台登记。快递柜放在一楼东侧走廊的尽头。", sessionId: "p" });
    assert.equal(said.results.length, 2, JSON.stringify(said.results));
    clock.advance(MINUTE);
    const back = await engine.ingest({ user: "诶，快递柜那条先别记，我跟另一栋楼搞混了", sessionId: "p" });
    const locker = said.results.find((r) => r.memory?.content.includes("快递柜"));
    assert.deepEqual(back.takenBack.map((b) => b.id), [locker?.id]);
    const desk = said.results.find((r) => r.memory?.content.includes("前台"));
    assert.equal((await engine.get(desk!.id!)).status, "active");
  });
});
