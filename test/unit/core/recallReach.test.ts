import { strict as assert } from "node:assert";
import { queryTerms, reachOf, wordsFindNothingNew, type RecallReach } from "../../../src/core/recall/reach.js";
import { fakeVector } from "../../helpers/fakes.js";
import { contentTokenSet } from "../../../src/core/text/tokens.js";

describe("recall reach: which changes can alter a kept answer", () => {
  const reach = (over: Partial<RecallReach> = {}): RecallReach => ({
    open: false,
    ids: ["m1", "m2"],
    terms: queryTerms(contentTokenSet("Which port does the metrics gateway listen on?"), ["grafana"]),
    vector: fakeVector("which port does the metrics gateway listen on"),
    minCos: 0.3,
    found: ["m1", "m2", "m7"],
    ...over,
  });
  const memory = (id: string, text: string, terms: string[] = []) => ({ id, vector: fakeVector(text), terms });

  it("a memory the answer read or its searches found, changed, reaches it", () => {
    assert.equal(reachOf(reach(), { memories: [memory("m2", "pottery class moved to thursday")] }), "yes");
    assert.equal(reachOf(reach(), { memories: [memory("m7", "pottery class moved to thursday")] }), "yes", "one the word searches found and the answer did not read");
  });

  it("a new memory sharing a search term or a name with the question is judged by the word searches; one sharing neither, below the weakest vector candidate, does not reach it", () => {
    assert.equal(reachOf(reach(), { memories: [memory("n1", "the gateway restarts at noon", ["gateway", "restart", "noon"])] }), "by words");
    assert.equal(reachOf(reach(), { memories: [memory("n2", "dashboards live in grafana", ["grafana"])] }), "by words");
    assert.equal(reachOf(reach(), { memories: [memory("n3", "pottery class moved to thursday", ["potteri", "class", "thursday"])] }), "no");
    assert.equal(reachOf(reach({ found: null }), { memories: [memory("n1", "the gateway restarts at noon", ["gateway"])] }), "yes", "what the searches found was not recorded");
    assert.equal(reachOf(reach({ found: undefined }), { memories: [memory("n1", "the gateway restarts at noon", ["gateway"])] }), "yes", "an answer kept by an older version");
  });

  it("a new memory as close to the question as the weakest vector candidate reaches it, whatever its words", () => {
    const close = memory("n4", "which port does the metrics gateway listen on", []);
    assert.equal(reachOf(reach(), { memories: [close] }), "yes");
    assert.equal(reachOf(reach({ minCos: -1 }), { memories: [memory("n5", "pottery class moved to thursday")] }), "yes", "a vector search that came back short: anything joins");
    assert.equal(reachOf(reach({ vector: null }), { memories: [close] }), "no", "a question that did not search by vector");
    assert.equal(reachOf(reach(), { memories: [memory("n1", "the gateway restarts at noon", ["gateway"]), close] }), "yes", "one of several reaches it");
  });

  it("a change not described, and an open answer (by time, from raw turns, empty), are reached by anything", () => {
    assert.equal(reachOf(reach(), null), "yes");
    assert.equal(reachOf(reach({ open: true }), { memories: [] }), "yes");
    assert.equal(reachOf(reach(), { memories: [] }), "no");
  });

  it("the word searches asked again stand for the answer while they find only what they found then, in any order or fewer", () => {
    assert.equal(wordsFindNothingNew(reach(), ["m7", "m1"]), true);
    assert.equal(wordsFindNothingNew(reach(), []), true);
    assert.equal(wordsFindNothingNew(reach(), ["m1", "n1"]), false, "a memory that now outranks one they found");
    assert.equal(wordsFindNothingNew(reach({ found: null }), []), false);
  });
});
