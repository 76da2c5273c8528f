import { strict as assert } from "node:assert";
import { z } from "zod";
import { HindsightError, errorText, wireError } from "../../../src/core/errors.js";
import { codeField, fromWire, toWire, wireField } from "../../../src/core/wire.js";
import { errorAnswer } from "../../../src/http/errors.js";
import { AuditEntrySchema, MemorySchema, ProposalSchema, RecalledSchema, StatsSchema } from "../../../src/protocol/model.js";
import { parseWireAnswer, wireName } from "../../../src/protocol/wireAnswer.js";

describe("the one wire casing and the one error shape", () => {
  it("names fields in snake_case on the wire and camelCase in code, leaving other keys alone", () => {
    assert.equal(wireField("expiresAt"), "expires_at");
    assert.equal(wireField("rows.4.ownerUserId"), "rows.4.owner_user_id");
    assert.equal(wireField("L2"), "L2");
    assert.equal(wireField("task_state"), "task_state");
    assert.equal(wireField("github.com/acme/webApp"), "github.com/acme/webApp");
    assert.equal(codeField("retry_after_ms"), "retryAfterMs");
    assert.equal(codeField("L3"), "L3");
  });

  it("toWire converts nested objects and arrays, keeps value-keyed maps, drops undefined, applies toJSON", () => {
    const sent = toWire({
      lastSeenAt: 5,
      nested: [{ ownerName: "x", tags: ["camelCaseValue"] }],
      byType: { task_state: 2, preference: 1 },
      byLayer: { L1: 3 },
      missing: undefined,
      when: new Date(0),
      err: new HindsightError("NOT_FOUND", "no such memory", { field: "memoryId" }),
    });
    assert.deepEqual(sent, {
      last_seen_at: 5,
      nested: [{ owner_name: "x", tags: ["camelCaseValue"] }],
      by_type: { task_state: 2, preference: 1 },
      by_layer: { L1: 3 },
      when: "1970-01-01T00:00:00.000Z",
      err: { code: "NOT_FOUND", message: "no such memory", field: "memoryId" },
    });
  });

  it("fromWire reads snake_case back and, when strict, names the first camelCase key and its wire spelling", () => {
    assert.deepEqual(fromWire({ session_id: "s", turns: [{ said_at: 1 }] }), { value: { sessionId: "s", turns: [{ saidAt: 1 }] } });
    const strict = fromWire({ items: [{ ok: 1 }, { sessionId: "s" }] }, { strict: true });
    assert.deepEqual(strict, { problem: { path: "items.1.sessionId", key: "sessionId", expected: "session_id" } });
  });

  it("the protocol's copy of the casing rule spells every field of its schemas as core does", () => {
    const names = [MemorySchema, RecalledSchema, ProposalSchema, AuditEntrySchema, StatsSchema].flatMap((schema) => Object.keys(schema.shape));
    assert.ok(names.includes("lastAccessedAt") && names.length > 40);
    for (const name of names) assert.equal(wireName(name), wireField(name), name);
  });

  it("a REST answer is read by its schema: object fields renamed, record keys kept", () => {
    const Stats = z.object({ byType: z.record(z.string(), z.number()), recall: z.object({ p50Ms: z.number().nullable() }), rows: z.array(z.object({ updatedAt: z.number() })) });
    const parsed = parseWireAnswer(Stats, { by_type: { task_state: 4 }, recall: { p50_ms: null }, rows: [{ updated_at: 7 }] });
    assert.ok(parsed.success);
    assert.deepEqual(parsed.data, { byType: { task_state: 4 }, recall: { p50Ms: null }, rows: [{ updatedAt: 7 }] });
  });

  it("HindsightError.is holds for an error made by another copy of the class (another bundle): the brand is global", () => {
    const err = new HindsightError("GUARD_REFUSED", "looks like a secret");
    // What another bundle's instance looks like to this one: same brand, different prototype chain.
    const foreign = Object.setPrototypeOf(Object.assign(new Error("x"), { code: "STORE_FULL" }), Error.prototype) as Error;
    Object.defineProperty(foreign, Symbol.for("hindsight.error"), { value: true });
    assert.ok(HindsightError.is(err, "GUARD_REFUSED"));
    assert.ok(!HindsightError.is(err, "NOT_FOUND"));
    assert.ok(HindsightError.is(foreign, "STORE_FULL"));
    assert.ok(!HindsightError.is(Object.assign(new Error("y"), { code: "STORE_FULL" })), "a look-alike without the brand is not ours");
  });

  it("one shape on every transport: wire error, CODE: message text, HTTP status and headers", () => {
    const limited = new HindsightError("RATE_LIMITED", "too many requests: retry in 3 s", { details: { retryAfterS: 3 } });
    assert.deepEqual(wireError(limited), { code: "RATE_LIMITED", message: "too many requests: retry in 3 s" });
    assert.equal(errorText(limited), "RATE_LIMITED: too many requests: retry in 3 s");
    const answer = errorAnswer(limited);
    assert.equal(answer.status, 429);
    assert.equal(answer.headers["retry-after"], "3");
    assert.deepEqual(errorAnswer(new TypeError("secret internals")).body, { error: { code: "INTERNAL", message: "internal error" } });
    assert.equal(errorText(new RangeError("bad")), "INTERNAL: bad");
  });

  it("fromWire keeps a known code and turns an unknown one into INTERNAL without losing it", () => {
    const known = HindsightError.fromWire({ code: "PROJECT_FORBIDDEN", message: "not yours", field: "scope" }, { status: 403 });
    assert.deepEqual([known.code, known.field, known.details?.status], ["PROJECT_FORBIDDEN", "scope", 403]);
    const unknown = HindsightError.fromWire({ code: "QUOTA_MELTED", message: "from a newer server" });
    assert.equal(unknown.code, "INTERNAL");
    assert.equal(unknown.message, "QUOTA_MELTED: from a newer server");
  });
});
