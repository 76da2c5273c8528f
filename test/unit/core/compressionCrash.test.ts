import { strict as assert } from "node:assert";
import type { MemoryRecord } from "../../../src/core/model/memory.js";
import { InMemoryStore } from "../../../src/stores/memory/memoryStore.js";
import { MemoryEngine } from "../../../src/core/engine.js";
import { DAY, FakeEmbedder, FixedClock, makeEngine } from "../../helpers/fakes.js";

/** A new process on the same store: its own ids, so nothing it makes collides with the first one's. */
async function reopen(store: DyingStore): Promise<{ engine: MemoryEngine }> {
  let n = 0;
  const engine = new MemoryEngine({ store, embedder: new FakeEmbedder(), clock: new FixedClock(), newId: () => `after-${++n}` }, { defaultScope: "project:test" });
  await engine.open();
  return { engine };
}

/** A store that dies (throws, as a killed process stops) at its n-th write of one kind. */
class DyingStore extends InMemoryStore {
  dieAt: { op: "putMemories" | "updateMemories" | "putProposal"; nth: number } | null = null;
  private readonly seen = new Map<string, number>();

  private tick(op: "putMemories" | "updateMemories" | "putProposal"): void {
    const n = (this.seen.get(op) ?? 0) + 1;
    this.seen.set(op, n);
    if (this.dieAt && this.dieAt.op === op && this.dieAt.nth === n) throw new Error(`killed before ${op} #${n}`);
  }

  override async putMemories(items: Array<{ record: MemoryRecord; vector: Float32Array }>): Promise<void> {
    this.tick("putMemories");
    return super.putMemories(items);
  }

  override async updateMemories(records: MemoryRecord[]): Promise<void> {
    this.tick("updateMemories");
    return super.updateMemories(records);
  }

  override async putProposal(...args: Parameters<InMemoryStore["putProposal"]>): Promise<void> {
    this.tick("putProposal");
    return super.putProposal(...args);
  }

  arm(op: "putMemories" | "updateMemories" | "putProposal", after: number): void {
    this.seen.clear();
    this.dieAt = { op, nth: after };
  }
}

async function proposalOn(store: DyingStore) {
  const t = await makeEngine(store);
  for (let i = 1; i <= 11; i++) {
    await t.engine.write({ content: `Billing deploy ${i} shipped ${i * 3} migrations to region eu-${i}.`, type: "event", subject: "billing deploys" });
    t.clock.advance(DAY);
  }
  const [proposal] = await t.engine.proposeCompressions();
  return { ...t, proposal: proposal! };
}

/** What recall can still reach: the active event memories' contents. */
async function readable(store: DyingStore): Promise<string[]> {
  return (await store.listMemories({ statuses: ["active"], types: ["event"] })).map((m) => m.content);
}

describe("compression decisions cut short by a crash are completed or undone on the next open", () => {
  // Each step of an approval: the intent, the summary, the archive of the originals, the decision.
  const approvalSteps = [
    { op: "putProposal", nth: 1, expect: "pending" },
    { op: "putMemories", nth: 1, expect: "pending" },
    { op: "updateMemories", nth: 1, expect: "approved" },
    { op: "putProposal", nth: 2, expect: "approved" },
  ] as const;

  for (const step of approvalSteps) {
    it(`approval killed before ${step.op} #${step.nth}: nothing is lost meanwhile, and the reopened engine leaves it ${step.expect}, complete`, async () => {
      const store = new DyingStore();
      const { engine, proposal } = await proposalOn(store);
      store.arm(step.op, step.nth);
      await assert.rejects(engine.approveProposal(proposal.id), /killed before/);
      store.dieAt = null;
      // Between the steps every deploy is still readable, in the originals or in a stored summary.
      const mid = await readable(store);
      for (let i = 1; i <= 11; i++) assert.ok(mid.some((c) => c.includes(`${i * 3} migrations`)), `deploy ${i} unreadable after the crash`);

      const { engine: reopened } = await reopen(store);
      const after = (await reopened.listProposals()).find((p) => p.id === proposal.id)!;
      assert.equal(after.status, step.expect);
      const active = await store.listMemories({ statuses: ["active"], types: ["event"] });
      if (step.expect === "approved") {
        assert.equal(active.length, 1, "only the summary is active");
        assert.equal(active[0]!.id, after.summaryId);
        const archived = await store.listMemories({ statuses: ["archived"] });
        assert.equal(archived.filter((m) => m.compressedInto === after.summaryId).length, 11);
      } else {
        assert.equal(active.length, 11, "the originals are active and no summary is");
        assert.equal(after.summaryId, null);
        const approved = await reopened.approveProposal(proposal.id);
        assert.equal(approved.status, "approved");
        assert.equal((await store.listMemories({ statuses: ["active"], types: ["event"] })).length, 1);
      }
    });
  }

  it("a retried approval of a proposal cut short after its summary was stored does not make a second summary", async () => {
    const store = new DyingStore();
    const { engine, proposal } = await proposalOn(store);
    store.arm("updateMemories", 1);
    await assert.rejects(engine.approveProposal(proposal.id));
    store.dieAt = null;
    const approved = await engine.approveProposal(proposal.id);
    assert.equal(approved.status, "approved");
    const summaries = (await store.listMemories({ statuses: ["active", "archived"] })).filter((m) => m.tags.includes("summary"));
    assert.equal(summaries.length, 1);
  });

  it("rollback killed after the originals were restored: reopening archives the summary and marks it rolled back", async () => {
    const store = new DyingStore();
    const { engine, proposal } = await proposalOn(store);
    const approved = await engine.approveProposal(proposal.id);
    store.arm("updateMemories", 2);
    await assert.rejects(engine.rollbackProposal(proposal.id));
    store.dieAt = null;
    const mid = await readable(store);
    assert.equal(mid.length, 12, "originals back, summary not yet archived: both readable");
    const { engine: reopened } = await reopen(store);
    const after = (await reopened.listProposals({ statuses: ["rolled_back"] })).find((p) => p.id === proposal.id);
    assert.ok(after, "rolled back");
    const active = await store.listMemories({ statuses: ["active"], types: ["event"] });
    assert.equal(active.length, 11);
    assert.ok(!active.some((m) => m.id === approved.summaryId));
  });
});
