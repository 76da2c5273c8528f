import { strict as assert } from "node:assert";
import { copyId } from "../../../src/core/ops/jsonl.js";
import { makeEngine } from "../../helpers/fakes.js";

describe("import into another scope: a copy with new ids (fakes)", () => {
  it("memories and turns get ids of their own, every link follows, the source stays, and a second import skips the copies", async () => {
    const { engine, store } = await makeEngine();
    const old = await engine.write({ content: "The weekly sync is on Mondays.", type: "fact" });
    const now = await engine.write({ content: "The weekly sync moved to Tuesdays.", type: "fact", replaces: [old.id!] });
    const ingested = await engine.ingest({ user: "I prefer short standups of at most 15 minutes." });
    const fromTurn = ingested.results.find((r) => r.id !== null)!;
    assert.ok(fromTurn, "the preference was extracted");
    const source = await store.listMemories({ scope: "project:test" });
    const text = await engine.exportJsonl();

    const r = await engine.importJsonl(text, "project:copy");
    assert.deepEqual([r.memories, r.turns, r.skipped.length, r.copied, r.copiedFrom], [source.length, 1, 0, source.length + 1, ["project:test"]]);
    const copies = await store.listMemories({ scope: "project:copy" });
    const byContent = new Map(copies.map((m) => [m.content, m]));
    const oldCopy = byContent.get("The weekly sync is on Mondays.")!;
    const nowCopy = byContent.get("The weekly sync moved to Tuesdays.")!;
    assert.equal(oldCopy.id, await copyId("project:copy", old.id!));
    assert.equal(nowCopy.id, await copyId("project:copy", now.id!));
    assert.equal(oldCopy.supersededBy, nowCopy.id);
    assert.deepEqual(nowCopy.supersedes, [oldCopy.id]);
    const turnCopy = await copyId("project:copy", ingested.turnId);
    const prefCopy = byContent.get(fromTurn.memory!.content)!;
    assert.equal(prefCopy.id, await copyId("project:copy", fromTurn.id!));
    assert.deepEqual(prefCopy.sourceTurns, [turnCopy]);
    const [turn] = await store.getTurns([turnCopy]);
    assert.equal(turn?.scope, "project:copy");
    assert.deepEqual(turn?.memoryIds, [prefCopy.id]);
    assert.deepEqual(await store.listMemories({ scope: "project:test" }), source, "the source project is untouched");

    const again = await engine.importJsonl(text, "project:copy");
    assert.deepEqual([again.memories, again.turns, again.skipped.length, again.copied], [0, 0, source.length + 1, 0]);
    const same = await engine.importJsonl(text, "project:test");
    assert.deepEqual([same.memories, same.copied, same.skipped.length], [0, 0, source.length + 1], "into its own scope: today's skip-existing");
  });
});
