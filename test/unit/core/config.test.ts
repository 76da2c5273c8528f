import { strict as assert } from "node:assert";
import { resolveConfig } from "../../../src/core/config.js";
import { MemoryEngine } from "../../../src/core/engine.js";
import { HindsightError } from "../../../src/core/errors.js";
import { InMemoryStore } from "../../../src/stores/memory/memoryStore.js";
import { FakeEmbedder, FixedClock } from "../../helpers/fakes.js";

describe("config.resolveConfig", () => {
  it("fills every default from an empty input", () => {
    const c = resolveConfig();
    assert.deepEqual(c.weights, { relevance: 0.65, confidence: 0.2, timeDecay: 0.1, access: 0.05 });
    assert.equal(c.recall.defaultK, 5);
    assert.equal(c.recall.relevanceFloor, 0.3);
    assert.equal(c.write.tieWindowMs, 60_000);
    assert.equal(c.decayPerDay.task_state, 0.1);
    assert.equal(c.defaultScope, "project:default");
  });

  it("keeps the defaults beside a partial nested override", () => {
    const c = resolveConfig({ recall: { relevanceFloor: 0.5 }, write: { tieWindowMs: 0 } });
    assert.equal(c.recall.relevanceFloor, 0.5);
    assert.equal(c.recall.defaultK, 5);
    assert.equal(c.recall.vectorCandidates, 20);
    assert.deepEqual(c.recall.fusion, { vector: 0.45, fullText: 0.35, coverage: 0.2 });
    assert.equal(c.write.tieWindowMs, 0);
    assert.equal(c.write.dedupSimilarity, undefined, "unset: the embedding model's profile decides");
    assert.equal(c.write.defaultConfidence, 0.8);
    assert.deepEqual(c.weights, { relevance: 0.65, confidence: 0.2, timeDecay: 0.1, access: 0.05 });
  });

  it("accepts a full set of weights", () => {
    const c = resolveConfig({ weights: { relevance: 1, confidence: 0, timeDecay: 0, access: 0 } });
    assert.deepEqual(c.weights, { relevance: 1, confidence: 0, timeDecay: 0, access: 0 });
  });

  it("refuses a weight outside [0, 1] with INVALID_INPUT naming the field", () => {
    assert.throws(
      () => resolveConfig({ weights: { relevance: 1.5, confidence: 0.2, timeDecay: 0.15, access: 0.05 } }),
      (err: unknown) => HindsightError.is(err, "INVALID_INPUT") && err.field === "weights.relevance",
    );
  });

  it("refuses a negative decay rate and a non-integer k", () => {
    assert.throws(() => resolveConfig({ recall: { defaultK: 2.5 } }), (err: unknown) => HindsightError.is(err, "INVALID_INPUT") && err.field === "recall.defaultK");
    assert.throws(
      () => resolveConfig({ decayPerDay: { preference: -1, fact: 0.01, constraint: 0.005, task_state: 0.1, event: 0.02 } }),
      (err: unknown) => HindsightError.is(err, "INVALID_INPUT") && err.field === "decayPerDay.preference",
    );
  });

  it("the engine constructor validates its configuration", () => {
    assert.throws(
      () => new MemoryEngine({ store: new InMemoryStore(), embedder: new FakeEmbedder(), clock: new FixedClock() }, { accessScale: 0 }),
      (err: unknown) => HindsightError.is(err, "INVALID_INPUT") && err.field === "accessScale",
    );
  });
});
