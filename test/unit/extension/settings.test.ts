import { strict as assert } from "node:assert";
import { resolveConfig } from "../../../src/core/config.js";
import { engineConfigFor, readSettings } from "../../../src/extension/settings.js";

const from = (values: Record<string, unknown>) => readSettings((key) => values[key]);

describe("extension settings → engine config", () => {
  it("defaults when nothing is set", () => {
    const { settings, problems } = from({});
    assert.deepEqual(problems, []);
    assert.equal(settings.serverPort, 0);
    assert.equal(settings.autoRecall, false);
    assert.equal(settings.mode, "local");
    assert.equal(settings.llm.useCopilot, true);
    assert.deepEqual(settings.engine, {});
  });

  it("first-class settings become engine overrides; other weights keep their defaults", () => {
    const { settings } = from({ "recall.relevanceFloor": 0.5, "recall.weights": { relevance: 0.7 }, "write.taskStateTtlHours": 24 });
    const config = resolveConfig(engineConfigFor(settings, "project:x"));
    assert.equal(config.recall.relevanceFloor, 0.5);
    assert.equal(config.weights.relevance, 0.7);
    assert.equal(config.weights.confidence, 0.2);
    assert.equal(config.write.taskStateTtlHours, 24);
    assert.equal(config.defaultScope, "project:x");
    assert.equal(config.actor, "vscode");
  });

  it("hindsight.engine overrides merge with the first-class settings and cannot set the scope or the actor", () => {
    const { settings } = from({ "recall.relevanceFloor": 0.4, engine: { recall: { defaultK: 3 }, defaultScope: "project:evil", actor: "someone" } });
    const config = resolveConfig(engineConfigFor(settings, "project:mine"));
    assert.equal(config.recall.relevanceFloor, 0.4);
    assert.equal(config.recall.defaultK, 3);
    assert.equal(config.defaultScope, "project:mine");
    assert.equal(config.actor, "vscode");
  });

  const bad: Array<[Record<string, unknown>, string]> = [
    [{ "server.port": 70000 }, "hindsight.server.port"],
    [{ "server.port": "8080" }, "hindsight.server.port"],
    [{ "recall.relevanceFloor": 2 }, "hindsight.recall.relevanceFloor"],
    [{ "recall.weights": { relevance: -1 } }, "hindsight.recall.weights.relevance"],
    [{ "recall.weights": { bogus: 1 } }, "hindsight.recall.weights"],
    [{ "llm.endpointUrl": "ftp://x" }, "hindsight.llm.endpointUrl"],
    [{ mode: "cloud" }, "hindsight.mode"],
    [{ engine: { recall: { defaultK: 500 } } }, "hindsight.engine.recall.defaultK"],
    [{ autoRecall: "yes", "autoRecall.enabled": "yes" }, "hindsight.autoRecall.enabled"],
  ];
  for (const [values, setting] of bad) {
    it(`reports ${setting} by name for ${JSON.stringify(values)} and keeps the default`, () => {
      const { settings, problems } = from(values);
      assert.ok(problems.some((p) => p.setting === setting), JSON.stringify(problems));
      // Whatever was refused, the result is still a valid engine configuration.
      assert.doesNotThrow(() => resolveConfig(engineConfigFor(settings, "project:x")));
    });
  }
});
