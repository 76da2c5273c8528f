import { strict as assert } from "node:assert";
import { replacesNamedValue } from "../../../src/core/write/reconcile.js";

// A statement that names the version it replaces, where the new version's parts also stand in the memory
// as parts of other words (eval/judgement/fresh20: "v2.4" against a memory of "Hopper-4" drones on "v2.3").
// The sentences here are in no case file.

describe("a named old version whose successor's parts the memory holds elsewhere", () => {
  it("the memory does not say the new version, so it is the one replaced", () => {
    assert.ok(replacesNamedValue("the ticket scanners went from 4.1 to 4.2 last night", "Zone-2 ticket scanners run 4.1."));
    assert.ok(replacesNamedValue("售票机固件从 v1.8 升到 v1.9 了", "Kiosk-9 ticket machines run firmware v1.8."));
  });

  it("a memory that already says the new version is not replaced", () => {
    assert.equal(replacesNamedValue("the ticket scanners went from 4.1 to 4.2 last night", "Zone-2 ticket scanners run 4.2, the old ones ran 4.1."), false);
  });
});
