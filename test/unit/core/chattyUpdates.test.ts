import { strict as assert } from "node:assert";
import { resolveConfig } from "../../../src/core/config.js";
import type { MemoryRecord, MemoryType } from "../../../src/core/model/memory.js";
import { MULTILINGUAL_E5_SMALL, thresholds } from "../../../src/core/model/profiles.js";
import { withDigits, chineseNumeral } from "../../../src/core/text/numerals.js";
import { classifyType } from "../../../src/core/write/classify.js";
import { relate, sameTask, type Relation } from "../../../src/core/write/reconcile.js";
import { addsTo, isAdditive, progressFrame } from "../../../src/core/write/slot.js";
import { DAY, T0 } from "../../helpers/fakes.js";

// Kinds that failed on cases written without looking at the rules (eval/judgement/fresh4): an update
// said in passing inside a long chat message, a count written in words, a change reported as news.
// The sentences here are in no case file.

const config = resolveConfig();
const t = thresholds(config, MULTILINGUAL_E5_SMALL);
const { taskFrameSimilarity } = config.write;

/** Two unit vectors with the given cosine: what the model would say about the pair. */
function pairAt(cos: number): [Float32Array, Float32Array] {
  const a = new Float32Array(8);
  const b = new Float32Array(8);
  a[0] = 1;
  b[0] = cos;
  b[1] = Math.sqrt(1 - cos * cos);
  return [a, b];
}

function relation(older: string, olderType: MemoryType, newer: string, newerType: MemoryType, cos: number, days = 10): Relation | null {
  const [va, vb] = pairAt(cos);
  const existing = {
    id: "m1",
    content: older,
    type: olderType,
    subject: "",
    source: "extractor",
    confidence: 0.8,
    validUntil: null,
    confirmedAt: T0,
    createdAt: T0,
  } as unknown as MemoryRecord;
  const candidate = { content: newer, type: newerType, subject: "", source: "extractor" as const, confidence: 0.8, validUntil: null, vector: vb, now: T0 + days * DAY };
  return relate(candidate, existing, va, config, t);
}

describe("an addition is judged in the clause about the statement it would add to", () => {
  it("an additive word in an aside of a long message adds nothing to the changed value", () => {
    const old = "The standup is at 9:30.";
    const aside = "Standup moves to 10:00 from next week, so the night owls get an extra half hour of sleep.";
    assert.ok(isAdditive(aside), "the message holds an additive word");
    assert.equal(addsTo(aside, old), false);
    assert.ok(addsTo("We also hold a standup at 16:00 on Fridays.", old));
    assert.ok(addsTo("Standup is also streamed to the Lisbon office, at 9:30 as before.", old));
  });

  it("'还' meaning 'still' adds nothing; meaning 'also' it does", () => {
    assert.equal(isAdditive("周报截止改到周五中午，很多人还在适应"), false);
    assert.ok(isAdditive("周报还要抄送给财务一份"));
  });
});

describe("counts written in words", () => {
  it("English number words and Chinese numerals before a measure word become digits", () => {
    assert.equal(withDigits("we're at seventeen of the 40 crates"), "we're at 17 of the 40 crates");
    assert.equal(withDigits("三十章已经译完第十二章"), "30章已经译完第12章");
    assert.equal(withDigits("大家一起吃饭"), "大家一起吃饭");
    assert.equal(chineseNumeral("一百零五"), 105);
    assert.equal(chineseNumeral("两万"), 20000);
    assert.equal(chineseNumeral("周"), null);
  });

  it("a count against a total is progress however it is written, with words between count and total", () => {
    assert.equal(progressFrame("down to ninety-one unread, out of the 250 sent")?.total, "250");
    assert.equal(progressFrame("三十章已经译完第十二章")?.total, "30");
    assert.equal(classifyType("Vaccination drive: eighty of the 120 calves done this morning"), "task_state");
  });

  it("counts against the same total about the same thing are one task however they are worded; a numbered series is not", () => {
    assert.ok(sameTask("Calf vaccinations: 40 of 120 calves done.", "we're at eighty of the 120 calves now, the vet left at noon", taskFrameSimilarity, true));
    assert.equal(sameTask("Calf vaccinations: 40 of 120 calves done.", "we're at eighty of the 120 calves now, the vet left at noon", taskFrameSimilarity, false), false);
    assert.equal(sameTask("Barn 1 vaccinations: 40 of 120 calves.", "Barn 2 vaccinations: 80 of 120 calves.", taskFrameSimilarity, true), false);
    assert.equal(sameTask("Calf vaccinations: 40 of 120 done.", "Hoof trimming: 30 of 45 cows.", taskFrameSimilarity, true), false);
  });
});

describe("a change reported as news replaces the standing value", () => {
  it("an event that announces a change supersedes the fact it changes; an event that does not, never", () => {
    const fact = "The pottery class meets in the east annex.";
    assert.equal(relation(fact, "fact", "Yesterday the pottery class moved to the library basement because of the leak.", "event", 0.9)?.kind, "supersedes");
    assert.equal(relation(fact, "fact", "Yesterday the pottery class fired its first kiln load in the east annex.", "event", 0.9), null);
  });

  it("a statement that says from when its new value holds is an update of the same slot", () => {
    const r = relation("Parcel lockers are emptied at 7 AM.", "fact", "Parcel lockers get emptied at 9 AM starting Thursday, the courier changed routes.", "fact", 0.9);
    assert.equal(r?.kind, "supersedes");
    // Without the cue and the change, a close statement with another value over ten days is no evidence of one slot.
    assert.equal(relation("Parcel lockers are emptied at 7 AM.", "fact", "Parcel lockers hold parcels for 3 days.", "fact", 0.9), null);
  });
});
