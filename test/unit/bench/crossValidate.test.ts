import { strict as assert } from "node:assert";
import { crossValidate, objective } from "../../../src/bench/crossValidate.js";
import type { LocomoVariant, QuestionScore } from "../../../src/bench/locomo.js";

const q = (conversation: string, r5: number, r10: number): QuestionScore => ({ conversation, category: "4", recall: { 5: r5, 10: r10 }, allHit: {}, linked: {} });

describe("bench/crossValidate: leave one conversation out", () => {
  const variants: LocomoVariant[] = [
    { name: "a-default", system: "a", config: {} },
    { name: "a-other", system: "a", config: {} },
    { name: "b-only", system: "b", config: {} },
  ];

  it("scores each conversation with the setting chosen on the others, and reports the in-sample best beside it", () => {
    // a-other wins overall only because of conversation c3; held out, c3 is scored by what c1 and c2 prefer.
    const results = new Map<string, QuestionScore[]>([
      ["a-default", [q("c1", 0.6, 0.6), q("c2", 0.6, 0.6), q("c3", 0.2, 0.2)]],
      ["a-other", [q("c1", 0.5, 0.5), q("c2", 0.5, 0.5), q("c3", 1, 1)]],
      ["b-only", [q("c1", 0.1, 0.1), q("c2", 0.1, 0.1), q("c3", 0.1, 0.1)]],
    ]);
    const [a, b] = crossValidate(results, variants, [5, 10]);
    assert.equal(a?.system, "a");
    assert.equal(a?.fitted.variant, "a-other");
    assert.deepEqual(a?.crossValidated.choices, { c1: "a-other", c2: "a-other", c3: "a-default" });
    assert.equal(objective(a!.fitted.scores, [5, 10]).toFixed(4), "0.6667");
    assert.equal(objective(a!.crossValidated.scores, [5, 10]).toFixed(4), "0.4000", "c3 held out scores 0.2");
    assert.equal(a?.defaults.variant, "a-default");
    assert.equal(b?.fitted.variant, "b-only");
    assert.deepEqual(b?.crossValidated.choices, { c1: "b-only", c2: "b-only", c3: "b-only" });
  });

  it("a tie goes to the earlier setting (the shipping default first)", () => {
    const same = [q("c1", 0.5, 0.5), q("c2", 0.5, 0.5)];
    const [a] = crossValidate(new Map([["a-default", same], ["a-other", same]]), variants.slice(0, 2), [5, 10]);
    assert.equal(a?.fitted.variant, "a-default");
    assert.deepEqual(a?.crossValidated.choices, { c1: "a-default", c2: "a-default" });
  });
});
