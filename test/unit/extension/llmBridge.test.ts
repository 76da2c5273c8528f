import { strict as assert } from "node:assert";
import type { LlmClient, LlmRequest } from "../../../src/core/ports.js";
import { LlmBridge } from "../../../src/extension/llmBridge.js";
import { OpenAiCompatibleClient } from "../../../src/llm/openaiCompatible.js";

class EchoModel implements LlmClient {
  readonly id = "test/echo";
  readonly asked: LlmRequest[] = [];
  fail = false;
  complete(request: LlmRequest): Promise<string> {
    this.asked.push(request);
    return this.fail ? Promise.reject(new Error("the user declined")) : Promise.resolve(JSON.stringify({ memories: [] }));
  }
}

describe("the loopback bridge to the editor's chat models", () => {
  let bridge: LlmBridge;
  const model = new EchoModel();
  let upstream: LlmClient | null = model;
  before(async () => {
    bridge = await LlmBridge.start(() => upstream);
  });
  after(() => bridge.close());

  const post = (body: unknown, token?: string, path = "/chat/completions") =>
    fetch(`${bridge.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: typeof body === "string" ? body : JSON.stringify(body) });

  it("answers the OpenAI-compatible client with the chosen model, passing instructions, conversation and schema", async () => {
    const client = new OpenAiCompatibleClient({ baseUrl: bridge.url, model: "whatever", apiKey: bridge.endpoint("m").apiKey as string });
    const out = await client.complete({ system: "Extract durable facts.", user: "Our CI runs on Buildkite.", jsonSchema: { type: "object" } });
    assert.equal(out, JSON.stringify({ memories: [] }));
    const asked = model.asked.at(-1);
    assert.equal(asked?.system, "Extract durable facts.");
    assert.equal(asked?.user, "Our CI runs on Buildkite.");
    assert.deepEqual(asked?.jsonSchema, { type: "object" });
  });

  it("refuses other callers, other routes and bad bodies, and says when no model is chosen or the model failed", async () => {
    const token = bridge.endpoint("m").apiKey as string;
    const ok = { messages: [{ role: "user", content: "hi" }] };
    assert.equal((await post(ok)).status, 401);
    assert.equal((await post(ok, "wrong-token")).status, 401);
    assert.equal((await post(ok, token, "/models")).status, 404);
    assert.equal((await post("{oops", token)).status, 400);
    assert.equal((await post({ messages: [] }, token)).status, 400);
    model.fail = true;
    const failed = await post(ok, token);
    assert.equal(failed.status, 502);
    assert.match(((await failed.json()) as { error: { message: string } }).error.message, /declined/);
    model.fail = false;
    upstream = null;
    assert.equal((await post(ok, token)).status, 503);
    upstream = model;
  });
});
