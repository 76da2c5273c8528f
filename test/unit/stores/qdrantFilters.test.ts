import { strict as assert } from "node:assert";
import { and, anyTermFilter, memoryFilter, scopeStatusFilter, termCondition, turnFilter } from "../../../src/stores/qdrant/filters.js";
import { collectionNames, memoryPayload, modelKey, pointId } from "../../../src/stores/qdrant/points.js";
import { rankByBm25 } from "../../../src/stores/qdrant/textRank.js";
import { memoryRecord } from "../../helpers/records.js";

describe("qdrant: engine filters translated to Qdrant filters", () => {
  it("an empty filter is no filter at all", () => {
    assert.equal(memoryFilter({}), undefined);
    assert.equal(turnFilter({}), undefined);
    assert.equal(scopeStatusFilter(undefined), undefined);
  });

  it("scope, session: exact keyword matches", () => {
    assert.deepEqual(memoryFilter({ scope: "project:a", sessionId: "s1" }), {
      must: [
        { key: "scope", match: { value: "project:a" } },
        { key: "session_id", match: { value: "s1" } },
      ],
    });
  });

  it("one status, type or layer is match.value; several are match.any", () => {
    assert.deepEqual(memoryFilter({ statuses: ["active"], types: ["fact", "event"], layers: ["L2", "L3"] }), {
      must: [
        { key: "status", match: { value: "active" } },
        { key: "type", match: { any: ["fact", "event"] } },
        { key: "layer", match: { any: ["L2", "L3"] } },
      ],
    });
  });

  it("an empty list matches nothing (as SQL IN () does), not everything", () => {
    assert.deepEqual(memoryFilter({ statuses: [] }), { must: [{ has_id: [] }] });
    assert.deepEqual(turnFilter({ statuses: [] }), { must: [{ has_id: [] }] });
    assert.deepEqual(scopeStatusFilter("project:a", []), { must: [{ key: "scope", match: { value: "project:a" } }, { has_id: [] }] });
  });

  it("validAt: valid_until empty (null or missing) or later than the time", () => {
    assert.deepEqual(memoryFilter({ validAt: 1_000 }), {
      must: [{ should: [{ is_empty: { key: "valid_until" } }, { key: "valid_until", range: { gt: 1000 } }] }],
    });
  });

  it("a value with quotes or operators is passed as data, never as syntax", () => {
    const scope = "project:x' OR 1=1 --";
    assert.deepEqual(memoryFilter({ scope }), { must: [{ key: "scope", match: { value: scope } }] });
  });

  it("turns: scope and statuses", () => {
    assert.deepEqual(turnFilter({ scope: "project:a", statuses: ["active", "redacted"] }), {
      must: [
        { key: "scope", match: { value: "project:a" } },
        { key: "status", match: { any: ["active", "redacted"] } },
      ],
    });
  });

  it("full text: one token per condition; any of several terms is a should", () => {
    assert.deepEqual(termCondition("deploy"), { key: "fts", match: { text: "deploy" } });
    assert.deepEqual(anyTermFilter(["deploy", "数据库"]), { should: [{ key: "fts", match: { text: "deploy" } }, { key: "fts", match: { text: "数据库" } }] });
  });

  it("and() nests both filters under must and drops an absent side", () => {
    const a = memoryFilter({ scope: "project:a" });
    const b = anyTermFilter(["x"]);
    assert.deepEqual(and(a, b), { must: [a, b] });
    assert.equal(and(undefined, b), b);
    assert.equal(and(a, undefined), a);
    assert.equal(and(undefined, undefined), undefined);
  });
});

describe("qdrant: point ids, collection names, payloads", () => {
  it("point ids are stable UUIDs (version 5 layout), distinct per kind and id", () => {
    const id = pointId("memory", "m1");
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(pointId("memory", "m1"), id);
    assert.notEqual(pointId("turn", "m1"), id);
    assert.notEqual(pointId("memory", "m2"), id);
  });

  it("model keys are collection-safe, carry the dimension, and differ for ids that slug alike", () => {
    const a = modelKey({ id: "Xenova/all-MiniLM-L6-v2", dimension: 384 });
    assert.match(a, /^xenova-all-minilm-l6-v2_384_[0-9a-f]{6}$/);
    assert.notEqual(modelKey({ id: "xenova-all-minilm-l6-v2", dimension: 384 }), a);
    assert.notEqual(modelKey({ id: "Xenova/all-MiniLM-L6-v2", dimension: 768 }), a);
    const names = collectionNames("team1", { id: "m", dimension: 8 });
    assert.equal(names.meta, "team1_meta");
    assert.ok(names.memories.startsWith("team1_memories_m_8_"));
  });

  it("a memory's payload holds the indexed fields, the engine's tokens and the exact record", () => {
    const rec = memoryRecord({ id: "m1", content: "We deployed the API to Frankfurt.", subject: "deploy target", validUntil: 5, sessionId: "s" });
    const p = memoryPayload(rec);
    assert.deepEqual(
      { scope: p.scope, layer: p.layer, type: p.type, status: p.status, session_id: p.session_id, valid_until: p.valid_until, created_at: p.created_at },
      { scope: "project:a", layer: "L3", type: "fact", status: "active", session_id: "s", valid_until: 5, created_at: rec.createdAt },
    );
    assert.equal(p.fts, "deploy api frankfurt target");
    assert.deepEqual(JSON.parse(String(p.doc)), rec);
  });
});

describe("qdrant: BM25 ranking of full-text candidates", () => {
  it("rarer terms weigh more; more matched terms rank higher; no match scores nothing", () => {
    const ranked = rankByBm25(
      [
        { id: "common", tokens: ["deploy", "service"] },
        { id: "rare", tokens: ["deploy", "frankfurt"] },
        { id: "none", tokens: ["vitest"] },
        { id: "only-rare", tokens: ["frankfurt", "tuesday"] },
      ],
      new Map([
        ["deploy", 50],
        ["frankfurt", 2],
      ]),
      100,
    );
    assert.deepEqual(ranked.map((r) => r.id), ["rare", "only-rare", "common"]);
    assert.ok(ranked.every((r) => r.score > 0));
  });

  it("empty candidates or terms give nothing", () => {
    assert.deepEqual(rankByBm25([], new Map([["a", 1]]), 1), []);
    assert.deepEqual(rankByBm25([{ id: 1, tokens: ["a"] }], new Map(), 1), []);
  });
});
