import { strict as assert } from "node:assert";
import { sameTask } from "../../../src/core/write/reconcile.js";
import { announcesChange, sameSlot, taskLabel, taskLabelText, twoNamedThings } from "../../../src/core/write/slot.js";
import { relationAfterAWeek } from "../../helpers/relation.js";

// Kinds the write path misread on cases written without looking at it (eval/judgement/fresh23).
// The sentences here are in no case file.

describe("a count against its total inside a task's label", () => {
  it("is how far the task got, not which task", () => {
    assert.equal(taskLabelText("Hull blocks 12/40: welding on the aft ones."), "Hull blocks");
    assert.equal(taskLabelText("外墙保温进度 60%：东立面做完了。"), "外墙保温进度");
    assert.deepEqual(taskLabel("Pallet audit 3 of 8: aisle C next."), ["pallet", "audit"]);
    assert.equal(taskLabelText("12/40: welding on the aft ones."), null);
  });

  it("two status lines of one labelled task at two counts are one task", () => {
    assert.ok(sameTask("KX-7 校准进度 5/14：已完成 5 项。", "KX-7 校准进度 11/14：已完成 11 项。", 0.5));
    assert.ok(sameTask("Hull blocks 12/40: welding on the aft ones.", "Hull blocks 31/40: bow section next.", 0.5));
    assert.equal(relationAfterAWeek("KX-7 校准进度 5/14：已完成 5 项。", "KX-7 校准进度 11/14：已完成 11 项。", 0.96, "task_state")?.kind, "supersedes");
  });

  it("two labelled tasks stay two", () => {
    assert.equal(sameTask("Hull blocks 12/40: welding on the aft ones.", "Deck cranes 2/4: load test passed.", 0.5), false);
  });
});

describe("an amount moved to a number is a change", () => {
  it("a past verb of more or less before 'to' and a number announces one", () => {
    assert.ok(announcesChange("The deposit was raised to 300 for the winter season."));
    assert.ok(announcesChange("Class size cut back to 18 after the fire inspection."));
    assert.ok(announcesChange("Night shift headcount dropped to 6."));
  });

  it("'to' before a number after any other verb, or a verb with no number, announces nothing", () => {
    assert.equal(announcesChange("Samples are sent to 3 labs for cross-checking."), false);
    assert.equal(announcesChange("The deposit was raised at the board meeting."), false);
  });

  it("the changed amount replaces the older one of the same thing", () => {
    assert.equal(relationAfterAWeek("Winter camp: 24 bunks available.", "Winter camp bunks increased to 30 after the annex opened.", 0.9)?.kind, "supersedes");
  });
});

describe("a heading that names a thing's attribute gives its value after the colon", () => {
  it("names the older statement's attribute in fewer words: the older's owner class and a place may be extra", () => {
    assert.ok(sameSlot("Tern home berth: quay 7 (harbour master, March).", "RV Tern's home berth in Hull is quay 4 at Albert Dock."));
    assert.ok(sameSlot("Kiln 2 firing schedule: cone 6, 9 hours.", "Kiln 2's firing schedule is cone 04 over 7 hours."));
  });

  it("another noun of the attribute, or a value shared, is not the same slot", () => {
    assert.equal(sameSlot("Tern berth: quay 7.", "Tern's berth crew is 4 people."), null);
    assert.equal(sameSlot("Tern home berth: quay 4, east side.", "RV Tern's home berth in Hull is quay 4 at Albert Dock."), null);
  });
});

describe("two named things in Chinese without 的 after the name", () => {
  it("a name that runs into the next word, or has an aside in brackets, still names a second thing", () => {
    assert.ok(twoNamedThings("阿福（3 号栏）每天喂 2 斤玉米。", "旺财每天喂 3 斤玉米，最近长胖了。"));
    assert.ok(twoNamedThings("小红每周上钢琴课两次。", "大壮每周上钢琴课一次，周六上午。"));
    assert.equal(relationAfterAWeek("阿福（3 号栏）每天喂 2 斤玉米。", "旺财每天喂 3 斤玉米，最近长胖了。", 0.93), null);
  });

  it("a name after where the thing is kept, against another name with its own place, is a second thing", () => {
    assert.ok(twoNamedThings("2 号棚的阿福每天喂 2 斤玉米。", "小白（6 号棚）每天喂 3 斤玉米。"));
    assert.equal(twoNamedThings("2 号棚的阿福每天喂 2 斤玉米。", "阿福每天喂 3 斤玉米。"), false);
    assert.equal(relationAfterAWeek("2 号棚的阿福每天喂 2 斤玉米。", "小白（6 号棚）每天喂 3 斤玉米。", 0.94), null);
  });

  it("a word of how usual or a change opening the sentence names no thing: the value replaces", () => {
    assert.equal(twoNamedThings("旺财每天喂 3 斤玉米。", "平时每天喂 4 斤玉米。"), false);
    assert.equal(twoNamedThings("旺财每天喂 3 斤玉米。", "统一每天喂 4 斤玉米。"), false);
    assert.equal(twoNamedThings("旺财每天喂 3 斤玉米。", "下月起每天喂 4 斤玉米。"), false);
    assert.equal(twoNamedThings("旺财每天喂 3 斤玉米。", "入冬后每天喂 4 斤玉米。"), false);
    assert.equal(twoNamedThings("旺财每天喂 3 斤玉米。", "3 号栏的旺财每天喂 4 斤玉米。"), false);
  });
});
