import { strict as assert } from "node:assert";
import { HindsightError } from "../../../src/core/errors.js";
import { matchIdPrefixes, shortId } from "../../../src/core/ops/shortIds.js";
import { makeEngine, rejection } from "../../helpers/fakes.js";

const lookup = { field: "--id", kind: "memory" as const, scope: "project:t" };
const KNOWN = ["a1b2c3d4-1111", "a1b2ffff-2222", "9f8e7d6c-3333", "m2"];

function refusal(fn: () => unknown): HindsightError {
  try {
    fn();
  } catch (err) {
    if (HindsightError.is(err)) return err;
    throw err;
  }
  throw new Error("expected a HindsightError");
}

describe("short ids (core/ops/shortIds)", () => {
  it("an exact id, or a unique prefix of 4+ characters in any case, is the full id", () => {
    assert.equal(shortId("a1b2c3d4-1111"), "a1b2c3d4");
    assert.deepEqual(matchIdPrefixes(["9f8e", "A1B2C3", "a1b2c3d4-1111", " m2 "], KNOWN, lookup), ["9f8e7d6c-3333", "a1b2c3d4-1111", "a1b2c3d4-1111", "m2"]);
  });

  it("an ambiguous prefix is INVALID_INPUT listing the candidates; an unknown one NOT_FOUND; a too short one INVALID_INPUT; each names the field", () => {
    const ambiguous = refusal(() => matchIdPrefixes(["a1b2"], KNOWN, lookup));
    assert.equal(ambiguous.code, "INVALID_INPUT");
    assert.equal(ambiguous.field, "--id");
    assert.equal(ambiguous.message, '--id: "a1b2" is ambiguous in project:t: 2 memory ids start with it (a1b2c3d4, a1b2ffff); give more characters');
    const unknown = refusal(() => matchIdPrefixes(["ffff"], KNOWN, { ...lookup, field: "replaces" }));
    assert.deepEqual([unknown.code, unknown.field, unknown.message], ["NOT_FOUND", "replaces", 'replaces: no memory in project:t has an id starting with "ffff"']);
    const short = refusal(() => matchIdPrefixes(["a1b"], KNOWN, lookup));
    assert.deepEqual([short.code, short.field], ["INVALID_INPUT", "--id"]);
    assert.match(short.message, /at least 4 characters/);
  });

  it("engine.resolveIds resolves within the scope only (any status), and proposals by kind", async () => {
    const { engine } = await makeEngine();
    const a = await engine.write({ content: "The staging database runs Postgres 16.", type: "fact" });
    const b = await engine.write({ content: "The weekly sync is on Mondays.", type: "fact" });
    const other = await engine.write({ content: "Builds run on Buildkite.", type: "fact", scope: "project:other" });
    await engine.write({ content: "The weekly sync moved to Tuesdays.", type: "fact", replaces: [b.id!] });
    // b is superseded by now: still named by its id.
    assert.deepEqual(await engine.resolveIds([a.id!, b.id!]), [a.id, b.id]);
    const elsewhere = await rejection(engine.resolveIds([other.id!], { field: "--replaces" }));
    assert.ok(HindsightError.is(elsewhere, "NOT_FOUND") && elsewhere.field === "--replaces", String(elsewhere));
    assert.deepEqual(await engine.resolveIds([other.id!], { scope: "project:other" }), [other.id]);
    // The fakes number ids id-0001, id-0002…, so "id-0" starts every id of the scope.
    const ambiguous = await rejection(engine.resolveIds(["id-0"]));
    assert.ok(HindsightError.is(ambiguous, "INVALID_INPUT") && /3 memory ids start with it/.test(ambiguous.message), String(ambiguous));

    await engine.write({ content: "Deploys need a green CI run.", type: "constraint", subject: "deploys" });
    const summary = await engine.summarize({ subject: "deploys", propose: true });
    const proposal = summary.proposal!;
    assert.deepEqual(await engine.resolveIds([proposal.id.slice(0, 6)], { kind: "proposal", field: "ID" }), [proposal.id]);
    const noProposal = await rejection(engine.resolveIds([a.id!], { kind: "proposal", field: "ID" }));
    assert.ok(HindsightError.is(noProposal, "NOT_FOUND") && noProposal.message.startsWith("ID: no proposal in project:test"), String(noProposal));
  });
});
