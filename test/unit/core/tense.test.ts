import { strict as assert } from "node:assert";
import { tellsWhatHappened } from "../../../src/core/text/tense.js";

describe("text/tense.tellsWhatHappened", () => {
  it("past and present perfect statements report an event", () => {
    for (const s of [
      "Marta handed the on-call pager to Jonas.",
      "The search index was rebuilt overnight.",
      "We've retired the old VPN.",
      "The billing team has migrated every invoice template.",
      "Ops took the legacy cluster offline.",
      "这个季度把监控迁到了 Grafana Cloud。",
      "财务系统已经上线新的报销流程。",
    ]) assert.ok(tellsWhatHappened(s), s);
  });

  it("states, rules and plans do not, even with a participle in them", () => {
    for (const s of [
      "The wiki is locked for edits.",
      "The old branch stays protected.",
      "The migration will be finished next sprint.",
      "Use the rate-limited endpoint for exports.",
      "They're closed on public holidays.",
      "Keep the feature flag on.",
      "仓库这几天暂停发货。",
      "这个月不接新单了。",
    ]) assert.ok(!tellsWhatHappened(s), s);
  });
});
