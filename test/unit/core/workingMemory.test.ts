import { strict as assert } from "node:assert";
import { DAY, makeEngine, MINUTE } from "../../helpers/fakes.js";

const HOUR = 60 * MINUTE;

describe("working memory (L1)", () => {
  it("task state of the session comes first, whatever the query", async () => {
    const { engine, clock } = await makeEngine();
    await engine.write({ content: "The billing service is written in Go.", type: "fact" });
    await engine.write({ content: "Refactor of the billing service: step 2 of 4 is done.", type: "task_state", sessionId: "s1" });
    clock.advance(MINUTE);
    const r = await engine.recall({ query: "Which language is the billing service written in?", sessionId: "s1" });
    assert.equal(r.memories[0]?.layer, "L1");
    assert.match(r.memories[0]?.content ?? "", /step 2 of 4/);
    assert.ok(r.memories.some((m) => m.content.includes("written in Go")));
  });

  it("another session's task state is not offered first", async () => {
    const { engine } = await makeEngine();
    await engine.write({ content: "Refactor of the billing service: step 2 of 4 is done.", type: "task_state", sessionId: "s1" });
    await engine.write({ content: "The billing service is written in Go.", type: "fact" });
    const r = await engine.recall({ query: "Which language is the billing service written in?", sessionId: "s2" });
    assert.match(r.memories[0]?.content ?? "", /written in Go/);
  });

  it("task state is short-lived working memory: it leaves listings after the configured hours, and stays the task's last known state", async () => {
    const { engine, clock } = await makeEngine(undefined, { write: { taskStateTtlHours: 24 } });
    const w = await engine.write({ content: "Migration step 3 of 5 is done.", type: "task_state", sessionId: "s1" });
    assert.equal(w.memory?.layer, "L1");
    assert.equal(w.memory?.validUntil, clock.now() + DAY);
    assert.equal((await engine.list({ types: ["task_state"] })).length, 1);
    clock.advance(DAY + MINUTE);
    assert.equal((await engine.list({ types: ["task_state"] })).length, 0);
    const r = await engine.recall({ query: "How far along is the migration?", sessionId: "s2" });
    assert.deepEqual(r.memories.map((m) => m.id), [w.id], "what the task last stood at still answers");
    clock.advance(DAY);
    const next = await engine.write({ content: "Migration step 5 of 5 is done.", type: "task_state" });
    assert.deepEqual(next.supersedes, [w.id], "a newer state replaces the last known one after its lifetime too");
  });

  it("a task state bounded by the speaker or the caller expires from recall too", async () => {
    const { engine, clock } = await makeEngine();
    await engine.write({ content: "Load test: running until tonight.", type: "task_state", validUntil: new Date(clock.now() + HOUR).toISOString() });
    clock.advance(2 * HOUR);
    assert.deepEqual((await engine.recall({ query: "load test" })).memories, []);
  });

  it("an explicit valid_until on task state wins over the default lifetime", async () => {
    const { engine, clock } = await makeEngine();
    const until = new Date(clock.now() + 10 * DAY).toISOString();
    const w = await engine.write({ content: "Release checklist: 4 of 9 items done.", type: "task_state", validUntil: until });
    assert.equal(w.memory?.validUntil, Date.parse(until));
  });
});
