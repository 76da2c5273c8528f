import { strict as assert } from "node:assert";
import { sameSlot } from "../../../src/core/write/slot.js";
import { relationAfterAWeek } from "../../helpers/relation.js";

// A kind that let a stale value win on cases written without looking at the rules (eval/judgement/fresh19):
// the same statement up to its copula, then a complement of several words with no name or number in it.
// The sentences here are in no case file.

const relation = relationAfterAWeek;

describe("a return to an earlier value", () => {
  it("is a change announced in so many words, and replaces the change it undoes", () => {
    for (const [older, newer] of [
      ["运费规则改了：满 99 包邮改成满 129 包邮。", "运费规则又恢复成满 99 包邮了，129 那版投诉太多。"],
      ["The upload quota was raised from 50 GB to 80 GB.", "The upload quota was reverted to 50 GB after the storage bill came in."],
    ]) {
      assert.equal(relation(older as string, newer as string, 0.9)?.kind, "supersedes", `${older} / ${newer}`);
    }
  });
});

describe("the same statement up to its copula, another complement", () => {
  it("is one attribute with a new value, however many plain words the value takes, and a comment after it changes nothing", () => {
    for (const [older, newer] of [
      ["门诊挂号系统的短信通道是运营商直连。", "门诊挂号系统的短信通道是第三方聚合平台，到达率更高。"],
      ["仓库盘点报表的接收人是区域经理。", "仓库盘点报表的接收人是总部的财务专员。"],
      ["The fallback for declined card payments is a manual invoice.", "The fallback for declined card payments is a bank transfer link."],
    ]) {
      assert.ok(sameSlot(newer as string, older as string), `${older} / ${newer}`);
      assert.equal(relation(older as string, newer as string, 0.9)?.kind, "supersedes", `${older} / ${newer}`);
    }
  });

  it("is no one attribute when the new complement keeps the old value, the noun names one of many, or the older says more", () => {
    assert.equal(sameSlot("门诊挂号系统的负责人是信息科和外包团队。", "门诊挂号系统的负责人是信息科。"), null, "the old value kept: an addition");
    assert.equal(sameSlot("仓库其中一条规则是夜班不许单人进冷库。", "仓库其中一条规则是叉车必须持证驾驶。"), null);
    assert.equal(sameSlot("One of the onboarding steps is a security quiz.", "One of the onboarding steps is a laptop handover."), null);
    assert.notEqual(relation("仓库盘点报表的接收人是区域经理，抄送店长。", "仓库盘点报表的接收人是总部的财务专员。", 0.9)?.kind, "supersedes", "the older's second clause would be lost");
  });
});

describe("a bare thing before the copula", () => {
  it("names no attribute: the predicate after it does, so two predicates are two attributes", () => {
    assert.equal(relation("payroll-sync is written in Kotlin.", "payroll-sync is owned by the Treasury team.", 0.9), null);
    assert.equal(relation("对账服务的网关是用 Go 写的。", "对账服务的网关是部署在华北集群上的。", 0.9), null);
  });
});
