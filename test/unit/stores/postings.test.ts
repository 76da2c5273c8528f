import { strict as assert } from "node:assert";
import { Postings } from "../../../src/stores/mirror/postings.js";

const everything = (): boolean => true;

describe("Postings (BM25 of the in-memory mirror)", () => {
  it("a document replaced or removed leaves the statistics of an index built without it", () => {
    const edited = new Postings();
    edited.set("a", "kafka broker retention seven days");
    edited.set("b", "kafka consumer lag alert");
    edited.set("c", "old text about kafka kafka kafka");
    edited.set("c", "grafana dashboard for the broker");
    edited.set("d", "to be removed broker broker");
    edited.delete("d");
    edited.delete("missing");
    const fresh = new Postings();
    fresh.set("a", "kafka broker retention seven days");
    fresh.set("b", "kafka consumer lag alert");
    fresh.set("c", "grafana dashboard for the broker");
    for (const q of [["kafka"], ["broker"], ["kafka", "broker", "lag"], ["removed"]]) {
      assert.deepEqual(edited.search(q, everything, 10), fresh.search(q, everything, 10), q.join(" "));
    }
    assert.equal(edited.size, 3);
    assert.deepEqual(edited.search(["removed"], everything, 10), []);
  });

  it("a rarer word counts more, a repeated query word counts once, and the filter decides who competes but not how rare a word is", () => {
    const p = new Postings();
    p.set("common-1", "deploy pipeline");
    p.set("common-2", "deploy staging");
    p.set("common-3", "deploy canary");
    p.set("rare", "canary rollout");
    const [top] = p.search(["deploy", "canary"], everything, 1);
    assert.equal(top?.id, "common-3", "both words beat one");
    const canary = p.search(["canary"], everything, 10);
    assert.deepEqual(canary.map((h) => h.id).sort(), ["common-3", "rare"]);
    assert.deepEqual(p.search(["canary", "canary"], everything, 10), canary);
    const onlyRare = p.search(["deploy", "canary"], (id) => id === "rare", 10);
    assert.deepEqual(onlyRare.map((h) => h.id), ["rare"]);
    assert.equal(onlyRare[0]?.score, canary.find((h) => h.id === "rare")?.score, "same statistics with or without the filter");
    assert.deepEqual(p.search(["deploy"], everything, 0), []);
  });
});
