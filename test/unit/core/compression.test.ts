import { strict as assert } from "node:assert";
import { MemoryEngine } from "../../../src/core/engine.js";
import { HindsightError } from "../../../src/core/errors.js";
import type { LlmClient } from "../../../src/core/ports.js";
import { InMemoryStore } from "../../../src/stores/memory/memoryStore.js";
import { DAY, FakeEmbedder, FixedClock, makeEngine, rejection } from "../../helpers/fakes.js";

async function writeDeploys(engine: MemoryEngine, clock: FixedClock, count: number, everyDays: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 1; i <= count; i++) {
    const w = await engine.write({ content: `Billing deploy ${i} shipped ${i * 3} migrations to region eu-${i}.`, type: "event", subject: "billing deploys" });
    ids.push(w.id as string);
    clock.advance(everyDays * DAY);
  }
  return ids;
}

describe("compression with review", () => {
  it("proposes a summary once a subject+type passes the thresholds, and changes nothing before approval", async () => {
    const { engine, clock } = await makeEngine();
    await writeDeploys(engine, clock, 11, 1);
    const [proposal, ...more] = await engine.proposeCompressions();
    assert.equal(more.length, 0);
    assert.ok(proposal);
    assert.equal(proposal.status, "pending");
    assert.equal(proposal.sourceIds.length, 11);
    assert.equal(proposal.summarizer, "extractive");
    for (let i = 1; i <= 11; i++) assert.ok(proposal.summary.includes(`${i * 3} migrations`), `summary lost the number of deploy ${i}`);
    assert.equal((await engine.list({ types: ["event"] })).length, 11);
    assert.deepEqual(await engine.proposeCompressions(), [], "a group already waiting for review is not proposed twice");
  });

  it("does not propose below the item count or the time span", async () => {
    const few = await makeEngine();
    await writeDeploys(few.engine, few.clock, 10, 1);
    assert.deepEqual(await few.engine.proposeCompressions(), []);
    const quick = await makeEngine();
    await writeDeploys(quick.engine, quick.clock, 12, 0.5);
    assert.deepEqual(await quick.engine.proposeCompressions(), []);
  });

  it("approve archives the originals with a link; recall finds the summary; rollback restores them", async () => {
    const { engine, clock } = await makeEngine();
    const ids = await writeDeploys(engine, clock, 11, 1);
    const [proposal] = await engine.proposeCompressions();
    const approved = await engine.approveProposal(proposal!.id);
    assert.equal(approved.status, "approved");
    const summary = await engine.get(approved.summaryId as string);
    assert.equal(summary.status, "active");
    assert.deepEqual(summary.tags, ["summary"]);
    const original = await engine.get(ids[0] as string);
    assert.equal(original.status, "archived");
    assert.equal(original.compressedInto, summary.id);
    const r = await engine.recall({ query: "billing deploy migrations region", k: 10 });
    assert.deepEqual(r.memories.map((m) => m.id), [summary.id]);

    const rolledBack = await engine.rollbackProposal(proposal!.id);
    assert.equal(rolledBack.status, "rolled_back");
    assert.equal((await engine.get(ids[0] as string)).status, "active");
    assert.equal((await engine.get(ids[0] as string)).compressedInto, null);
    assert.equal((await engine.get(summary.id)).status, "archived");
    assert.equal((await engine.list({ types: ["event"] })).length, 11);
  });

  it("reject drops the proposal and leaves the memories alone; decided proposals cannot be decided again", async () => {
    const { engine, clock } = await makeEngine();
    await writeDeploys(engine, clock, 11, 1);
    const [proposal] = await engine.proposeCompressions();
    const rejected = await engine.rejectProposal(proposal!.id);
    assert.equal(rejected.status, "rejected");
    assert.equal((await engine.list({ types: ["event"] })).length, 11);
    const again = await rejection(engine.approveProposal(proposal!.id));
    assert.ok(HindsightError.is(again, "INVALID_INPUT"));
    assert.ok(HindsightError.is(await rejection(engine.approveProposal("nope")), "NOT_FOUND"));
    assert.deepEqual((await engine.listProposals({ statuses: ["rejected"] })).map((p) => p.id), [proposal!.id]);
  });

  it("summarize by subject/type and time window, and propose on request", async () => {
    const { engine, clock } = await makeEngine();
    const start = clock.now();
    await writeDeploys(engine, clock, 4, 2);
    await engine.write({ content: "Indentation uses tabs.", type: "constraint" });
    const windowed = await engine.summarize({ subject: "billing deploys", type: "event", since: new Date(start + DAY).toISOString() });
    assert.equal(windowed.sourceIds.length, 3);
    assert.ok(!windowed.summary.includes("Billing deploy 1 "));
    assert.equal(windowed.proposal, null);
    const byTopic = await engine.summarize({ topic: "indentation tabs" });
    assert.equal(byTopic.sourceIds.length, 1);
    const proposed = await engine.summarize({ subject: "billing deploys", propose: true });
    assert.equal(proposed.proposal?.status, "pending");
    assert.equal((await engine.listProposals({ statuses: ["pending"] })).length, 1);
    const bad = await rejection(engine.summarize({ since: "2026-05-01", until: "2026-04-01" }));
    assert.ok(HindsightError.is(bad, "INVALID_INPUT") && bad.field === "since");
  });

  it("uses the LLM for the summary when one is configured, and falls back when it fails", async () => {
    const clock = new FixedClock();
    const ok: LlmClient = { id: "fake-llm", complete: async () => "Eleven billing deploys shipped 198 migrations in total." };
    const engine = new MemoryEngine({ store: new InMemoryStore(), embedder: new FakeEmbedder(), clock, llm: ok }, { defaultScope: "project:test" });
    await engine.open();
    await writeDeploys(engine, clock, 11, 1);
    const [p] = await engine.proposeCompressions();
    assert.equal(p?.summarizer, "llm");
    assert.equal(p?.summary, "Eleven billing deploys shipped 198 migrations in total.");

    const failing: LlmClient = { id: "down", complete: async () => Promise.reject(new Error("connection refused")) };
    const engine2 = new MemoryEngine({ store: new InMemoryStore(), embedder: new FakeEmbedder(), clock, llm: failing }, { defaultScope: "project:test" });
    await engine2.open();
    await writeDeploys(engine2, clock, 11, 1);
    const [p2] = await engine2.proposeCompressions();
    assert.equal(p2?.summarizer, "extractive");
    assert.match(p2?.reason ?? "", /llm failed: connection refused/);
  });
});
