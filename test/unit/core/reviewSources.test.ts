import { strict as assert } from "node:assert";
import type { CompressionProposal } from "../../../src/core/model/proposal.js";
import { InMemoryStore } from "../../../src/stores/memory/memoryStore.js";
import { FAKE_DIMENSION, makeEngine, T0 } from "../../helpers/fakes.js";
import { axis, memoryRecord } from "../../helpers/records.js";

class CountingStore extends InMemoryStore {
  readonly gets: string[][] = [];

  override async getMemories(ids: string[]) {
    this.gets.push([...ids]);
    return super.getMemories(ids);
  }
}

function proposal(id: string, sourceIds: string[], createdAt: number): CompressionProposal {
  return {
    id,
    scope: "project:test",
    subject: "deploys",
    type: "event",
    sourceIds,
    summary: "Deploys shipped.",
    summarizer: "extractive",
    status: "pending",
    reason: "test",
    createdAt,
    decidedAt: null,
    summaryId: null,
  };
}

describe("engine.listProposalsWithSources: the review view's proposals and their sources in one store read", () => {
  it("reads every proposal's sources with one getMemories call, keeps each proposal's order, and leaves out missing and foreign memories", async () => {
    const store = new CountingStore();
    const { engine } = await makeEngine(store);
    await store.putMemories(
      [
        memoryRecord({ id: "s1", scope: "project:test" }),
        memoryRecord({ id: "s2", scope: "project:test" }),
        memoryRecord({ id: "s3", scope: "project:test" }),
        memoryRecord({ id: "foreign", scope: "project:other" }),
      ].map((record, i) => ({ record, vector: axis(FAKE_DIMENSION, i) })),
    );
    await store.putProposal(proposal("p1", ["s2", "s1", "gone"], T0));
    await store.putProposal(proposal("p2", ["s3", "s1", "foreign"], T0 + 1));
    await store.putProposal({ ...proposal("p3", ["s1"], T0 + 2), status: "rejected" });
    store.gets.length = 0;

    const review = await engine.listProposalsWithSources({ statuses: ["pending"] });
    assert.deepEqual(
      review.map((r) => [r.proposal.id, r.sources.map((m) => m.id)]),
      [
        ["p2", ["s3", "s1"]],
        ["p1", ["s2", "s1"]],
      ],
    );
    assert.equal(store.gets.length, 1, "one store read for all sources");
    assert.deepEqual([...store.gets[0]!].sort(), ["foreign", "gone", "s1", "s2", "s3"]);

    store.gets.length = 0;
    assert.deepEqual(await engine.listProposalsWithSources({ statuses: ["approved"] }), []);
    assert.equal(store.gets.length, 0, "no proposals: no read");
  });
});
