import { strict as assert } from "node:assert";
import { resolveConfig } from "../../../src/core/config.js";
import { MINILM_L6, MULTILINGUAL_E5_SMALL, profileFor, thresholds, unreadable } from "../../../src/core/model/profiles.js";

describe("model profiles: thresholds belong to the embedding model", () => {
  it("E5 reads Chinese and is queried with its training prefixes; MiniLM is English-only without prefixes", () => {
    const e5 = profileFor(MULTILINGUAL_E5_SMALL);
    const mini = profileFor(MINILM_L6);
    assert.deepEqual([e5.queryPrefix, e5.passagePrefix, e5.readsCjk], ["query: ", "passage: ", true]);
    assert.deepEqual([mini.queryPrefix, mini.passagePrefix, mini.readsCjk], ["", "", false]);
    assert.ok(e5.cosineLow > mini.cosineLow + 0.4, "E5's cosines are compressed: its calibration sits far higher");
    assert.equal(unreadable("部署在周二", e5), false);
    assert.equal(unreadable("部署在周二", mini), true);
    assert.equal(unreadable("deploys on Tuesday", mini), false);
  });

  it("an unknown E5 id gets the E5 family's profile, anything else MiniLM's", () => {
    assert.equal(profileFor("intfloat/multilingual-e5-base").queryPrefix, "query: ");
    assert.equal(profileFor("someone/other-embedder").readsCjk, false);
  });

  it("explicit configuration wins over the profile, the rest comes from the model", () => {
    const t = thresholds(resolveConfig({ write: { dedupSimilarity: 0.99 }, recall: { cosineLow: 0.5 } }), MULTILINGUAL_E5_SMALL);
    assert.equal(t.dedupSimilarity, 0.99);
    assert.equal(t.cosineLow, 0.5);
    assert.equal(t.cosineHigh, profileFor(MULTILINGUAL_E5_SMALL).cosineHigh);
    assert.equal(t.topicSimilarity, profileFor(MULTILINGUAL_E5_SMALL).topicSimilarity);
  });
});
