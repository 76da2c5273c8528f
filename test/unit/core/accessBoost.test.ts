import { strict as assert } from "node:assert";
import { resolveConfig, type EngineConfigInput } from "../../../src/core/config.js";
import { HindsightError } from "../../../src/core/errors.js";
import { byRank, countAccess, finalScore, type ScoreFactors } from "../../../src/core/recall/score.js";
import { DAY, makeEngine } from "../../helpers/fakes.js";

interface Item {
  name: string;
  score: number;
  factors: ScoreFactors;
}

function item(name: string, relevance: number, accessBoost: number, confidence = 0.8): Item {
  return { name, score: 0, factors: { relevance, confidence, timeDecay: 1, accessBoost } };
}

/** Ranks items the way recall does: full boosts as given, limited by countAccess, best first. */
function rank(items: Item[], config: EngineConfigInput = {}): string[] {
  const c = resolveConfig(config);
  const full = new Map(items.map((m) => [m, m.factors.accessBoost]));
  countAccess(items, (m) => full.get(m) ?? 0, c);
  for (const m of items) assert.ok(Math.abs(m.score - finalScore(m.factors, c)) < 1e-12, "score is the weighted sum of the factors that counted");
  return [...items].sort(byRank).map((m) => m.name);
}

describe("recall: access boost only among the relevant", () => {
  it("use never lifts a memory over a clearly more relevant one, however heavy its weight", () => {
    for (const access of [0.05, 0.3, 1]) {
      const relevant = item("relevant", 0.7, 0);
      const popular = item("popular", 0.45, 0.99);
      assert.deepEqual(rank([popular, relevant], { weights: { access } }), ["relevant", "popular"], `weights.access ${access}`);
      if (access > 0.05) assert.ok(popular.factors.accessBoost < 0.99, "the boost that counted is reported");
      assert.ok(popular.score <= relevant.score);
    }
  });

  it("even when the boost would exactly tie, the more relevant memory comes first", () => {
    const relevant = item("relevant", 0.6, 0);
    const popular = item("popular", 0.5, 1);
    // 0.65·0.1 = 0.065 = 0.065·1: without the limit they tie exactly
    assert.deepEqual(rank([popular, relevant], { weights: { access: 0.065 } }), ["relevant", "popular"]);
  });

  it("between equally relevant memories the one used more comes first", () => {
    assert.deepEqual(rank([item("fresh", 0.6, 0), item("used", 0.6, 0.6)]), ["used", "fresh"]);
    const a = item("fresh", 0.6, 0);
    const b = item("used", 0.6, 0.6);
    rank([a, b]);
    assert.equal(b.factors.accessBoost, 0.6, "an unlimited boost is reported as it is");
  });

  it("within the margin use may reorder; accessMargin 0 lets relevance always win", () => {
    const close = () => [item("a bit more relevant", 0.62, 0), item("used", 0.6, 1)];
    assert.deepEqual(rank(close()), ["used", "a bit more relevant"]);
    assert.deepEqual(rank(close(), { recall: { accessMargin: 0 } }), ["a bit more relevant", "used"]);
  });

  it("what ranked first without use keeps its place: the limit only holds back use, not confidence or recency", () => {
    // less relevant but much surer: first without use, so its own use still counts in full
    const sure = item("sure", 0.5, 1, 1);
    const relevant = item("relevant", 0.6, 0, 0.55);
    assert.deepEqual(rank([relevant, sure]), ["sure", "relevant"]);
    assert.equal(sure.factors.accessBoost, 1);
  });

  it("accessMargin is validated like its neighbours", () => {
    assert.equal(resolveConfig().recall.accessMargin, 0.05);
    assert.throws(
      () => resolveConfig({ recall: { accessMargin: 2 } }),
      (err: unknown) => HindsightError.is(err, "INVALID_INPUT") && err.field === "recall.accessMargin",
    );
  });

  describe("through the engine (fakes)", () => {
    const RELEVANT = "The team stores orders in a PostgreSQL database.";
    const POPULAR = "A friend of the user prefers the Vim editor for notes on the database course.";
    const QUERY = "Which database stores the orders?";

    async function popularAfterUse(config: EngineConfigInput) {
      // A heavy access weight, so that without the limit use would clearly win.
      const t = await makeEngine(undefined, { weights: { access: 0.6 }, ...config });
      await t.engine.write({ content: RELEVANT, type: "fact" });
      await t.engine.write({ content: POPULAR, type: "fact", confidence: 0.9 });
      for (let i = 0; i < 12; i++) {
        t.clock.advance(DAY / 4);
        const r = await t.engine.recall({ query: "Which editor does the friend prefer for notes?", k: 1 });
        assert.equal(r.memories[0]?.content, POPULAR);
      }
      return (await t.engine.recall({ query: QUERY })).memories;
    }

    it("a memory recalled many times for other questions does not take rank 1 from the relevant one", async () => {
      const memories = await popularAfterUse({});
      assert.equal(memories[0]?.content, RELEVANT, JSON.stringify(memories.map((m) => [m.content, m.factors])));
      const popular = memories.find((m) => m.content === POPULAR);
      assert.ok(popular, "control: the popular memory passes the relevance floor for this query");
      assert.ok(popular.factors.relevance + 0.05 < memories[0]!.factors.relevance);
      assert.ok(memories[0]!.score >= popular.score);
    });

    it("control: with use allowed to override any relevance gap, the popular memory would win", async () => {
      const memories = await popularAfterUse({ recall: { accessMargin: 1 } });
      assert.equal(memories[0]?.content, POPULAR);
    });

    it("between two equally relevant memories, the one recalled before comes first", async () => {
      const { engine, clock } = await makeEngine();
      const a = await engine.write({ content: "Staging uses gateway port 8443.", type: "fact" });
      const b = await engine.write({ content: "Production uses gateway port 9443.", type: "fact" });
      const first = await engine.recall({ query: "gateway port" });
      const relevance = new Map(first.memories.map((m) => [m.id, m.factors.relevance]));
      assert.ok(Math.abs(relevance.get(a.id!)! - relevance.get(b.id!)!) <= 0.05, "control: the two are about equally relevant");
      const unused = first.memories[1]!.id;
      const loser = first.memories[0]!.id === a.id ? b : a;
      assert.equal(unused, loser.id);
      for (let i = 0; i < 5; i++) {
        clock.advance(60_000);
        await engine.recall({ query: `gateway port ${loser.id === a.id ? "staging" : "production"}`, k: 1 });
      }
      const after = await engine.recall({ query: "gateway port" });
      assert.equal(after.memories[0]?.id, loser.id, JSON.stringify(after.memories.map((m) => [m.content, m.factors])));
    });
  });
});
