import { strict as assert } from "node:assert";
import { AccessTracker } from "../../../src/core/recall/access.js";
import { InMemoryStore } from "../../../src/stores/memory/memoryStore.js";
import { memoryRecord } from "../../helpers/records.js";

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A store that counts the writes of access counts. */
async function countingStore(ids: string[]): Promise<{ store: InMemoryStore; writes: () => number }> {
  const store = new InMemoryStore();
  await store.putMemories(ids.map((id) => ({ record: memoryRecord({ id }), vector: new Float32Array([1, 0]) })));
  let writes = 0;
  const update = store.updateMemories.bind(store);
  store.updateMemories = async (records, vectors) => {
    writes++;
    return update(records, vectors);
  };
  return { store, writes: () => writes };
}

describe("access counts reach the store when recall pauses", () => {
  it("a run of recalls writes nothing; the pause after it writes every count once", async () => {
    const { store, writes } = await countingStore(["a", "b", "c"]);
    const tracker = new AccessTracker(store, (err) => assert.fail(String(err)), { idleMs: 40 });
    for (let i = 0; i < 6; i++) {
      tracker.touch(["a", "b"], 1000 + i);
      await pause(15);
    }
    assert.equal(writes(), 0, "no write while recalls keep coming");
    assert.equal(tracker.pendingCount("a"), 6);
    await pause(80);
    assert.equal(writes(), 1);
    const [a, c] = await store.getMemories(["a", "c"]);
    assert.equal(a?.accessCount, 6);
    assert.equal(a?.lastAccessedAt, 1005);
    assert.equal(c?.accessCount, 0);
    assert.equal(tracker.pendingCount("a"), 0);
  });

  it("past the bound of waiting memories the counts are written under load", async () => {
    const ids = Array.from({ length: 10 }, (_, i) => `m${i}`);
    const { store, writes } = await countingStore(ids);
    const tracker = new AccessTracker(store, (err) => assert.fail(String(err)), { idleMs: 60_000, maxPending: 4 });
    tracker.touch(ids.slice(0, 3), 1);
    await pause(5);
    assert.equal(writes(), 0);
    tracker.touch(ids.slice(3, 5), 2);
    await tracker.flush();
    assert.equal(writes(), 1, "the bound wrote once; flush found nothing left");
    assert.deepEqual((await store.getMemories(ids.slice(0, 6))).map((m) => m.accessCount), [1, 1, 1, 1, 1, 0]);
  });

  it("flush writes what waits without waiting for the pause", async () => {
    const { store, writes } = await countingStore(["a"]);
    const tracker = new AccessTracker(store, (err) => assert.fail(String(err)), { idleMs: 60_000 });
    tracker.touch(["a"], 7);
    await tracker.flush();
    assert.equal(writes(), 1);
    assert.equal((await store.getMemories(["a"]))[0]?.accessCount, 1);
  });

  it("writes in turn with the engine's writes, so a memory replaced meanwhile stays replaced", async () => {
    const { store } = await countingStore(["a"]);
    let turn: Promise<void> = Promise.resolve();
    const inTurn = (task: () => Promise<void>): Promise<void> => (turn = turn.then(task));
    const tracker = new AccessTracker(store, (err) => assert.fail(String(err)), { idleMs: 10, inTurn });
    tracker.touch(["a"], 5);
    // A write that replaces "a" is already queued and slower than the pause: the counts must wait for it.
    void inTurn(async () => {
      await pause(40);
      const [a] = await store.getMemories(["a"]);
      await store.updateMemories([{ ...a!, status: "superseded", supersededBy: "b" }]);
    });
    await pause(20);
    await tracker.flush();
    const [a] = await store.getMemories(["a"]);
    assert.equal(a?.status, "superseded");
    assert.equal(a?.accessCount, 1);
  });
});
