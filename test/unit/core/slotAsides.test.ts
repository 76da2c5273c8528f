import { strict as assert } from "node:assert";
import { valueChanged } from "../../../src/core/write/reconcile.js";
import { progressFrame, sameSlot } from "../../../src/core/write/slot.js";
import { relationAfterAWeek } from "../../helpers/relation.js";

// Kinds that lost a fact or let a stale value win on cases written without looking at the rules
// (eval/judgement/fresh18): a value that is also a common word ("Go"), an owner said on one side only, a
// count with its noun against a bare word, an aside in brackets or a closing reason said on one side only,
// a cue word between two standing rules about one place, a thing that now supports one more thing. The
// sentences here are in no case file.

const relation = relationAfterAWeek;

describe("a value that is also a common word", () => {
  it("a capitalised common word inside a sentence is a value that changed", () => {
    assert.ok(valueChanged("The log shipper is written in Go.", "The log shipper is written in Rust."));
    assert.ok(sameSlot("The invoice parser is written in Go.", "The invoice parser is written in Elixir."));
  });

  it("the same word at a sentence's start is no value", () => {
    assert.equal(valueChanged("Go to the ops wiki for the runbook.", "To the ops wiki for the runbook."), false);
  });
});

describe("what one side says about the same slot and the other does not", () => {
  it("an owner said on one side only qualifies the same thing", () => {
    assert.ok(sameSlot("The ward's paging service runs on Nomad.", "The paging service runs on Kubernetes."));
    assert.ok(sameSlot("The paging service runs on Nomad.", "The hospital's paging service runs on Kubernetes."));
  });

  it("two different owners are two things", () => {
    assert.equal(sameSlot("Marta's laptop runs Fedora.", "Jonas's laptop runs Arch."), null);
  });

  it("a count with its noun against a bare word is one value each", () => {
    assert.ok(sameSlot("The formatter indents with 4 spaces.", "The formatter indents with tabs."));
    assert.ok(sameSlot("夜间批处理失败后重试 5 次。", "夜间批处理失败后重试一次。") ?? sameSlot("The nightly batch retries 5 times.", "The nightly batch retries forever."));
  });

  it("an aside in brackets said on one side only is no part of the slot", () => {
    assert.ok(sameSlot("The pool closes at 21:00 (two lifeguards quit).", "The pool closes at 22:00."));
    assert.ok(sameSlot("食堂午餐供应到 13:30（人手不够）。", "食堂午餐供应到 14:00。"));
  });

  it("brackets on both sides may hold the values", () => {
    assert.ok(sameSlot("Backups go to the object store (region ams).", "Backups go to the object store (region fra)."));
  });

  it("a closing reason or purpose said on one side only is no part of the slot", () => {
    assert.ok(sameSlot("用户喜欢会议纪要用英文写，方便海外同事看。", "用户喜欢会议纪要用中文写。"));
    assert.ok(sameSlot("The user prefers release notes in Markdown, because the portal renders it.", "The user prefers release notes in HTML."));
  });
});

describe("standing rules and things that gain something", () => {
  it("two standing rules that end with the same place are two rules, cue word or not", () => {
    assert.equal(relation("From now on, always rebase before merging into the payments repo.", "Going forward, always sign release tags in the payments repo.", 0.9), null);
    assert.equal(relation("Always squash migrations for the billing service.", "From now on, always use UTC timestamps for the billing service.", 0.9), null);
  });

  it("two rules about one activity in one place still replace", () => {
    const r = relation("Always rebase when merging into the payments repo.", "Going forward, always squash when merging into the payments repo.", 0.92);
    assert.equal(r?.kind, "supersedes");
  });

  it("a thing that now supports one more thing keeps what it is built with", () => {
    assert.equal(relation("The Harbor kiosk app is built with Flutter.", "The kiosk app now supports contactless cards.", 0.88), null);
    assert.equal(relation("Our intranet is hosted on Confluence.", "Our intranet now includes a dark theme.", 0.88), null);
  });

  it("a thing said with a cue and another verb still replaces", () => {
    const r = relation("The staging database is hosted on RDS.", "The staging database now runs on Aurora.", 0.9);
    assert.equal(r?.kind, "supersedes");
  });
});

describe("a progress count said in the unit of its total, across languages", () => {
  it("the total first and the count after it, in the same unit, is one task's count", () => {
    const r = relation("档案数字化：300 卷里扫完了 45 卷。", "Archive digitising: 120 of 300 done", 0.85, "task_state");
    assert.equal(r?.kind, "supersedes");
  });

  it("another number of the same kind is still an item of a series", () => {
    assert.equal(relation("第二批档案：300 卷里扫完了 45 卷。", "Archive batch 3: 120 of 300 done", 0.85, "task_state"), null);
  });

  it("any measure word said after both numbers counts the total; a unit of time or measure said twice is a span", () => {
    assert.equal(progressFrame("果园补种：60 棵树种了 18 棵。")?.total, "60");
    assert.equal(progressFrame("雨季从 11 月持续到次年 4 月。"), null);
    assert.equal(progressFrame("冷藏柜温度保持在 8 度以下、2 度以上。"), null);
  });
});
