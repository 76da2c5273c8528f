import { strict as assert } from "node:assert";
import { parseValidUntil } from "../../../src/core/write/validity.js";

// Wednesday 2026-03-18 10:00 UTC
const NOW = Date.UTC(2026, 2, 18, 10, 0, 0);
const END_OF_SUNDAY = Date.UTC(2026, 2, 22, 23, 59, 59, 999);
const END_OF_MARCH = Date.UTC(2026, 3, 1) - 1;

describe("write/validity.parseValidUntil", () => {
  it('"this week" ends at the end of Sunday (UTC)', () => {
    const t = parseValidUntil("Use the staging cluster this week.", NOW);
    assert.equal(t, END_OF_SUNDAY);
    assert.equal(new Date(t!).getUTCDay(), 0);
  });

  it('"this week" said on a Sunday ends that same day', () => {
    const sunday = Date.UTC(2026, 2, 22, 8, 0, 0);
    assert.equal(parseValidUntil("Deploys are frozen this week.", sunday), END_OF_SUNDAY);
  });

  it('"本周内" ends at the end of Sunday', () => {
    assert.equal(parseValidUntil("本周内用备用服务器。", NOW), END_OF_SUNDAY);
  });

  it('"这个月" and "this month" end at the end of the month', () => {
    assert.equal(parseValidUntil("这个月暂停发布。", NOW), END_OF_MARCH);
    assert.equal(parseValidUntil("No releases this month.", NOW), END_OF_MARCH);
  });

  it('"until March 20" ends at the end of that day', () => {
    assert.equal(parseValidUntil("Code freeze until March 20.", NOW), Date.UTC(2026, 2, 20, 23, 59, 59, 999));
  });

  it('"until March 1" already past this year rolls to next year', () => {
    assert.equal(parseValidUntil("Code freeze until March 1.", NOW), Date.UTC(2027, 2, 1, 23, 59, 59, 999));
  });

  it('"until Friday" ends on the coming Friday', () => {
    assert.equal(parseValidUntil("Keep the feature flag on until Friday.", NOW), Date.UTC(2026, 2, 20, 23, 59, 59, 999));
  });

  it('"3月25日之前" ends at the end of that day', () => {
    assert.equal(parseValidUntil("3月25日之前不要发布。", NOW), Date.UTC(2026, 2, 25, 23, 59, 59, 999));
  });

  it('"from today on" and "从今天开始" do not bound anything', () => {
    assert.equal(parseValidUntil("From today on we review every PR.", NOW), null);
    assert.equal(parseValidUntil("从今天开始用中文回复。", NOW), null);
  });

  it("text without a temporal phrase has no bound", () => {
    assert.equal(parseValidUntil("We use PostgreSQL 16.", NOW), null);
  });

  it("a change or event dated this week or month is not bounded by it; a state, rule or plan is", () => {
    for (const done of [
      "Our on-call rotation moved to Opsgenie this week.",
      "The QA team has rewritten the smoke tests this month.",
      "Priya took over the billing service this week.",
      "这个月把日志迁到了对象存储。",
      "这周已经把支付切到新网关。",
    ]) assert.equal(parseValidUntil(done, NOW), null, done);
    for (const bounded of ["The wiki is read-only this week.", "They're closed this week.", "The API is rate-limited this week.", "Nobody merges to main this week.", "这周不营业了。", "本月暂停接新客户。"]) {
      assert.notEqual(parseValidUntil(bounded, NOW), null, bounded);
    }
  });

  it("a period that says when something began does not bound it", () => {
    assert.equal(parseValidUntil("Effective this month, invoices go out in EUR.", NOW), null);
    assert.equal(parseValidUntil("Starting this week the standup is at 9:30.", NOW), null);
    assert.equal(parseValidUntil("自本月起按新价收费。", NOW), null);
    assert.equal(parseValidUntil("从这周开始周会改到周二。", NOW), null);
  });
});
