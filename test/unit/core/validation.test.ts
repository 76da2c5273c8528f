import { strict as assert } from "node:assert";
import { HindsightError } from "../../../src/core/errors.js";
import type { WriteInput } from "../../../src/core/model/inputs.js";
import { makeEngine, rejection } from "../../helpers/fakes.js";

function assertInvalid(err: unknown, field: string): void {
  assert.ok(err instanceof HindsightError, `expected a HindsightError, got ${String(err)}`);
  assert.equal(err.code, "INVALID_INPUT", err.message);
  assert.equal(err.field, field, err.message);
}

describe("engine input validation", () => {
  const bad: Array<[string, Record<string, unknown>, string]> = [
    ["empty content", { content: "" }, "content"],
    ["blank content", { content: "   \n " }, "content"],
    ["content over 4000 characters", { content: "a".repeat(4001) }, "content"],
    ["confidence above 1", { content: "We use pnpm.", confidence: 1.5 }, "confidence"],
    ["negative confidence", { content: "We use pnpm.", confidence: -0.1 }, "confidence"],
    ["unknown type", { content: "We use pnpm.", type: "opinion" }, "type"],
    ["unparseable valid_until", { content: "We use pnpm.", validUntil: "next tuesday" }, "valid_until"],
    ["impossible valid_until date", { content: "We use pnpm.", validUntil: "2026-13-45" }, "valid_until"],
    ["bad scope", { content: "We use pnpm.", scope: "workspace:x" }, "scope"],
    ["scope with spaces", { content: "We use pnpm.", scope: "project:my repo" }, "scope"],
  ];

  for (const [what, input, field] of bad) {
    it(`write refuses ${what} (field ${field}) and stores nothing`, async () => {
      const { engine } = await makeEngine();
      await engine.write({ content: "The API listens on port 8080." });
      const before = await engine.list({ statuses: ["active", "superseded", "archived", "quarantined"] });
      const err = await rejection(engine.write(input as WriteInput));
      assertInvalid(err, field);
      const after = await engine.list({ statuses: ["active", "superseded", "archived", "quarantined"] });
      assert.equal(after.length, before.length);
      assert.equal(after.length, 1);
    });
  }

  it("content of exactly 4000 characters is accepted", async () => {
    const { engine } = await makeEngine();
    const r = await engine.write({ content: `${"word ".repeat(799)}done!` });
    assert.notEqual(r.id, null);
    assert.equal(await engine.count(), 1);
  });

  it("recall refuses an empty query and k out of range", async () => {
    const { engine } = await makeEngine();
    assertInvalid(await rejection(engine.recall({ query: "  " })), "query");
    assertInvalid(await rejection(engine.recall({ query: "pnpm", k: 0 })), "k");
    assertInvalid(await rejection(engine.recall({ query: "pnpm", k: 51 })), "k");
  });

  it("ingest refuses an empty user turn", async () => {
    const { engine, store } = await makeEngine();
    assertInvalid(await rejection(engine.ingest({ user: "" })), "user");
    assert.deepEqual(await store.listTurns({}), []);
  });

  it("forget needs one of id, ids, query or match", async () => {
    const { engine } = await makeEngine();
    const err = await rejection(engine.forget({}));
    assert.ok(HindsightError.is(err, "INVALID_INPUT"));
    assert.match((err as Error).message, /give one of id, ids, query or match/);
  });

  it("forget of an unknown id is NOT_FOUND", async () => {
    const { engine } = await makeEngine();
    const err = await rejection(engine.forget({ id: "nope" }));
    assert.ok(HindsightError.is(err, "NOT_FOUND"), String(err));
  });

  it("get of an unknown id is NOT_FOUND with field id", async () => {
    const { engine } = await makeEngine();
    const err = await rejection(engine.get("nope"));
    assert.ok(HindsightError.is(err, "NOT_FOUND"));
    assert.equal((err as HindsightError).field, "id");
  });

  it("an engine that is not open says so", async () => {
    const { engine } = await makeEngine();
    await engine.close();
    const err = await rejection(engine.write({ content: "We use pnpm." }));
    assert.ok(HindsightError.is(err, "STORE_CLOSED"), String(err));
  });

  it("errors serialise to {code, message, field}", async () => {
    const { engine } = await makeEngine();
    const err = (await rejection(engine.write({ content: "x", confidence: 2 }))) as HindsightError;
    const json = err.toJSON();
    assert.equal(json.code, "INVALID_INPUT");
    assert.equal(json.field, "confidence");
    assert.match(json.message, /confidence/);
  });

  it("a day that does not exist is refused, and a whole-body error names the body once", async () => {
    const { engine } = await makeEngine();
    const err = (await rejection(engine.write({ content: "Freeze until the end of February.", validUntil: "2026-02-30" }))) as HindsightError;
    assert.equal(err.field, "valid_until");
    assert.equal((await engine.write({ content: "Leap day freeze.", validUntil: "2028-02-29" })).action, "added");
    const whole = (await rejection(engine.write([1, 2] as unknown as WriteInput))) as HindsightError;
    assert.equal(whole.field, "write");
    assert.doesNotMatch(whole.message, /write: write:/);
  });
});
