import { strict as assert } from "node:assert";
import { resolveConfig } from "../../../src/core/config.js";
import { MemoryEngine } from "../../../src/core/engine.js";
import { HindsightError } from "../../../src/core/errors.js";
import { InMemoryStore } from "../../../src/stores/memory/memoryStore.js";
import { FakeEmbedder, FixedClock, makeEngine } from "../../helpers/fakes.js";

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

  it("the write thresholds that used to be written inline keep their values as defaults", () => {
    const w = resolveConfig().write;
    assert.deepEqual(
      {
        dedupSimilarityLexical: w.dedupSimilarityLexical,
        restatementSimilarityLexical: w.restatementSimilarityLexical,
        lexicalTopicWithCue: w.lexicalTopicWithCue,
        correctionWindowMs: w.correctionWindowMs,
        correctionSimilarityLexical: w.correctionSimilarityLexical,
        taskFrameSimilarity: w.taskFrameSimilarity,
        neighbourVectorHits: w.neighbourVectorHits,
        neighbourTextHits: w.neighbourTextHits,
        llmNeighbours: w.llmNeighbours,
        importBatch: w.importBatch,
        sessionContextWindowMs: w.sessionContextWindowMs,
      },
      {
        dedupSimilarityLexical: 0.8,
        restatementSimilarityLexical: 0.75,
        lexicalTopicWithCue: 0.5,
        correctionWindowMs: 15 * 60_000,
        correctionSimilarityLexical: 0.2,
        taskFrameSimilarity: 0.4,
        neighbourVectorHits: 12,
        neighbourTextHits: 8,
        llmNeighbours: 4,
        importBatch: 256,
        sessionContextWindowMs: 30 * 60_000,
      },
    );
    assert.deepEqual(w.rules, {
      hedgedConfidence: 0.4,
      thirdPartyConfidence: 0.5,
      chineseRatio: 0.3,
      shortWishChars: 48,
      correctionMinChars: 20,
      shortRemarkWords: 5,
      shortRemarkChars: 40,
      minStatementChars: 4,
    });
  });

  it("validates the write thresholds, nested ones included, and keeps the rest beside an override", () => {
    const c = resolveConfig({ write: { rules: { hedgedConfidence: 0.3 } } });
    assert.equal(c.write.rules.hedgedConfidence, 0.3);
    assert.equal(c.write.rules.thirdPartyConfidence, 0.5);
    assert.equal(c.write.correctionWindowMs, 15 * 60_000);
    assert.throws(() => resolveConfig({ write: { rules: { hedgedConfidence: 1.5 } } }), (err: unknown) => HindsightError.is(err, "INVALID_INPUT") && err.field === "write.rules.hedgedConfidence");
    assert.throws(() => resolveConfig({ write: { correctionWindowMs: -1 } }), (err: unknown) => HindsightError.is(err, "INVALID_INPUT") && err.field === "write.correctionWindowMs");
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

describe("write-path sizes from the config reach the writer", () => {
  it("a bulk import stores importBatch memories per step", async () => {
    const puts: number[] = [];
    const store = new (class extends InMemoryStore {
      override async putMemories(items: Parameters<InMemoryStore["putMemories"]>[0]): Promise<void> {
        puts.push(items.length);
        return super.putMemories(items);
      }
    })();
    const { engine } = await makeEngine(store, { write: { importBatch: 2 } });
    const result = await engine.importMemories(["Redis caches sessions.", "We deploy to Fly.io.", "Unit tests use Vitest.", "The gateway uses port 8443.", "Staging runs Postgres 16."].map((content) => ({ content })));
    assert.equal(result.imported, 5);
    assert.deepEqual(puts, [2, 2, 1]);
  });
});
