import { strict as assert } from "node:assert";
import { resolveConfig } from "../../../src/core/config.js";
import type { MemoryRecord } from "../../../src/core/model/memory.js";
import { MULTILINGUAL_E5_SMALL, thresholds } from "../../../src/core/model/profiles.js";
import { relate } from "../../../src/core/write/reconcile.js";
import { announcesChange, correctionReachHours, correctsEarlier, oldValues, progressFrame } from "../../../src/core/write/slot.js";
import { T0, vectorsAt } from "../../helpers/fakes.js";
import { relationAfterAWeek } from "../../helpers/relation.js";

// Kinds the write path misread on cases written without looking at it (eval/judgement/fresh21).
// The sentences here are in no case file.

describe("old values: a route is no change, a lapsed term is", () => {
  it("'from A to B' naming a route before its verb names no old value; a change ends its clause after B", () => {
    assert.deepEqual(oldValues("The late shuttle from Brandon to Millbrook now leaves at 23:15."), []);
    assert.deepEqual(oldValues("The cable run from Rack 4 to Rack 9 is 30 m."), []);
    assert.deepEqual(oldValues("Payroll went from Gusto to Deel this quarter."), [["gusto"]]);
    assert.deepEqual(oldValues("We shifted the nightly export from Airflow to Dagster and it is quicker."), [["airflow"]]);
  });

  it("a route's new departure time does not replace the route's crossing time", () => {
    const r = relationAfterAWeek("The Brandon to Millbrook shuttle takes 50 minutes.", "The late shuttle from Brandon to Millbrook now leaves at 23:15.", 0.86);
    assert.notEqual(r?.kind, "supersedes");
  });

  it("a named product whose contract lapsed or that went back to its supplier is the value replaced", () => {
    assert.deepEqual(oldValues("Tickets are in Jira Service now, the Freshdesk subscription expired in June."), [["freshdesk"]]);
    assert.deepEqual(oldValues("The Zebra printer was returned to the supplier."), [["zebra", "printer"]]);
    assert.equal(relationAfterAWeek("Support tickets are handled in Freshdesk.", "Tickets are in Jira Service now, the Freshdesk subscription expired in June.", 0.8)?.kind, "supersedes");
  });

  it("'now that' gives a reason, not a new value for a sibling attribute", () => {
    const r = relationAfterAWeek("Server room: humidity is kept at 40% ±5.", "Server room temperature is set to 21 C now that the new CRAC unit is in.", 0.87);
    assert.equal(r, null);
  });

  it("one Chinese character shared by two different words is no shared attribute", () => {
    const r = relationAfterAWeek("远航号每年 3 月进厂保养，停航大概一周。", "远航号现在的大副是王周平。", 0.86);
    assert.equal(r, null);
  });

  it("a time pushed back announces a change", () => {
    assert.ok(announcesChange("The weekly sync got pushed back to 3pm."));
    assert.equal(correctsEarlier("The weekly sync got pushed back to 3pm."), false);
  });
});

describe("progress: counts with separators, a named total over a clause, done plus left, an ordinal against its total", () => {
  it("reads the total however the count is written", () => {
    assert.equal(progressFrame("We're at 2,750 of the 6,000 records now")?.total, "6000");
    assert.equal(progressFrame("标本修复一共40件，目前完成了15件。")?.total, "40");
    assert.equal(progressFrame("又修好3台了，现在累计11台，剩下4台")?.total, "15");
    assert.equal(progressFrame("18 boxes packed, 7 to go")?.total, "25");
  });

  it("a later count of the same task replaces the earlier one", () => {
    assert.equal(relationAfterAWeek("标本修复一共40件，目前完成了15件。", "标本修复又弄完6件了，现在累计21件，剩下19件", 0.85, "task_state", { olderType: "task_state" })?.kind, "supersedes");
    assert.equal(relationAfterAWeek("抽检进度：完成第2轮，共8轮。", "抽检做到第5轮了，一共8轮", 0.8, "task_state", { olderType: "task_state" })?.kind, "supersedes");
  });
});

describe("a correction that says when the corrected words were said", () => {
  const config = resolveConfig();
  const t = thresholds(config, MULTILINGUAL_E5_SMALL);
  const relateAfter = (older: string, newer: string, cos: number, hours: number) => {
    const [va, vb] = vectorsAt(cos);
    const existing = { id: "m1", content: older, type: "fact", subject: "", source: "extractor", confidence: 0.8, validUntil: null, confirmedAt: T0, createdAt: T0 } as unknown as MemoryRecord;
    return relate({ content: newer, type: "fact", subject: "", source: "extractor", confidence: 0.8, validUntil: null, vector: vb, now: T0 + hours * 3_600_000 }, existing, va, config, t);
  };

  it("reaches back as far as it says: this morning's statement, yesterday's", () => {
    assert.equal(correctionReachHours("Correction to what I said this morning: the lab fridge is a Liebherr."), 24);
    assert.equal(correctionReachHours("更正一下昨天说的：质检员是小何。"), 48);
    assert.equal(correctionReachHours("Correction: the lab fridge is a Liebherr."), 0);
    assert.equal(relateAfter("The lab fridge is a Haier HYC-390.", "Correction to what I said this morning: the lab fridge is a Liebherr.", 0.85, 3)?.kind, "supersedes");
  });

  it("without a time it reaches only the window of a slip; past its reach it is judged as any statement", () => {
    const reason = (r: ReturnType<typeof relateAfter>): string | undefined => (r && "reason" in r ? r.reason : undefined);
    assert.notEqual(reason(relateAfter("The lab fridge is a Haier HYC-390.", "Correction: the lab fridge is a Liebherr.", 0.85, 3)), "corrects what was just said");
    assert.notEqual(reason(relateAfter("The lab fridge is a Haier HYC-390.", "Correction to what I said this morning: the lab fridge is a Liebherr.", 0.85, 30)), "corrects what was just said");
  });
});

describe("Chinese corrections and changes said in passing (fresh21)", () => {
  it("'what I told you about X was wrong, actually Y' corrects, however long ago it was said", () => {
    assert.ok(correctsEarlier("上次给你说的交货日期有误，实际是 9 月 3 号"));
    assert.ok(correctsEarlier("What I told you about the venue was wrong, it's actually the Corn Exchange."));
    assert.equal(correctionReachHours("上次给你说的交货日期有误，实际是 9 月 3 号"), 24 * 30);
    assert.equal(relationAfterAWeek("交货日期：8 月 27 日", "上次给你说的交货日期有误，实际是 9 月 3 号", 0.93)?.kind, "supersedes");
    assert.equal(relationAfterAWeek("仓库地址在嘉定区曹安公路", "上次给你说的交货日期有误，实际是 9 月 3 号", 0.85), null);
  });

  it("a value used from next week on, and a return to an earlier one, are changes", () => {
    assert.equal(relationAfterAWeek("本季度报表统一用 v2 模板", "模板有问题 下个月起报表统一用v3", 0.92)?.kind, "supersedes");
    assert.ok(announcesChange("新模板太难用，财务决定退回 v2"));
  });
});

describe("a count handed over in full (fresh21)", () => {
  it("reaches its total by a verb of handing over; a count that all broke reaches none", () => {
    assert.equal(progressFrame("展柜那60件展品全部到货了，布展下周开始")?.total, "60");
    assert.equal(progressFrame("12 台全都坏了"), null);
  });
});
