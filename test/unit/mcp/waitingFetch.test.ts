import { strict as assert } from "node:assert";
import { retryAfterMs, waitingFetch } from "../../../src/mcp/waitingFetch.js";

/** A fetch that answers from a script of statuses and records what it was sent. */
function scripted(statuses: Array<{ status: number; retryAfter?: string }>) {
  const sent: Array<{ url: string; body: unknown }> = [];
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    sent.push({ url: String(input), body: init?.body });
    const next = statuses.shift() ?? { status: 200 };
    const headers = next.retryAfter === undefined ? undefined : { "retry-after": next.retryAfter };
    return new Response(next.status === 200 ? "{}" : "slow down", { status: next.status, ...(headers ? { headers } : {}) });
  }) as typeof fetch;
  return { fetchFn, sent };
}

describe("waitingFetch: a rate-limited call waits its turn instead of failing", () => {
  it("waits as long as Retry-After says and sends the same request again", async () => {
    const { fetchFn, sent } = scripted([{ status: 429, retryAfter: "2" }, { status: 429, retryAfter: "1" }, { status: 200 }]);
    const slept: number[] = [];
    const f = waitingFetch({ fetch: fetchFn, sleep: async (ms) => void slept.push(ms) });
    const res = await f("http://owner/mcp", { method: "POST", body: '{"id":1}' });
    assert.equal(res.status, 200);
    assert.deepEqual(slept, [2000, 1000]);
    assert.equal(sent.length, 3);
    assert.ok(sent.every((s) => s.body === '{"id":1}'));
  });

  it("passes the 429 on once the waits would pass the bound, and never retries a body it cannot send twice", async () => {
    const many = scripted(Array.from({ length: 10 }, () => ({ status: 429, retryAfter: "4" })));
    const slept: number[] = [];
    const f = waitingFetch({ fetch: many.fetchFn, sleep: async (ms) => void slept.push(ms), maxWaitMs: 10_000 });
    assert.equal((await f("http://owner/mcp", { method: "POST", body: "{}" })).status, 429);
    assert.deepEqual(slept, [4000, 4000]);

    const stream = scripted([{ status: 429, retryAfter: "1" }]);
    const g = waitingFetch({ fetch: stream.fetchFn, sleep: async () => assert.fail("must not wait") });
    assert.equal((await g("http://owner/mcp", { method: "POST", body: new Uint8Array([1]) })).status, 429);
    assert.equal(stream.sent.length, 1);
  });

  it("other statuses are returned at once", async () => {
    const { fetchFn, sent } = scripted([{ status: 503 }]);
    const f = waitingFetch({ fetch: fetchFn, sleep: async () => assert.fail("must not wait") });
    assert.equal((await f("http://owner/mcp", { method: "POST", body: "{}" })).status, 503);
    assert.equal(sent.length, 1);
  });

  it("reads Retry-After as seconds or as an HTTP date; a missing or unreadable one waits a second", () => {
    const now = Date.parse("2026-03-01T10:00:00Z");
    assert.equal(retryAfterMs("3", now), 3000);
    assert.equal(retryAfterMs("Sun, 01 Mar 2026 10:00:05 GMT", now), 5000);
    assert.equal(retryAfterMs("Sun, 01 Mar 2026 09:00:00 GMT", now), 0);
    assert.equal(retryAfterMs(null, now), 1000);
    assert.equal(retryAfterMs("soon", now), 1000);
  });
});
