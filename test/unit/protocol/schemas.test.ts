import { strict as assert } from "node:assert";
import { LAYERS, MEMORY_TYPES as CORE_TYPES, MemoryRecordSchema, STATUSES } from "../../../src/core/model/memory.js";
import { PROPOSAL_STATUSES as CORE_PROPOSAL_STATUSES } from "../../../src/core/model/proposal.js";
import { MEMORY_LAYERS, MEMORY_STATUSES, MEMORY_TYPES, PROPOSAL_STATUSES } from "../../../src/protocol/constants.js";
import { WebviewMessageSchema } from "../../../src/protocol/messages.js";
import { MemorySchema } from "../../../src/protocol/model.js";
import { EditPatchSchema, MemoryFilterSchema, METHODS, requestSchemas } from "../../../src/protocol/requests.js";
import { memoryRecord } from "../../helpers/records.js";

function firstIssue(result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string; code: string }> } }): { path: string; message: string; code: string } {
  assert.equal(result.success, false, "expected a validation failure");
  const issue = result.error!.issues[0]!;
  return { path: issue.path.map(String).join("."), message: issue.message, code: issue.code };
}

describe("protocol: schemas", () => {
  it("mirrors the engine's enums (a new layer, type or status must reach the sidebar)", () => {
    assert.deepEqual([...MEMORY_LAYERS].sort(), [...LAYERS].sort());
    assert.deepEqual([...MEMORY_TYPES].sort(), [...CORE_TYPES].sort());
    assert.deepEqual([...MEMORY_STATUSES].sort(), [...STATUSES].sort());
    assert.deepEqual([...PROPOSAL_STATUSES].sort(), [...CORE_PROPOSAL_STATUSES].sort());
  });

  it("mirrors every field of the engine's memory record (the protocol may not import src/core, so this keeps the copy honest)", () => {
    assert.deepEqual(Object.keys(MemorySchema.shape).sort(), Object.keys(MemoryRecordSchema.shape).sort());
  });

  it("parses an engine memory record, dropping fields it does not know", () => {
    const record = { ...memoryRecord({ id: "m1" }), somethingNew: 1 };
    const parsed = MemorySchema.parse(record);
    assert.equal(parsed.id, "m1");
    assert.ok(!("somethingNew" in parsed));
    assert.equal(firstIssue(MemorySchema.safeParse({ ...record, confidence: 2 })).path, "confidence");
  });

  it("has params and result for every method", () => {
    assert.ok(METHODS.length >= 15);
    for (const m of METHODS) {
      assert.ok(requestSchemas[m].params, m);
      assert.ok(requestSchemas[m].result, m);
    }
  });

  it("the memory filter trims text, defaults it, and needs a status", () => {
    assert.deepEqual(MemoryFilterSchema.parse({ statuses: ["active"] }), { statuses: ["active"], text: "" });
    assert.equal(MemoryFilterSchema.parse({ statuses: ["active"], text: "  pnpm " }).text, "pnpm");
    const none = firstIssue(MemoryFilterSchema.safeParse({ statuses: [] }));
    assert.equal(none.path, "statuses");
    assert.match(none.message, /at least one status/);
    assert.equal(firstIssue(MemoryFilterSchema.safeParse({ statuses: ["deleted"] })).path, "statuses.0");
    assert.equal(firstIssue(MemoryFilterSchema.safeParse({ statuses: ["active"], sql: "1=1" })).code, "unrecognized_keys");
  });

  it("an edit names the bad field, refuses unknown ones and an empty patch", () => {
    assert.equal(firstIssue(EditPatchSchema.safeParse({ confidence: 1.5 })).path, "confidence");
    assert.match(firstIssue(EditPatchSchema.safeParse({ confidence: 1.5 })).message, /between 0 and 1/);
    assert.equal(firstIssue(EditPatchSchema.safeParse({ pinned: true })).code, "unrecognized_keys");
    assert.match(firstIssue(EditPatchSchema.safeParse({})).message, /at least one field/);
    assert.equal(firstIssue(EditPatchSchema.safeParse({ validUntil: "next friday" })).path, "validUntil");
    assert.deepEqual(EditPatchSchema.parse({ validUntil: null }), { validUntil: null });
    assert.deepEqual(EditPatchSchema.parse({ validUntil: "2026-03-20", content: " x " }), { validUntil: "2026-03-20", content: "x" });
  });

  it("tests.run takes a suite id or a pick, nothing else", () => {
    const params = requestSchemas["tests.run"].params;
    assert.ok(params.safeParse({ suiteId: "/w/eval/a.json" }).success);
    assert.ok(params.safeParse({ pick: true }).success);
    assert.ok(!params.safeParse({}).success);
    assert.ok(!params.safeParse({ suiteId: "a", pick: true }).success);
  });

  it("envelopes: ready and requests of known methods only", () => {
    assert.ok(WebviewMessageSchema.safeParse({ type: "ready", protocolVersion: 1 }).success);
    assert.ok(WebviewMessageSchema.safeParse({ type: "request", id: 1, method: "memories.get", params: { id: "x" } }).success);
    assert.equal(firstIssue(WebviewMessageSchema.safeParse({ type: "request", id: 1, method: "engine.drop", params: {} })).path, "method");
    assert.equal(firstIssue(WebviewMessageSchema.safeParse({ type: "request", id: -1, method: "memories.get", params: {} })).path, "id");
    assert.ok(!WebviewMessageSchema.safeParse({ type: "eval", code: "x" }).success);
  });
});
