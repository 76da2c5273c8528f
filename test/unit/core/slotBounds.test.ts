import { strict as assert } from "node:assert";
import { boundedAttribute, boundSaid } from "../../../src/core/write/slot.js";
import { relationAfterAWeek } from "../../helpers/relation.js";

// A limit and a plain value of one thing are two attributes: a rule's minimum stays when a fact announces
// what is used now (eval/judgement/fresh20 lost "the minimum supported … is 15" to "CI now builds against …
// 18"). The sentences here are in no case file.

describe("a bound and a plain value", () => {
  it("reads which bound a statement sets", () => {
    assert.equal(boundSaid("At least Python 3.10 is required to run the installer."), "lower");
    assert.equal(boundSaid("Uploads are capped at 20 MB."), "upper");
    assert.equal(boundSaid("安卓端最低支持 Android 10。"), "lower");
    assert.equal(boundSaid("The build servers switched to Python 3.12; we rebuilt the image this week."), "none");
  });

  it("a fact announcing the value in use does not replace a rule's minimum", () => {
    const older = "The minimum supported Xcode version for building the iOS app is 14.";
    const newer = "CI now builds the iOS app with Xcode 16; we bumped the runner image yesterday.";
    const clauses: Array<[string, number]> = [["CI now builds the iOS app with Xcode 16", 0.9], ["we bumped the runner image yesterday", 0.3]];
    assert.equal(relationAfterAWeek(older, newer, 0.85, "fact", { olderType: "constraint", subject: "ios xcode", source: "agent", clauses }), null);
    assert.equal(relationAfterAWeek("编译固件支持的最低 GCC 版本是 9。", "CI 现在用 GCC 13 编译固件了，昨晚升级了镜像。", 0.85, "fact", { olderType: "constraint", subject: "固件 gcc", source: "agent", clauses: [["CI 现在用 GCC 13 编译固件了", 0.9], ["昨晚升级了镜像", 0.3]] }), null);
  });

  it("a new bound of the same kind still replaces the old one across types", () => {
    const r = relationAfterAWeek("Uploads are capped at 20 MB per file.", "The upload cap has changed to 50 MB per file.", 0.9, "fact", { olderType: "constraint", subject: "upload cap", source: "agent" });
    assert.equal(r?.kind, "supersedes");
  });

  it("a number that is part of a name is no quantity, and the bounded thing is named in the quantity's clause", () => {
    assert.ok(boundedAttribute("The generator swap is finished, so the Unit-7 crane's max load is now 14 t.", "Unit-7 crane: max load is 12 t."));
    assert.ok(boundedAttribute("换了新电机，所以 X-3 的最大载重现在是 4 公斤", "X-3 最大载重 3 公斤"));
  });

  it("a new limit said as holding now replaces the old one across a type guess", () => {
    const r = relationAfterAWeek("Unit-7 crane: max load is 12 t.", "The generator swap is finished, so the Unit-7 crane's max load is now 14 t.", 0.92, "task_state", { olderType: "fact" });
    assert.equal(r?.kind, "supersedes");
  });
});
