import { strict as assert } from "node:assert";
import { focusedQuery as focusedWith, refocus } from "../../../src/core/recall/focus.js";
import { contentTokenSet } from "../../../src/core/text/tokens.js";

/** Recall passes the query's token set it already has; the tests make it here. */
const focusedQuery = (query: string, candidates: string[]): string | null => focusedWith(query, contentTokenSet(query), candidates);

describe("recall: the query without what its best candidates share", () => {
  it("drops the thing every candidate names and keeps the attribute asked for", () => {
    const about = ["The invoice worker listens on port 7070.", "The invoice worker retries twice.", "The invoice worker logs to stdout.", "Lunch is at noon."];
    assert.equal(focusedQuery("Which port does the invoice worker use?", about), "Which port does the use?");
  });

  it("reads a possessive and a stem as the shared word", () => {
    const about = ["Nimbus's cache lives in Valkey.", "Nimbus builds with Bazel.", "Nimbus ships weekly."];
    assert.equal(focusedQuery("How often do Nimbus's builds run?", about), "How often do builds run?");
  });

  it("cuts Chinese words out as substrings", () => {
    const about = ["结算系统用 Kafka 做消息队列。", "结算系统部署在杭州机房。", "结算系统每晚十点出报表。"];
    assert.equal(focusedQuery("结算系统用什么消息队列？", about), "用什么消息队列？");
  });

  it("when the candidates share the attribute, the thing is what is left", () => {
    const about = ["The search service uses Postgres as its database.", "The billing service database is MySQL.", "The auth service database is SQLite."];
    const focused = focusedQuery("Which database does the billing service use?", about);
    assert.ok(focused !== null && /billing/.test(focused) && !/database/.test(focused), String(focused));
  });

  it("is null with too few candidates, nothing shared, or nothing left", () => {
    assert.equal(focusedQuery("Which port does the invoice worker use?", ["The invoice worker listens on port 7070.", "The invoice worker retries twice."]), null);
    assert.equal(focusedQuery("Which port is open?", ["Lunch is at noon.", "The sky is blue.", "Cats purr."]), null);
    assert.equal(focusedQuery("invoice worker", ["The invoice worker a.", "The invoice worker b.", "The invoice worker c."]), null);
  });
});

describe("recall: refocused relevance", () => {
  it("swaps part of each cosine's deviation for the focused one's and keeps the mean", () => {
    const rel = [0.8, 0.7, 0.6];
    const out = refocus(rel, [0.9, 0.89, 0.88], [0.80, 0.84, 0.78], 0.5, 0.12);
    const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
    assert.ok(Math.abs(mean(out) - mean(rel)) < 1e-12);
    assert.ok((out[1] as number) > (rel[1] as number) && (out[2] as number) < (rel[2] as number), out.join(" "));
    assert.deepEqual(refocus(rel, [0.9, 0.89, 0.88], [0.80, 0.84, 0.78], 0, 0.12), rel);
  });
});
