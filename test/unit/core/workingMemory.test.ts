import { strict as assert } from "node:assert";
import { MemoryEngine } from "../../../src/core/engine.js";
import { DAY, FakeEmbedder, FixedClock, makeEngine, MINUTE } from "../../helpers/fakes.js";

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

  it("task state is short-lived working memory: after the configured hours it is no longer offered first, and stays listed and recalled as the task's last known state", async () => {
    const { engine, clock } = await makeEngine(undefined, { write: { taskStateTtlHours: 24 } });
    await engine.write({ content: "The invoicing job runs on a Raspberry Pi in the back office.", type: "fact" });
    const w = await engine.write({ content: "Kiln firing log: 12 of 30 glaze tests are fired.", type: "task_state", sessionId: "s1" });
    assert.equal(w.memory?.layer, "L1");
    assert.equal(w.memory?.validUntil, null, "no lifetime is stored as a bound");
    const unrelated = "Where does the invoicing job run?";
    assert.equal((await engine.recall({ query: unrelated, sessionId: "s1" })).memories[0]?.id, w.id, "within its hours it comes first in its session");
    clock.advance(DAY + MINUTE);
    assert.equal((await engine.list({ types: ["task_state"] })).length, 1, "still listed");
    assert.notEqual((await engine.recall({ query: unrelated, sessionId: "s1" })).memories[0]?.id, w.id, "no longer pushed first");
    const r = await engine.recall({ query: "How far along are the glaze tests?", sessionId: "s2" });
    assert.equal(r.memories[0]?.id, w.id, "what the task last stood at still answers");
    clock.advance(DAY);
    const next = await engine.write({ content: "Kiln firing log: 30 of 30 glaze tests are fired.", type: "task_state" });
    assert.deepEqual(next.supersedes, [w.id], "a newer state replaces the last known one after its lifetime too");
    assert.deepEqual((await engine.list({ types: ["task_state"] })).map((m) => m.id), [next.id]);
  });

  it("a store whose task state carries its week as valid_until lists it again once opened; a bound someone gave stays", async () => {
    const { engine, clock, store } = await makeEngine(undefined, { write: { taskStateTtlHours: 24 } });
    const old = await engine.write({ content: "投标文件：技术标写完了，商务标还差报价。", type: "task_state" });
    const bounded = await engine.write({ content: "Stocktake in the cold room: aisle 4 of 9 counted.", type: "task_state", validUntil: new Date(clock.now() + 3 * HOUR).toISOString() });
    assert.ok(old.id !== null && bounded.id !== null);
    const [a, b] = await store.getMemories([old.id, bounded.id]);
    assert.ok(a && b);
    // What an earlier version wrote: the lifetime as a bound.
    await store.updateMemories([{ ...a, validUntil: a.createdAt + DAY }]);
    clock.advance(2 * DAY);
    assert.deepEqual((await engine.list({ types: ["task_state"] })).map((m) => m.id), [], "hidden before the store is reopened");
    const reopened = new MemoryEngine({ store, embedder: new FakeEmbedder(), clock }, { defaultScope: "project:test", write: { taskStateTtlHours: 24 } });
    await reopened.open();
    assert.deepEqual((await reopened.list({ types: ["task_state"] })).map((m) => m.id), [old.id]);
    assert.equal((await store.getMemories([bounded.id]))[0]?.validUntil, b.validUntil);
  });

  it("a store that cannot be written opens all the same, its old task states as they were", async () => {
    const { engine, store } = await makeEngine(undefined, { write: { taskStateTtlHours: 24 } });
    const w = await engine.write({ content: "Boiler service: burner cleaned, flue check pending.", type: "task_state" });
    assert.ok(w.id !== null);
    const [record] = await store.getMemories([w.id]);
    assert.ok(record);
    await store.updateMemories([{ ...record, validUntil: record.createdAt + DAY }]);
    const refusing = Object.assign(Object.create(store) as typeof store, {
      readOnly: true,
      updateMemories: () => Promise.reject(new Error("read-only")),
    });
    const reopened = new MemoryEngine({ store: refusing, embedder: new FakeEmbedder(), clock: new FixedClock() }, { defaultScope: "project:test", write: { taskStateTtlHours: 24 } });
    await reopened.open();
    assert.equal((await store.getMemories([w.id]))[0]?.validUntil, record.createdAt + DAY);
    const failing = Object.assign(Object.create(store) as typeof store, { updateMemories: () => Promise.reject(new Error("disk full")) });
    await new MemoryEngine({ store: failing, embedder: new FakeEmbedder(), clock: new FixedClock() }, { defaultScope: "project:test", write: { taskStateTtlHours: 24 } }).open();
  });

  it("an export whose task state carries its week as valid_until is listed like the rest once imported", async () => {
    const source = await makeEngine(undefined, { write: { taskStateTtlHours: 24 } });
    const w = await source.engine.write({ content: "Greenhouse glazing: 14 of 40 panes replaced.", type: "task_state" });
    assert.ok(w.id !== null);
    const [record] = await source.store.getMemories([w.id]);
    assert.ok(record);
    await source.store.updateMemories([{ ...record, validUntil: record.createdAt + DAY }]);
    const exported = await source.engine.exportJsonl();
    const { engine, clock } = await makeEngine(undefined, { write: { taskStateTtlHours: 24 } });
    await engine.importJsonl(exported);
    clock.advance(3 * DAY);
    assert.deepEqual((await engine.list({ types: ["task_state"] })).map((m) => m.content), ["Greenhouse glazing: 14 of 40 panes replaced."]);
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
