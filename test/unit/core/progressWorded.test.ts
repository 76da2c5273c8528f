import { strict as assert } from "node:assert";
import { progressFrame } from "../../../src/core/write/slot.js";
import { relationAfterAWeek } from "../../helpers/relation.js";

// Progress said the way people say it, read by the classifier as an event or a fact (eval/judgement/fresh20):
// a count that reached its total with the state in another clause, a count and its total across an
// exclamation. It is still the next status of the task. The sentences here are in no case file.

describe("a count against the task's total, however it is worded", () => {
  it("reads the total of a count that reached it with the state in another clause", () => {
    assert.equal(progressFrame("All 30 crates are in the van now, move done 🎉")?.total, "30");
    assert.equal(progressFrame("纪录片已经剪到第7集了！共12集，月底交片")?.total, "12");
  });

  it("a count still short of done is no total reached", () => {
    assert.equal(progressFrame("All 12 rooms have sensors, the install is not finished"), null);
  });

  it("is the next status of the task it counts, whatever type the classifier gave it", () => {
    assert.equal(relationAfterAWeek("Warehouse move: 12 of 30 crates loaded.", "All 30 crates are in the van now, move done 🎉", 0.9, "event", { olderType: "task_state" })?.kind, "supersedes");
    assert.equal(relationAfterAWeek("纪录片剪辑进度：第3集（共12集）", "纪录片已经剪到第7集了！共12集，月底交片", 0.93, "fact", { olderType: "task_state" })?.kind, "supersedes");
  });
});
