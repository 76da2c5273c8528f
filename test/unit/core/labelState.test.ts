import { strict as assert } from "node:assert";
import { sameTask } from "../../../src/core/write/reconcile.js";
import { labelThing } from "../../../src/core/write/slot.js";

// A kind that left a stale progress line first on cases written without looking at the rules
// (eval/judgement/fresh19): a status line whose label ends in a verb of state. The sentences are in no case file.

describe("a label that ends in a verb of state", () => {
  it("names its thing", () => {
    assert.deepEqual(labelThing("Night-shift rota paused: the union asked for a review."), ["night", "shift", "rota"]);
    assert.equal(labelThing("Night-shift rota: 3 of 5 wards signed off."), null);
    assert.equal(labelThing("夜班排班暂停了：工会要求复核。"), null, "Chinese labels are read by their characters (cjkLabel)");
  });

  it("is the same task as a label of that thing with no such verb, and another task than a label with another verb", () => {
    assert.ok(sameTask("Mobile onboarding flow milestone: 3 of 4 screens done.", "Mobile onboarding flow shipped: live for all new sign-ups.", 0.8));
    assert.ok(sameTask("Checkout redesign rolled back: conversion dropped on day two.", "Checkout redesign beta: 40% of traffic.", 0.8));
    assert.ok(!sameTask("Photos uploaded: 120 of 400.", "Photos tagged: 50 of 400.", 0.8));
  });
});
