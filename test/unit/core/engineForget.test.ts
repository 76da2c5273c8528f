import { strict as assert } from "node:assert";
import { makeEngine } from "../../helpers/fakes.js";

describe("engine forget (fakes)", () => {
  it("forget by id removes the memory and its L0 turn and audits without the content", async () => {
    const { engine, store } = await makeEngine();
    const ing = await engine.ingest({ user: "My home address is 14 Oak Avenue, Portland." });
    const id = ing.results[0]!.id!;
    assert.ok(id);
    const m = ing.results[0]!.memory!;
    const audited = (await engine.auditLog()).length;
    const preview = await engine.forget({ id, dryRun: true });
    assert.deepEqual(preview, { forgotten: 1, ids: [id], turns: 1, dryRun: true, memories: [{ id, layer: m.layer, type: m.type, status: "active", content: m.content }] });
    assert.equal((await store.getMemories([id])).length, 1, "a dry run deletes nothing");
    assert.equal((await store.getTurns([ing.turnId])).length, 1, "nor the turn");
    assert.equal((await engine.auditLog()).length, audited, "nor audits a forget");
    const r = await engine.forget({ id });
    assert.deepEqual(r, { ...preview, dryRun: false });
    assert.deepEqual(await store.getMemories([id]), []);
    assert.deepEqual(await store.getTurns([ing.turnId]), []);
    const recalled = await engine.recall({ query: "home address Oak Avenue" });
    assert.deepEqual(recalled.memories, []);

    const [entry] = await engine.auditLog();
    assert.equal(entry?.operation, "forget");
    assert.deepEqual(entry?.memoryIds, [id]);
    assert.deepEqual(entry?.turnIds, [ing.turnId]);
    const json = JSON.stringify(entry);
    assert.ok(!/Oak|Portland|address/i.test(json), `audit entry leaks content: ${json}`);
  });

  it("forget by match removes every memory containing the words, and their turns", async () => {
    const { engine, store } = await makeEngine();
    const a = await engine.ingest({ user: "My phone number is on the Acme contract." });
    const b = await engine.write({ content: "The Acme contract renews in June." });
    const keep = await engine.write({ content: "The API gateway listens on port 8443." });
    const r = await engine.forget({ match: ["acme", "contract"] });
    assert.equal(r.forgotten, 2);
    assert.deepEqual([...r.ids].sort(), [a.results[0]!.id, b.id].sort());
    assert.deepEqual(await store.getTurns([a.turnId]), []);
    assert.deepEqual((await engine.list()).map((m) => m.id), [keep.id]);
    const json = JSON.stringify(await engine.auditLog({ limit: 1 }));
    assert.ok(!/acme|phone|renews/i.test(json), json);
  });

  it("forget by match removes a raw turn that never became a memory", async () => {
    const { engine, store } = await makeEngine();
    const ing = await engine.ingest({ user: "Is the Zephyr rollout still blocked?" });
    assert.deepEqual(ing.results, []);
    const r = await engine.forget({ match: ["zephyr"] });
    assert.equal(r.forgotten, 0);
    assert.equal(r.turns, 1);
    assert.deepEqual(await store.getTurns([ing.turnId]), []);
  });

  it("a dry run by match counts the raw turn it would delete and deletes nothing", async () => {
    const { engine, store } = await makeEngine();
    const ing = await engine.ingest({ user: "Is the Zephyr rollout still blocked?" });
    const kept = await engine.write({ content: "The Zephyr rollout starts in May." });
    const preview = await engine.forget({ match: ["zephyr"], dryRun: true });
    assert.deepEqual([preview.forgotten, preview.turns, preview.dryRun], [1, 1, true]);
    assert.deepEqual(preview.memories.map((x) => x.content), ["The Zephyr rollout starts in May."]);
    assert.equal((await store.getTurns([ing.turnId])).length, 1);
    assert.equal((await store.getMemories([kept.id!])).length, 1);
  });

  it("forget by query removes the matching memory but not an unrelated one", async () => {
    const { engine } = await makeEngine();
    const target = await engine.write({ content: "My home address is 14 Oak Avenue, Portland." });
    const other = await engine.write({ content: "Unit tests are written with Vitest." });
    const near = await engine.write({ content: "The office address is 200 Main Street, Seattle." });
    const r = await engine.forget({ query: "my home address 14 Oak Avenue Portland" });
    assert.deepEqual(r.ids, [target.id]);
    const left = (await engine.list()).map((m) => m.id).sort();
    assert.deepEqual(left, [other.id, near.id].sort());
  });

  it("forgetting one memory of a two-memory turn redacts only its sentence", async () => {
    const { engine, store } = await makeEngine();
    const ing = await engine.ingest({
      user:
        "The billing service runs on a dedicated Postgres cluster in Frankfurt with nightly backups to object storage. " +
        "I prefer code reviews in the morning before standup because afternoons are packed with meetings and customer calls.",
    });
    assert.equal(ing.results.length, 2, JSON.stringify(ing.results.map((r) => r.memory?.content)));
    const [billing, reviews] = ing.results.map((r) => r.memory!);
    await engine.forget({ id: reviews!.id });
    const [turn] = await store.getTurns([ing.turnId]);
    assert.ok(turn, "the turn still holds a memory that stays");
    assert.ok(!turn.user.includes("code reviews"), turn.user);
    assert.ok(turn.user.includes("[forgotten]"));
    assert.ok(turn.user.includes("billing service"));
    assert.deepEqual(turn.memoryIds, [billing!.id]);
  });

  it("forgetting a conflict partner clears the link on the survivor", async () => {
    const { engine } = await makeEngine();
    const a = await engine.write({ content: "The release branch is named main.", subject: "release branch" });
    const b = await engine.write({ content: "The release branch is named trunk.", subject: "release branch" });
    assert.deepEqual(b.conflictsWith, [a.id]);
    await engine.forget({ id: b.id! });
    assert.deepEqual((await engine.get(a.id!)).conflictsWith, []);
    const r = await engine.recall({ query: "release branch name" });
    assert.deepEqual(r.conflicts, []);
  });

  it("forget with a scope does not touch another scope", async () => {
    const { engine } = await makeEngine();
    const a = await engine.write({ content: "The Acme contract renews in June.", scope: "project:a" });
    const b = await engine.write({ content: "The Acme contract renews in June.", scope: "project:b" });
    const r = await engine.forget({ match: ["acme"], scope: "project:a" });
    assert.deepEqual(r.ids, [a.id]);
    assert.deepEqual((await engine.list({ scope: "project:b" })).map((m) => m.id), [b.id]);
  });
});
