import { strict as assert } from "node:assert";
import { resolveConfig } from "../../../src/core/config.js";
import { accessBoost, finalScore, timeDecay } from "../../../src/core/recall/score.js";
import { DAY, makeEngine, T0 } from "../../helpers/fakes.js";

describe("recall/score", () => {
  const config = resolveConfig();

  it("timeDecay is 1 when just stated and exp(-λ·days) after", () => {
    assert.equal(timeDecay({ type: "fact", confirmedAt: T0, pinned: false }, T0, config), 1);
    const d = timeDecay({ type: "fact", confirmedAt: T0, pinned: false }, T0 + 10 * DAY, config);
    assert.ok(Math.abs(d - Math.exp(-0.01 * 10)) < 1e-12);
  });

  it("timeDecay uses the lambda of the memory's type", () => {
    const at = T0 + 10 * DAY;
    const task = timeDecay({ type: "task_state", confirmedAt: T0, pinned: false }, at, config);
    const pref = timeDecay({ type: "preference", confirmedAt: T0, pinned: false }, at, config);
    assert.ok(Math.abs(task - Math.exp(-1)) < 1e-12);
    assert.ok(Math.abs(pref - Math.exp(-0.05)) < 1e-12);
    assert.ok(task < pref);
    const custom = resolveConfig({ decayPerDay: { preference: 0.005, fact: 0.5, constraint: 0.005, task_state: 0.1, event: 0.02 } });
    assert.ok(Math.abs(timeDecay({ type: "fact", confirmedAt: T0, pinned: false }, at, custom) - Math.exp(-5)) < 1e-12);
  });

  it("timeDecay is 1 for pinned memories and never above 1 for future timestamps", () => {
    assert.equal(timeDecay({ type: "task_state", confirmedAt: T0, pinned: true }, T0 + 100 * DAY, config), 1);
    assert.equal(timeDecay({ type: "fact", confirmedAt: T0 + DAY, pinned: false }, T0, config), 1);
  });

  it("accessBoost starts at 0, increases with use and stays below 1", () => {
    const xs = [0, 1, 2, 5, 20, 100].map((n) => accessBoost(n, config));
    assert.equal(xs[0], 0);
    for (let i = 1; i < xs.length; i++) assert.ok(xs[i]! > xs[i - 1]!, `not increasing at ${i}: ${xs.join(", ")}`);
    assert.ok(xs[xs.length - 1]! <= 1);
    assert.ok(Math.abs(accessBoost(5, config) - (1 - Math.exp(-1))) < 1e-12);
  });

  it("finalScore is the configured weighted sum", () => {
    const f = { relevance: 0.5, confidence: 0.9, timeDecay: 0.8, accessBoost: 0.1 };
    assert.ok(Math.abs(finalScore(f, config) - (0.65 * 0.5 + 0.2 * 0.9 + 0.1 * 0.8 + 0.05 * 0.1)) < 1e-12);
    const onlyRelevance = resolveConfig({ weights: { relevance: 1, confidence: 0, timeDecay: 0, access: 0 } });
    assert.equal(finalScore(f, onlyRelevance), 0.5);
    const onlyDecay = resolveConfig({ weights: { relevance: 0, confidence: 0, timeDecay: 1, access: 0 } });
    assert.equal(finalScore(f, onlyDecay), 0.8);
  });

  it("the engine's decay follows its injected clock", async () => {
    const { engine, clock } = await makeEngine();
    await engine.write({ content: "The API gateway listens on port 8443.", type: "fact" });
    const fresh = (await engine.recall({ query: "API gateway port" })).memories[0];
    assert.ok(fresh);
    assert.equal(fresh.factors.timeDecay, 1);
    clock.advance(30 * DAY);
    const later = (await engine.recall({ query: "API gateway port" })).memories[0];
    assert.ok(later);
    assert.ok(Math.abs(later.factors.timeDecay - Math.exp(-0.01 * 30)) < 1e-9, String(later.factors.timeDecay));
    assert.ok(later.score < fresh.score);
  });

  it("the engine's scores use its configured weights", async () => {
    const { engine } = await makeEngine(undefined, { weights: { relevance: 0.1, confidence: 0.7, timeDecay: 0.1, access: 0.1 } });
    await engine.write({ content: "The API gateway listens on port 8443.", confidence: 0.6 });
    const [m] = (await engine.recall({ query: "API gateway port" })).memories;
    assert.ok(m);
    const f = m.factors;
    assert.ok(Math.abs(m.score - (0.1 * f.relevance + 0.7 * f.confidence + 0.1 * f.timeDecay + 0.1 * f.accessBoost)) < 1e-12);
    assert.equal(f.confidence, 0.6);
  });
});
