import { strict as assert } from "node:assert";
import { statusBarView, type StatusBarInput } from "../../../src/extension/statusBarText.js";

const base: StatusBarInput = { state: "running", count: 31, scope: "project:github.com/acme/api", team: false, url: "http://127.0.0.1:41234", error: null };

describe("status bar: a word and the state, not a bare number", () => {
  it("running: the word Memory and the count; the tooltip names the scope and the server", () => {
    const v = statusBarView(base);
    assert.equal(v.text, "$(database) Memory 31");
    assert.match(v.tooltip, /31 active memories in `project:github\.com\/acme\/api`/);
    assert.match(v.tooltip, /local server at http:\/\/127\.0\.0\.1:41234/);
    assert.match(v.accessibility, /^Hindsight memory, 31 active memories, project project:github\.com\/acme\/api/);
    assert.equal(v.failed, false);
    assert.equal(statusBarView({ ...base, count: 1 }).text, "$(database) Memory 1");
    assert.match(statusBarView({ ...base, count: 1 }).tooltip, /1 active memory in/);
    assert.equal(statusBarView({ ...base, count: null }).text, "$(database) Memory", "no number rather than a wrong one");
  });

  it("a team server has its own icon and says so", () => {
    const v = statusBarView({ ...base, team: true, url: "https://memory.acme.dev" });
    assert.equal(v.text, "$(organization) Memory 31");
    assert.match(v.tooltip, /team server at https:\/\/memory\.acme\.dev/);
  });

  it("starting, offline (with the reason) and idle are said in words", () => {
    assert.equal(statusBarView({ ...base, state: "starting" }).text, "$(loading~spin) Memory: starting…");
    const failed = statusBarView({ ...base, state: "failed", error: "the owner ended unexpectedly (signal SIGKILL)" });
    assert.equal(failed.text, "$(error) Memory: offline");
    assert.equal(failed.failed, true);
    assert.match(failed.tooltip, /not reachable: the owner ended unexpectedly \(signal SIGKILL\)/);
    assert.doesNotMatch(failed.tooltip, /31/, "a count from before the failure is not shown as current");
    const idle = statusBarView({ ...base, state: "stopped", url: null });
    assert.equal(idle.text, "$(circle-outline) Memory: idle");
    assert.match(idle.tooltip, /starts on first use/);
    assert.match(idle.tooltip, /`project:github\.com\/acme\/api`/);
  });
});
