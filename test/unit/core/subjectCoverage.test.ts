import { strict as assert } from "node:assert";
import { resolveConfig } from "../../../src/core/config.js";
import { MULTILINGUAL_E5_SMALL, thresholds } from "../../../src/core/model/profiles.js";
import { fuseRelevance, queryFeatures } from "../../../src/core/recall/relevance.js";
import { fakeVector } from "../../helpers/fakes.js";

// A preference written as "我写 Go 的时候习惯用 GoLand" with the subject "用户的编辑器" was not found for "用户平时用什么编辑器"
// (eval/judgement/fresh7): the memory's words never say "editor". The sentences here are in no case file.

describe("a subject the caller gave counts as the memory's words for coverage", () => {
  const config = resolveConfig();
  const t = thresholds(config, MULTILINGUAL_E5_SMALL);
  it("the question's words found in the subject raise coverage and evidence", () => {
    const query = "Which spreadsheet tool does the finance team use?";
    const q = queryFeatures(query, fakeVector(query), t);
    const text = "Month-end numbers all live in Airtable bases.";
    const bare = fuseRelevance(q, text, fakeVector(text), 0, config);
    const labelled = fuseRelevance(q, text, fakeVector(text), 0, config, undefined, "finance team spreadsheet tool");
    assert.ok(labelled.coverage > bare.coverage, `${labelled.coverage} > ${bare.coverage}`);
    assert.ok(labelled.evidence >= bare.evidence);
  });
});

describe("recall reads a memory with the subject its caller gave", () => {
  it("finds a memory whose subject, not its content, holds the question's words", async () => {
    const { makeEngine } = await import("../../helpers/fakes.js");
    const { engine } = await makeEngine();
    await engine.write({ content: "Month-end numbers all live in Airtable bases.", subject: "finance team spreadsheet tool" });
    await engine.write({ content: "The office plants are watered on Tuesdays." });
    const r = await engine.recall({ query: "Which spreadsheet tool does the finance team use?" });
    assert.match(r.memories[0]?.content ?? "", /Airtable/);
  });
});
