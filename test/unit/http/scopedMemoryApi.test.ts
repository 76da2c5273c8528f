import { strict as assert } from "node:assert";
import { ALL_PROJECTS, fullGrant, grantKey, type Grant, type Permission } from "../../../src/http/access/grant.js";
import { ScopedMemoryApi, defaultScopeFor, resolveScope, scopedApi } from "../../../src/http/access/scopedMemoryApi.js";
import { HindsightError } from "../../../src/core/errors.js";
import { httpStatus } from "../../../src/http/errors.js";
import { makeEngine, rejection, type TestEngine } from "../../helpers/fakes.js";

function grant(id: string, permissions: Permission[], projects: string[] | "*"): Grant {
  return { id, permissions: new Set(permissions), projects: projects === "*" ? ALL_PROJECTS : new Set(projects) };
}

function isDenied(err: unknown, code: "PROJECT_FORBIDDEN" | "PERMISSION_DENIED"): boolean {
  return HindsightError.is(err) && httpStatus(err.code) === 403 && err.code === code;
}

/** The view's own checks and views (everything else on its prototype is a MemoryApi call). */
const NOT_CALLS = ["constructor", "config", "actingAs", "withDefaultScope", "need", "scope", "withScope", "checkMemory", "checkProposal"];

describe("http access: the scoped memory API", () => {
  let t: TestEngine;
  beforeEach(async () => {
    t = await makeEngine(undefined, { defaultScope: "team:default" });
  });
  afterEach(async () => {
    await t.engine.close();
  });

  it("every call checks the token's permission before it touches the memory (the compiler makes every MemoryApi method exist)", async () => {
    const none = scopedApi(t.engine, grant("none", [], ["project:a"])) as ScopedMemoryApi;
    const calls = Object.getOwnPropertyNames(ScopedMemoryApi.prototype).filter((m) => !NOT_CALLS.includes(m));
    assert.ok(calls.length >= 28, calls.join(", "));
    for (const name of calls) {
      const method = (none as unknown as Record<string, (...args: unknown[]) => unknown>)[name] as (...args: unknown[]) => unknown;
      let err: unknown;
      try {
        await method.call(none, { query: "x", content: "x", user: "x", topic: "x" }, {}, "both");
      } catch (e) {
        err = e;
      }
      assert.ok(isDenied(err, "PERMISSION_DENIED"), `${name}: ${String(err)}`);
    }
    assert.equal((await t.engine.auditLog()).length, 0, "nothing reached the engine");
  });

  it("resolveScope: named scopes must be allowed; a left-out one is the only project, else the server default when allowed, else required", () => {
    const one = grant("one", ["read"], ["project:a"]);
    const two = grant("two", ["read"], ["project:a", "team:default"]);
    const twoOther = grant("two-other", ["read"], ["project:a", "project:c"]);
    const all = grant("all", ["read"], "*");
    assert.equal(resolveScope(one, "team:default", undefined), "project:a");
    assert.equal(resolveScope(two, "team:default", undefined), "team:default");
    assert.equal(resolveScope(all, "team:default", undefined), undefined, "every project: the engine's default");
    assert.equal(resolveScope(one, "team:default", "project:a"), "project:a");
    assert.ok(isDenied(catchSync(() => resolveScope(one, "team:default", "project:b")), "PROJECT_FORBIDDEN"));
    const required = catchSync(() => resolveScope(twoOther, "team:default", undefined));
    assert.ok(HindsightError.is(required, "INVALID_INPUT") && required.field === "scope", String(required));
    assert.equal(resolveScope(one, "team:default", "not a scope"), "not a scope", "malformed: left for the engine's 400");
    assert.equal(defaultScopeFor(twoOther, "team:default"), "project:a");
    assert.equal(defaultScopeFor(one, "team:default"), "project:a");
  });

  it("a full grant is the engine's own actingAs view: no checks, audited as the token", async () => {
    const view = scopedApi(t.engine, fullGrant("root"));
    await view.write({ content: "The API listens on port 8443.", scope: "project:x" });
    const [entry] = await t.engine.auditLog({ scope: "project:x" });
    assert.equal(entry?.actor, "token:root");
  });

  it("permissions: read, write and admin calls", async () => {
    const reader = scopedApi(t.engine, grant("r", ["read"], ["project:a"]));
    const writer = scopedApi(t.engine, grant("w", ["write"], ["project:a"]));
    assert.ok(isDenied(await rejection(reader.write({ content: "Readers cannot write." })), "PERMISSION_DENIED"));
    assert.ok(isDenied(await rejection(writer.recall({ query: "anything" })), "PERMISSION_DENIED"));
    assert.ok(isDenied(await rejection(reader.summarize({ topic: "x", propose: true })), "PERMISSION_DENIED"), "proposing is a write");
    assert.ok(isDenied(await rejection(writer.auditLog()), "PERMISSION_DENIED"));
    assert.ok(isDenied(catchSync(() => writer.embedderForEval()), "PERMISSION_DENIED"));
    assert.equal((reader as unknown as { close?: unknown }).close, undefined, "lifecycle is not for tokens");
    const w = await writer.write({ content: "The staging database runs PostgreSQL 16." });
    assert.equal(w.memory?.scope, "project:a");
    assert.equal((await t.engine.auditLog({ scope: "project:a" }))[0]?.actor, "token:w");
  });

  it("withDefaultScope chooses among the token's projects and never widens them", async () => {
    const multi = scopedApi(t.engine, grant("m", ["read", "write"], ["project:a", "project:c"]));
    const c = multi.withDefaultScope("project:c");
    assert.equal(c.config.defaultScope, "project:c");
    const w = await c.write({ content: "Project C builds with Gradle." });
    assert.equal(w.memory?.scope, "project:c");
    assert.equal((await t.engine.auditLog({ scope: "project:c" }))[0]?.actor, "token:m", "still audited as the token");
    assert.ok(isDenied(catchSync(() => multi.withDefaultScope("project:b")), "PROJECT_FORBIDDEN"));
    assert.ok(isDenied(await rejection(c.recall({ query: "Gradle", scope: "project:b" })), "PROJECT_FORBIDDEN"), "the narrowed view still checks");
    assert.ok(isDenied(await rejection(c.auditLog()), "PERMISSION_DENIED"), "and keeps the token's permissions");
    const malformed = catchSync(() => multi.withDefaultScope("no colon"));
    assert.equal((malformed as { code?: string }).code, "INVALID_INPUT");
  });

  it("ids: a memory or proposal of another project is PROJECT_FORBIDDEN; an unknown memory stays the engine's NOT_FOUND", async () => {
    const b = await t.engine.write({ content: "Project B deploys on Mondays.", scope: "project:b" });
    const a = scopedApi(t.engine, grant("a", ["read", "write", "admin"], ["project:a"]));
    for (const call of [() => a.get(b.id!), () => a.edit(b.id!, { confidence: 0.5 }), () => a.pin(b.id!, true), () => a.forget({ id: b.id! }), () => a.forget({ ids: [b.id!] }), () => a.explain(b.id!), () => a.resolveConflict(b.id!, b.id!, "both"), () => a.releaseQuarantined(b.id!), () => a.deleteQuarantined(b.id!)]) {
      assert.ok(isDenied(await rejection(call()), "PROJECT_FORBIDDEN"), call.toString());
    }
    assert.ok(isDenied(await rejection(a.memoryGroups({ scope: "project:b" })), "PROJECT_FORBIDDEN"), "group counts of another project");
    assert.deepEqual(await a.memoryGroups(), [], "its own project's groups: none yet");
    const err = await rejection(a.get("no-such-id"));
    assert.equal((err as { code?: string }).code, "NOT_FOUND");
    assert.ok(isDenied(await rejection(a.approveProposal("no-such-proposal")), "PROJECT_FORBIDDEN"), "a proposal outside the token's projects, known or not");
    assert.equal((await t.engine.get(b.id!)).confidence, b.memory!.confidence, "nothing changed in B");
  });

  it("the view's config shows the token's default scope; actingAs keeps the checks", async () => {
    const g = grant("a", ["read"], ["project:a"]);
    const view = scopedApi(t.engine, g);
    assert.equal(view.config.defaultScope, "project:a");
    const other = view.actingAs("token:someone");
    assert.ok(isDenied(await rejection(other.recall({ query: "x", scope: "project:b" })), "PROJECT_FORBIDDEN"));
    assert.notEqual(grantKey(g), grantKey(grant("a", ["read", "write"], ["project:a"])));
  });
});

function catchSync(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected a throw");
}
