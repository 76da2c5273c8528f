import { strict as assert } from "node:assert";
import { MemoryEngine } from "../../../src/core/engine.js";
import type { LlmClient, LlmRequest } from "../../../src/core/ports.js";
import { InMemoryStore } from "../../../src/stores/memory/memoryStore.js";
import { DAY, FakeEmbedder, FixedClock } from "../../helpers/fakes.js";

function fakeLlm(answer: (req: LlmRequest) => Promise<string>): LlmClient & { calls: LlmRequest[] } {
  const calls: LlmRequest[] = [];
  return { id: "fake-llm", calls, complete: (req) => (calls.push(req), answer(req)) };
}

async function engineWith(llm: LlmClient, config = {}): Promise<{ engine: MemoryEngine; clock: FixedClock }> {
  const clock = new FixedClock();
  const engine = new MemoryEngine({ store: new InMemoryStore(), embedder: new FakeEmbedder(), clock, llm }, { defaultScope: "project:test", ...config });
  await engine.open();
  return { engine, clock };
}

const OLD = "The checkout service keeps user sessions in Redis.";
const NEW = "User sessions for checkout live in Memcached.";

describe("add / update / keep judged by the LLM", () => {
  it("update: the memories it names are superseded, and the result says the LLM decided", async () => {
    const llm = fakeLlm(async () => '{"action": "update", "labels": ["m1"]}');
    const { engine, clock } = await engineWith(llm);
    const first = await engine.write({ content: OLD, type: "fact" });
    assert.equal(first.decidedBy, "rules", "nothing close yet: no call, the rules add it");
    assert.equal(llm.calls.length, 0);
    clock.advance(DAY);
    const second = await engine.write({ content: NEW, type: "fact" });
    assert.equal(second.action, "superseded");
    assert.equal(second.decidedBy, "llm");
    assert.deepEqual(second.supersedes, [first.id]);
    assert.match(second.reason, /judged by fake-llm/);
    assert.equal((await engine.get(first.id as string)).status, "superseded");
    assert.equal(llm.calls.length, 1, "one call per write");
    assert.ok(llm.calls[0]!.user.includes(OLD) && llm.calls[0]!.user.includes(NEW));
    assert.ok(!llm.calls[0]!.user.includes(first.id as string), "the model sees labels, not ids");
  });

  it("add: both stay even where the rules would have replaced", async () => {
    const { engine, clock } = await engineWith(fakeLlm(async () => '{"action": "add", "labels": []}'));
    await engine.write({ content: "Container images are built with Kaniko.", type: "fact" });
    clock.advance(DAY);
    const r = await engine.write({ content: "Container images went from Kaniko to Buildah.", type: "fact" });
    assert.equal(r.action, "added");
    assert.equal(r.decidedBy, "llm");
    assert.equal((await engine.list()).length, 2);
  });

  it("keep: the named memory is confirmed instead of a second copy", async () => {
    const { engine, clock } = await engineWith(fakeLlm(async () => '```json\n{"action": "keep", "labels": ["m1"]}\n```'));
    const first = await engine.write({ content: OLD, type: "fact" });
    clock.advance(DAY);
    const r = await engine.write({ content: "Checkout keeps its user sessions in Redis.", type: "fact" });
    assert.equal(r.action, "duplicate");
    assert.equal(r.id, first.id);
    assert.equal((await engine.get(first.id as string)).confirmCount, 2);
    assert.equal((await engine.list()).length, 1);
  });

  it("any type is judged, events included", async () => {
    const llm = fakeLlm(async () => '{"action": "add", "labels": []}');
    const { engine, clock } = await engineWith(llm);
    await engine.write({ content: "The checkout deploy failed because of Redis.", type: "event" });
    clock.advance(DAY);
    await engine.write({ content: "The checkout deploy failed because of Memcached.", type: "event" });
    assert.equal(llm.calls.length, 1);
    assert.equal((await engine.list()).length, 2);
  });

  it("at most four memories are shown, the rules' related ones first", async () => {
    const llm = fakeLlm(async () => '{"action": "add", "labels": []}');
    const { engine, clock } = await engineWith(llm);
    for (const port of [5432, 5433, 5434, 5435, 5436, 5437]) {
      await engine.write({ content: `The checkout database replica ${port - 5431} listens on port ${port}.`, type: "fact" });
      clock.advance(1000);
    }
    llm.calls.length = 0;
    await engine.write({ content: "The checkout database replica 9 listens on port 6000.", type: "fact" });
    assert.equal(llm.calls.length, 1);
    assert.ok((llm.calls[0]!.user.match(/^m\d+ /gm) ?? []).length <= 4, llm.calls[0]!.user);
  });

  it("an LLM that fails, rambles, names an unknown label or times out: the rules decide, and the result says why", async () => {
    const answers: Array<[() => Promise<string>, RegExp]> = [
      [() => Promise.reject(new Error("connection refused")), /failed: connection refused/],
      [async () => "It depends on the deployment.", /not JSON/],
      [async () => '{"action": "update", "labels": ["m7"]}', /m7 name no memory/],
      [async () => '{"action": "replace", "labels": ["m1"]}', /action: expected add, update or keep/],
      [() => new Promise(() => undefined), /did not answer within 100 ms/],
    ];
    for (const [answer, why] of answers) {
      const { engine, clock } = await engineWith(fakeLlm(answer), { write: { llmTimeoutMs: 100 } });
      const first = await engine.write({ content: "Container images are built with Kaniko.", type: "fact" });
      clock.advance(DAY);
      const r = await engine.write({ content: "Container images went from Kaniko to Buildah.", type: "fact" });
      assert.equal(r.decidedBy, "rules");
      assert.match(r.llmFallback ?? "", why);
      assert.equal(r.action, "superseded", "the rules still see the named old value");
      assert.deepEqual(r.supersedes, [first.id]);
    }
  });
});
