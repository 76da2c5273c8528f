import { strict as assert } from "node:assert";
import type { HostMessage } from "../../src/protocol/messages.js";
import { REQUEST_TIMEOUT_MS, Rpc, RpcError, SUITE_RUN_TIMEOUT_MS, requestTimeoutMs, type MessageSource } from "../../webview-ui/src/rpc.js";

/** The webview side of postMessage without a browser: what the webview sent, and a way to answer. */
function channel(timeoutMs: number) {
  const sent: Array<{ type: string; id: number; method: string }> = [];
  let listener: ((event: { data: unknown }) => void) | null = null;
  const source: MessageSource = { addEventListener: (_type, fn) => (listener = fn) };
  const rpc = new Rpc({ postMessage: (m) => sent.push(m as (typeof sent)[number]), getState: () => undefined, setState: () => undefined }, source, () => timeoutMs);
  const answer = (message: HostMessage) => listener?.({ data: message });
  const pending = () => (rpc as unknown as { pending: Map<number, unknown> }).pending.size;
  return { rpc, sent, answer, pending };
}


describe("webview: requests to the extension time out (webview-ui/src/rpc.ts)", () => {
  it("a request with no answer rejects with REQUEST_TIMEOUT naming the method, and is forgotten", async () => {
    const c = channel(20);
    const started = Date.now();
    await assert.rejects(c.rpc.request("review.get", {}), (err: unknown) => {
      assert.ok(err instanceof RpcError);
      assert.equal(err.code, "REQUEST_TIMEOUT");
      assert.match(err.message, /did not answer review\.get/);
      return true;
    });
    assert.ok(Date.now() - started >= 10, "not before its time");
    assert.equal(c.pending(), 0);
    // The answer arriving late changes nothing and throws nothing.
    c.answer({ type: "response", id: c.sent[0]!.id, ok: true, result: { conflicts: [], proposals: [], quarantined: [] } });
  });

  it("an answer in time resolves the request and stops its timer", async () => {
    const c = channel(60_000);
    const started: unknown[] = [];
    const stopped: unknown[] = [];
    const { setTimeout: realSet, clearTimeout: realClear } = globalThis;
    globalThis.setTimeout = ((fn: () => void, ms: number) => {
      const t = realSet(fn, ms);
      if (ms === 60_000) started.push(t);
      return t;
    }) as typeof setTimeout;
    globalThis.clearTimeout = ((t: Parameters<typeof clearTimeout>[0]) => {
      stopped.push(t);
      realClear(t);
    }) as typeof clearTimeout;
    try {
      const result = c.rpc.request("review.propose", {});
      c.answer({ type: "response", id: c.sent[0]!.id, ok: true, result: { count: 2 } });
      assert.deepEqual(await result, { count: 2 });
    } finally {
      globalThis.setTimeout = realSet;
      globalThis.clearTimeout = realClear;
    }
    assert.equal(c.pending(), 0);
    assert.equal(started.length, 1);
    assert.ok(stopped.includes(started[0]), "a timer left running would hold the answered request's closure for a minute");
  });

  it("an error answer still rejects with the extension's own code and field", async () => {
    const c = channel(1000);
    const result = c.rpc.request("memories.get", { id: "m1" });
    c.answer({ type: "response", id: c.sent[0]!.id, ok: false, error: { code: "NOT_FOUND", message: "no memory m1", field: "id" } });
    await assert.rejects(result, (err: unknown) => err instanceof RpcError && err.code === "NOT_FOUND" && err.field === "id");
    assert.equal(c.pending(), 0);
  });

  it("only one request times out when the others are answered", async () => {
    const c = channel(20);
    const answered = c.rpc.request("tests.get", {});
    const lost = c.rpc.request("activity.get", { auditLimit: 10 });
    c.answer({ type: "response", id: c.sent[0]!.id, ok: true, result: { suites: [], history: [], last: null } });
    assert.deepEqual(await answered, { suites: [], history: [], last: null });
    await assert.rejects(lost, (err: unknown) => err instanceof RpcError && err.code === "REQUEST_TIMEOUT");
    assert.equal(c.pending(), 0);
  });

  it("a suite run may take as long as the extension lets an eval run; everything else gets the short wait", () => {
    assert.equal(requestTimeoutMs("tests.run"), SUITE_RUN_TIMEOUT_MS);
    for (const method of ["memories.groups", "recall.run", "review.propose", "tests.get"] as const) assert.equal(requestTimeoutMs(method), REQUEST_TIMEOUT_MS);
    assert.ok(SUITE_RUN_TIMEOUT_MS > 15 * 60_000, "longer than the extension's eval timeout");
  });
});
