import { strict as assert } from "node:assert";
import { DAY, makeEngine, T0 } from "../../helpers/fakes.js";

// T0 is Wednesday 18 March 2026.
describe("recall with the temporal and entity retrievers (fakes)", () => {
  it("a question naming a time ranks the memory from that time first; without the retriever it need not", async () => {
    const write = async (engine: Awaited<ReturnType<typeof makeEngine>>["engine"], clock: Awaited<ReturnType<typeof makeEngine>>["clock"]) => {
      clock.set(T0 - 60 * DAY); // mid January
      await engine.write({ content: "The quarterly planning session picked the mobile app as the focus.", type: "event" });
      clock.set(T0 - 30 * DAY); // mid February
      await engine.write({ content: "The quarterly planning session picked the partner API as the focus.", type: "event" });
      clock.set(T0);
    };
    const on = await makeEngine();
    await write(on.engine, on.clock);
    const r = await on.engine.recall({ query: "What did the planning session pick as the focus in January?" });
    assert.match(r.memories[0]!.content, /mobile app/);
    assert.ok(r.memories.some((m) => /partner API/.test(m.content)), "the other session stays findable");

    const off = await makeEngine(undefined, { recall: { candidateSources: ["vector", "fullText"] } });
    await write(off.engine, off.clock);
    const plain = await off.engine.recall({ query: "What did the planning session pick as the focus in January?" });
    assert.equal(plain.memories.length, 2);
    assert.match(plain.memories[0]!.content, /partner API/, "without it, the newer memory leads: the asked time is what moved the January one up");
  });

  it("a question naming a rare thing ranks the memory that names it above ones that only share the person", async () => {
    const { engine } = await makeEngine();
    await engine.write({ content: "Ingrid takes her dog to the vet on Tuesdays.", type: "fact" });
    await engine.write({ content: "Ingrid takes the train to the office on Tuesdays.", type: "fact" });
    await engine.write({ content: "Ingrid takes Biscuit to the park on Tuesdays.", type: "fact" });
    const r = await engine.recall({ query: "Where does Ingrid take Biscuit on Tuesdays?" });
    assert.match(r.memories[0]!.content, /Biscuit/);
  });

  it("an unrelated question still recalls nothing: the retrievers only reorder what passed the floor", async () => {
    const { engine, clock } = await makeEngine();
    clock.set(T0 - 20 * DAY);
    await engine.write({ content: "Ingrid renewed the TLS certificate for the staging cluster.", type: "event" });
    clock.set(T0);
    const r = await engine.recall({ query: "What is Ingrid's favourite pasta recipe from last month?", fallback: false });
    assert.deepEqual(r.memories.map((m) => m.content), []);
  });
});
