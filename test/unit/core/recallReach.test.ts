import { strict as assert } from "node:assert";
import { couldChange, queryTerms, type RecallReach } from "../../../src/core/recall/reach.js";
import { fakeVector } from "../../helpers/fakes.js";
import { contentTokenSet } from "../../../src/core/text/tokens.js";

describe("recall reach: which changes can alter a kept answer", () => {
  const reach = (over: Partial<RecallReach> = {}): RecallReach => ({
    open: false,
    ids: ["m1", "m2"],
    terms: queryTerms(contentTokenSet("Which port does the metrics gateway listen on?"), ["grafana"]),
    vector: fakeVector("which port does the metrics gateway listen on"),
    minCos: 0.3,
    ...over,
  });
  const memory = (id: string, text: string, terms: string[] = []) => ({ id, vector: fakeVector(text), terms });

  it("a memory the answer read, changed, reaches it", () => {
    assert.equal(couldChange(reach(), { memories: [memory("m2", "pottery class moved to thursday")] }), true);
  });

  it("a new memory sharing a search term or a name with the question reaches it; one sharing neither, below the weakest vector candidate, does not", () => {
    assert.equal(couldChange(reach(), { memories: [memory("n1", "the gateway restarts at noon", ["gateway", "restart", "noon"])] }), true);
    assert.equal(couldChange(reach(), { memories: [memory("n2", "dashboards live in grafana", ["grafana"])] }), true);
    assert.equal(couldChange(reach(), { memories: [memory("n3", "pottery class moved to thursday", ["potteri", "class", "thursday"])] }), false);
  });

  it("a new memory as close to the question as the weakest vector candidate reaches it, whatever its words", () => {
    const close = memory("n4", "which port does the metrics gateway listen on", []);
    assert.equal(couldChange(reach(), { memories: [close] }), true);
    assert.equal(couldChange(reach({ minCos: -1 }), { memories: [memory("n5", "pottery class moved to thursday")] }), true, "a vector search that came back short: anything joins");
    assert.equal(couldChange(reach({ vector: null }), { memories: [close] }), false, "a question that did not search by vector");
  });

  it("a change not described, and an open answer (by time, from raw turns, empty), are reached by anything", () => {
    assert.equal(couldChange(reach(), null), true);
    assert.equal(couldChange(reach({ open: true }), { memories: [] }), true);
    assert.equal(couldChange(reach(), { memories: [] }), false);
  });
});
