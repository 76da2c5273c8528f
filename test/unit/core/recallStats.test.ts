import { strict as assert } from "node:assert";
import type { RecallStatsRecord } from "../../../src/core/ports.js";
import { InMemoryStore } from "../../../src/stores/memory/memoryStore.js";
import { makeEngine, T0 } from "../../helpers/fakes.js";

const HOUR = 3_600_000;

describe("recall statistics belong to the store, not the process", () => {
  it("a restarted engine on the same store continues the count, the hit rate and the hourly history", async () => {
    const store = new InMemoryStore();
    const first = await makeEngine(store);
    await first.engine.write({ content: "We use pnpm for installs.", type: "fact" });
    await first.engine.recall({ query: "which package manager for installs?" });
    await first.engine.recall({ query: "zebra giraffe savanna" });
    first.clock.advance(HOUR);
    await first.engine.recall({ query: "pnpm installs" });
    const before = (await first.engine.stats()).recall;
    assert.equal(before.count, 3);
    assert.equal(before.hits, 2);
    assert.deepEqual(
      before.history.map((h) => [h.at - Math.floor(T0 / HOUR) * HOUR, h.count, h.hits]),
      [
        [0, 2, 1],
        [HOUR, 1, 1],
      ],
    );
    assert.ok(before.history.every((h) => typeof h.p50Ms === "number" && typeof h.p95Ms === "number"));
    assert.equal(before.since, T0);
    await first.engine.close();

    const second = await makeEngine(store);
    second.clock.advance(2 * HOUR);
    const reopened = (await second.engine.stats()).recall;
    assert.deepEqual({ ...reopened }, { ...before }, "the reopened engine reports what the first one did");
    await second.engine.recall({ query: "pnpm" });
    const after = (await second.engine.stats()).recall;
    assert.equal(after.count, 4);
    assert.equal(after.hitRate, 0.75);
    assert.equal(after.since, T0, "counting did not start again");
    assert.deepEqual(after.history.map((h) => h.count), [2, 1, 1]);
    await second.engine.close();
  });

  it("is written to the store every few recalls, not only on close (a killed owner keeps most of it)", async () => {
    const store = new InMemoryStore();
    const { engine } = await makeEngine(store);
    for (let i = 0; i < 16; i++) await engine.recall({ query: `question ${i}` });
    await new Promise((r) => setImmediate(r));
    assert.equal((await store.getRecallStats())?.count, 16);
    await engine.close();
  });

  it("a stored document it cannot read starts the statistics again instead of failing", async () => {
    const store = new InMemoryStore();
    await store.putRecallStats({ since: 1, count: "many" } as unknown as RecallStatsRecord);
    const { engine } = await makeEngine(store);
    const s = (await engine.stats()).recall;
    assert.equal(s.count, 0);
    assert.deepEqual(s.history, []);
    await engine.close();
  });
});
