import { strict as assert } from "node:assert";
import { takesSide } from "../../../src/core/write/settle.js";
import { DAY, makeEngine } from "../../helpers/fakes.js";

// A reported conflict is settled by a later statement that takes one side (eval/judgement/fresh4's long
// histories). The sentences here are in no case file.

describe("a later statement settles a reported conflict", () => {
  it("takes a side when it affirms that side's value and none of the other's, naming the other only to reject it", () => {
    assert.ok(takesSide("We went with Rivera Sons in the end.", "Catering is by Rivera Sons.", "Catering is by Bloom Kitchen."));
    assert.ok(takesSide("Rivera Sons it is, Bloom Kitchen is off the table.", "Catering is by Rivera Sons.", "Catering is by Bloom Kitchen."));
    assert.ok(takesSide("交付日定了周四，周二那版作废", "交付日是周四", "交付日是周二"));
    assert.ok(takesSide("评审会确认在 3 号会议室，7 号那个是旧安排", "评审会在 3 号会议室", "评审会在 7 号会议室"));
    // A side worded with a particle more ("调整为", "推迟到") still differs from the other by its value and a verb.
    assert.ok(takesSide("开学日期和教务处核实了，就是9月8日，1号那个是旧通知，不算", "开学时间调整为9月8日。", "开学推迟到9月1日。"));
    assert.equal(takesSide("Rivera Sons and Bloom Kitchen both quoted.", "Catering is by Rivera Sons.", "Catering is by Bloom Kitchen."), false);
    assert.equal(takesSide("Bloom Kitchen is off the table.", "Catering is by Rivera Sons.", "Catering is by Bloom Kitchen.") , false, "rejecting one side without naming the other takes no side");
  });

  it("two remarks that differ by more than a value are no slot, and nothing later settles them", () => {
    assert.equal(takesSide("Mira: the stall looks great, Jonas!", "Mira: Great to see you, Jonas!", "Mira: Have a safe drive home."), false);
    assert.equal(takesSide("Jonas: thanks, that means a lot", "Jonas: that means a lot.", "Jonas: can't wait for the weekend"), false);
  });

  it("the side not taken is replaced and the conflict is gone; a statement naming both leaves it open", async () => {
    const { engine, clock } = await makeEngine();
    const bloom = await engine.write({ content: "Catering for the launch party is by Bloom Kitchen." });
    const rivera = await engine.write({ content: "Catering for the launch party is by Rivera Sons." });
    assert.deepEqual(rivera.conflictsWith, [bloom.id]);
    clock.advance(DAY);
    await engine.write({ content: "Catering for the launch party: Rivera Sons and Bloom Kitchen both sent quotes." });
    assert.equal((await engine.conflicts()).length, 1, "naming both sides settles nothing");
    clock.advance(DAY);
    const settled = await engine.write({ content: "Catering for the launch party: we went with Rivera Sons in the end, Bloom Kitchen is off the table." });
    assert.ok(settled.supersedes.includes(bloom.id!));
    assert.equal((await engine.get(bloom.id!)).status, "superseded");
    assert.equal((await engine.get(rivera.id!)).status, "active");
    assert.equal((await engine.conflicts()).length, 0);
  });
});
