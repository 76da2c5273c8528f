import { strict as assert } from "node:assert";
import { MemoryEngine } from "../../../src/core/engine.js";
import type { LlmClient, LlmRequest } from "../../../src/core/ports.js";
import { llmContradicts } from "../../../src/core/write/llmConflict.js";
import { InMemoryStore } from "../../../src/stores/memory/memoryStore.js";
import { DAY, FakeEmbedder, FixedClock } from "../../helpers/fakes.js";

function fakeLlm(answer: (req: LlmRequest) => Promise<string>): LlmClient & { calls: LlmRequest[] } {
  const calls: LlmRequest[] = [];
  return { id: "fake-llm", calls, complete: (req) => (calls.push(req), answer(req)) };
}

async function engineWith(llm: LlmClient): Promise<{ engine: MemoryEngine; clock: FixedClock }> {
  const clock = new FixedClock();
  const engine = new MemoryEngine({ store: new InMemoryStore(), embedder: new FakeEmbedder(), clock, llm }, { defaultScope: "project:test" });
  await engine.open();
  return { engine, clock };
}

const OLD = "The checkout service keeps user sessions in Redis.";
const NEW = "User sessions for checkout live in Memcached.";

describe("contradictions judged by the LLM", () => {
  it("a contradiction the rules miss is resolved when the LLM says so: newer wins", async () => {
    const llm = fakeLlm(async () => '{"contradicts": true}');
    const { engine, clock } = await engineWith(llm);
    const first = await engine.write({ content: OLD, type: "fact" });
    clock.advance(DAY);
    const second = await engine.write({ content: NEW, type: "fact" });
    assert.equal(second.action, "superseded");
    assert.deepEqual(second.supersedes, [first.id]);
    assert.match(second.reason, /judged by fake-llm/);
    assert.equal((await engine.get(first.id as string)).status, "superseded");
    assert.ok(llm.calls.some((c) => c.user.includes(OLD) && c.user.includes(NEW)));
  });

  it("when the LLM says no contradiction both stay", async () => {
    const { engine, clock } = await engineWith(fakeLlm(async () => '{"contradicts": false}'));
    await engine.write({ content: OLD, type: "fact" });
    clock.advance(DAY);
    assert.equal((await engine.write({ content: NEW, type: "fact" })).action, "added");
    assert.equal((await engine.list()).length, 2);
  });

  it("an LLM that fails or rambles leaves the rules' decision, and the write succeeds", async () => {
    for (const answer of [() => Promise.reject(new Error("down")), async () => "I am not sure, it depends."]) {
      const { engine, clock } = await engineWith(fakeLlm(answer));
      await engine.write({ content: OLD, type: "fact" });
      clock.advance(DAY);
      assert.equal((await engine.write({ content: NEW, type: "fact" })).action, "added");
    }
  });

  it("events are history: the LLM is not asked about them", async () => {
    const llm = fakeLlm(async () => '{"contradicts": true}');
    const { engine, clock } = await engineWith(llm);
    await engine.write({ content: "The checkout deploy failed because of Redis.", type: "event" });
    clock.advance(DAY);
    await engine.write({ content: "The checkout deploy failed because of Memcached.", type: "event" });
    assert.equal(llm.calls.length, 0);
    assert.equal((await engine.list()).length, 2);
  });

  it("llmContradicts reads JSON or a plain yes/no and gives up after its timeout", async () => {
    assert.equal(await llmContradicts(fakeLlm(async () => '```json\n{"contradicts": true}\n```'), "a", "b", 1000), true);
    assert.equal(await llmContradicts(fakeLlm(async () => "No."), "a", "b", 1000), false);
    assert.equal(await llmContradicts(fakeLlm(() => new Promise(() => undefined)), "a", "b", 20), null);
  });
});
