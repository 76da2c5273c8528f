import { strict as assert } from "node:assert";
import type { MemoryRecord } from "../../../src/core/model/memory.js";
import { StagedWrites } from "../../../src/core/write/stagedWrites.js";
import { InMemoryStore } from "../../../src/stores/memory/memoryStore.js";
import { FAKE_DIMENSION } from "../../helpers/fakes.js";
import { axis, memoryRecord } from "../../helpers/records.js";

/** An in-memory store that records what each updateMemories call was given. */
class RecordingStore extends InMemoryStore {
  readonly updates: Array<{ ids: string[]; vectorIds: string[]; vectors: Map<string, Float32Array> }> = [];

  override async updateMemories(records: MemoryRecord[], vectors?: ReadonlyMap<string, Float32Array>): Promise<void> {
    this.updates.push({ ids: records.map((r) => r.id), vectorIds: [...(vectors?.keys() ?? [])].sort(), vectors: new Map(vectors ?? []) });
    return super.updateMemories(records, vectors);
  }
}

describe("StagedWrites: a batch's updates carry the vectors its searches already read", () => {
  it("memories found by a search are updated with their vectors; one only read by id is left for the store to keep", async () => {
    const store = new RecordingStore();
    await store.open({ id: "fake-embedder", dimension: FAKE_DIMENSION });
    const vFound = axis(FAKE_DIMENSION, 1);
    const vText = axis(FAKE_DIMENSION, 2);
    await store.putMemories([
      { record: memoryRecord({ id: "found", content: "The gateway uses port 8443." }), vector: vFound },
      { record: memoryRecord({ id: "by-text", content: "Redis caches sessions." }), vector: vText },
      { record: memoryRecord({ id: "by-id", content: "Unit tests use Vitest." }), vector: axis(FAKE_DIMENSION, 3) },
    ]);
    const batch = new StagedWrites(store);
    const [hit] = await batch.searchMemoriesByVector(vFound, { scope: "project:a" }, 1);
    assert.equal(hit!.record.id, "found");
    await batch.searchMemoriesByText("redis sessions", { scope: "project:a" }, 5);
    const [byId] = await batch.getMemories(["by-id"]);
    await batch.updateMemories([{ ...hit!.record, confirmCount: 2 }, { ...(await batch.getMemories(["by-text"]))[0]!, accessCount: 1 }, { ...byId!, accessCount: 5 }]);
    assert.equal(store.updates.length, 0, "nothing is written before commit");

    await batch.commit(() => assert.fail("no audit"));
    assert.equal(store.updates.length, 1, "one update call for the batch");
    assert.deepEqual(store.updates[0]!.ids, ["found", "by-text", "by-id"]);
    assert.deepEqual(store.updates[0]!.vectorIds, ["by-text", "found"]);
    assert.deepEqual([...store.updates[0]!.vectors.get("found")!], [...vFound]);
    assert.equal((await store.getMemories(["by-id"]))[0]!.accessCount, 5);
    const [after] = await store.searchMemoriesByVector(axis(FAKE_DIMENSION, 3), {}, 1);
    assert.equal(after!.record.id, "by-id", "the memory without a given vector kept its own");
  });
});
