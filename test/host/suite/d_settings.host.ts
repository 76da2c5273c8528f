import { strict as assert } from "node:assert";
import * as vscode from "vscode";
import type { RecallResult } from "../../../src/core/recall/types.js";
import { hindsight, setSetting, waitFor } from "./helpers.js";

const WIDGETS = "project:github.com/acme/widgets";

describe("settings take effect without a reload (real VS Code extension host)", () => {
  after(async () => {
    await setSetting("recall.relevanceFloor", undefined);
    await setSetting("recall.weights", undefined);
  });

  it("a new relevance floor reaches the running engine and changes recall", async () => {
    const api = await hindsight();
    await vscode.commands.executeCommand("hindsight.rememberSelection", { text: "Widgets are packaged as Debian packages with dpkg-buildpackage.", scope: WIDGETS });
    const query = "which packaging tool do we use?";
    const before = await vscode.commands.executeCommand<RecallResult>("hindsight.recall", { query, scope: WIDGETS });
    const hit = before?.memories.find((m) => /dpkg/.test(m.content));
    assert.ok(hit, JSON.stringify(before?.memories));
    assert.ok(hit.factors.relevance < 0.99, `the query must be a partial match (relevance ${hit.factors.relevance})`);
    await setSetting("recall.relevanceFloor", 0.99);
    await waitFor("relevanceFloor 0.99 in the engine", () => api.service.engineConfig?.recall.relevanceFloor === 0.99);
    const after = await vscode.commands.executeCommand<RecallResult>("hindsight.recall", { query, scope: WIDGETS });
    assert.ok(!after?.memories.some((m) => m.id === hit.id), JSON.stringify(after?.memories.map((m) => m.factors)));
    await setSetting("recall.relevanceFloor", undefined);
    await waitFor("relevanceFloor back to the default", () => api.service.engineConfig?.recall.relevanceFloor === 0.3);
  });

  it("advanced engine overrides apply too (hindsight.engine)", async () => {
    const api = await hindsight();
    await setSetting("engine", { recall: { defaultK: 1 } });
    await waitFor("defaultK 1 in the engine", () => api.service.engineConfig?.recall.defaultK === 1);
    const client = await api.service.client();
    const r = await client.json<RecallResult>("POST", "/recall", { query: "widgets", scope: WIDGETS });
    assert.ok(r.memories.length <= 1, `defaultK 1 must cap recall, got ${r.memories.length}`);
    await setSetting("engine", undefined);
    await waitFor("defaultK back to 5", () => api.service.engineConfig?.recall.defaultK === 5);
  });

  it("weights are pushed into the engine; an invalid value is reported by name and the default stands", async () => {
    const api = await hindsight();
    await setSetting("recall.weights", { relevance: 0.5, confidence: 0.3 });
    await waitFor("weights in the engine", () => api.service.engineConfig?.weights.relevance === 0.5 && api.service.engineConfig.weights.confidence === 0.3);
    assert.equal(api.service.engineConfig?.weights.timeDecay, 0.1, "unset weights keep their defaults");
    await setSetting("recall.weights", { relevance: 7 });
    await waitFor("the invalid weight rejected", () => api.service.engineConfig?.weights.relevance === 0.65);
    assert.equal(api.service.state, "running");
  });
});
