import { strict as assert } from "node:assert";
import { currentHolders } from "../../../src/core/recall/lineage.js";
import { MemoryEngine } from "../../../src/core/engine.js";
import type { Reranker } from "../../../src/core/ports.js";
import { InMemoryStore } from "../../../src/stores/memory/memoryStore.js";
import { DAY, FakeEmbedder, FixedClock, makeEngine } from "../../helpers/fakes.js";

/** The id of a write that must have stored a memory. */
function idOf(w: { id: string | null }): string {
  assert.ok(w.id, "the write stored a memory");
  return w.id;
}

describe("recall: a question that finds a replaced memory is led to what replaced it (fakes)", () => {
  async function replacedOnce(config = {}) {
    const t = await makeEngine(undefined, config);
    const old = await t.engine.write({ content: "Receipt emails are delivered by Mailgun.", type: "fact" });
    await t.engine.write({ content: "Receipt emails are archived for seven years.", type: "fact" });
    t.clock.advance(3 * DAY);
    const now = await t.engine.write({ content: "Receipts now go out via Postmark.", type: "fact", replaces: [idOf(old)] });
    return { ...t, old, now };
  }

  it("the successor ranks first on its predecessor's evidence; the replaced memory never comes back", async () => {
    const { engine, old, now } = await replacedOnce();
    const r = await engine.recall({ query: "Who delivers receipt emails?" });
    assert.equal(r.memories[0]?.id, now.id, r.text);
    assert.ok(!r.memories.some((m) => m.id === old.id), r.text);
  });

  it("off, the successor is left to its own words", async () => {
    const { engine, now } = await replacedOnce({ recall: { followReplacements: false } });
    const r = await engine.recall({ query: "Who delivers receipt emails?" });
    assert.notEqual(r.memories[0]?.id, now.id, r.text);
  });

  it("stage 2 reads the successor in the words of the memory it was found through", async () => {
    const seen: string[] = [];
    const reranker: Reranker = {
      id: "fake-second-opinion",
      kind: "bi-encoder",
      score: async (_q, docs) => {
        seen.push(...docs);
        return docs.map(() => 0.5);
      },
    };
    const engine = new MemoryEngine({ store: new InMemoryStore(), embedder: new FakeEmbedder(), clock: new FixedClock(), reranker }, { defaultScope: "project:test" });
    await engine.open();
    const old = await engine.write({ content: "Receipt emails are delivered by Mailgun.", type: "fact" });
    await engine.write({ content: "Receipts now go out via Postmark.", type: "fact", replaces: [idOf(old)] });
    await engine.recall({ query: "Who delivers receipt emails?" });
    assert.deepEqual(seen, ["Receipt emails are delivered by Mailgun."]);
  });

  it("follows a chain of replacements to the memory that holds the slot now, within the filter", async () => {
    const { engine, store, clock } = await makeEngine();
    const a = await engine.write({ content: "Nightly backups are written to tape.", type: "fact" });
    clock.advance(DAY);
    const b = await engine.write({ content: "Backups moved to a NAS.", type: "fact", replaces: [idOf(a)] });
    clock.advance(DAY);
    const c = await engine.write({ content: "Now it is object storage in Frankfurt.", type: "fact", replaces: [idOf(b)] });
    const [ra, rb] = await store.getMemories([idOf(a), idOf(b)]);
    const heads = await currentHolders(store, [ra!, rb!], { scope: "project:test" });
    assert.equal(heads.get(idOf(a))?.id, c.id);
    assert.equal(heads.get(idOf(b))?.id, c.id);
    assert.equal((await currentHolders(store, [ra!], { scope: "project:other" })).size, 0, "another scope's filter leads nowhere");
    assert.equal((await currentHolders(store, [ra!], { scope: "project:test", types: ["preference"] })).size, 0, "nor does a type filter that excludes the head");
    const r = await engine.recall({ query: "Where are nightly backups written?" });
    assert.equal(r.memories[0]?.id, c.id, r.text);
  });

  it("a near tie between a predecessor's words and another memory's own words goes to the other memory", async () => {
    const { engine } = await makeEngine();
    // A tie in words: as many indexed words each, full-text statistics over active and replaced memories alike (as LanceDB's).
    const own = await engine.write({ content: "The wiki runs on Fly in Amsterdam.", type: "fact" });
    const old = await engine.write({ content: "The wiki runs on Jenkins in Helsinki.", type: "fact" });
    const successor = await engine.write({ content: "Its pipelines moved to Buildkite.", type: "fact", replaces: [idOf(old)] });
    const r = await engine.recall({ query: "What does the wiki run on?" });
    assert.equal(r.memories[0]?.id, own.id, r.text);
    assert.ok(r.memories.some((m) => m.id === successor.id), "the successor is still found through its predecessor");
  });
});
