import { strict as assert } from "node:assert";
import { describeMemory, describeRecall, describeWrite } from "../../../src/cli/describe.js";
import type { MemoryRecord } from "../../../src/core/model/memory.js";
import type { WriteResult } from "../../../src/core/write/writer.js";
import { makeEngine } from "../../helpers/fakes.js";

describe("cli: what the memory commands print", () => {
  it("a supersede names the memory it replaced by its short id and value; a duplicate names the confirmed memory once", async () => {
    const { engine } = await makeEngine(undefined, {});
    const long = (n: number) => `${String(n).padStart(8, "0")}-aaaa-4bbb-8ccc-dddddddddddd`;
    const oldRecord = { content: "The job runner is Celery." } as MemoryRecord;
    const w = await engine.write({ content: "The job runner is Dramatiq.", type: "fact" });
    const replacing: WriteResult = { ...w, id: long(2), action: "superseded", supersedes: [long(1)], reason: "same slot (job runner), newer value", decidedBy: "rules" };
    assert.equal(
      describeWrite(replacing, new Map([[long(1), oldRecord]])),
      'stored 00000002 "The job runner is Dramatiq." (L3 fact, confidence 0.80), replacing 00000001 "The job runner is Celery." (same slot (job runner), newer value)',
    );
    const duplicate: WriteResult = { ...w, id: long(2), action: "duplicate", reason: `restates memory ${long(2)}`, memory: { ...w.memory!, id: long(2), confirmCount: 3 } };
    const said = describeWrite(duplicate, new Map());
    assert.equal(said, 'already known: confirmed 00000002 "The job runner is Dramatiq." (stated 3 times); nothing new stored');
    const secret: WriteResult = { ...w, id: null, action: "skipped", flagged: true, memory: null, reason: "contains a secret (AWS access key)" };
    assert.equal(describeWrite(secret, new Map()), "not stored: contains a secret (AWS access key)");
  });

  it("list rows carry a status column (expired for an active memory past valid_until); recall rows carry short ids", async () => {
    const { engine } = await makeEngine();
    const w = await engine.write({ content: "The freeze lasts until Friday.", type: "fact", validUntil: "2026-03-20T00:00:00Z" });
    const m = w.memory!;
    assert.match(describeMemory(m, Date.parse("2026-03-19T00:00:00Z")), /^id-0001 {2}active {6}L\d \w+\s+0\.\d\d {2}The freeze lasts until Friday\. until 2026-03-20$/);
    assert.match(describeMemory(m, Date.parse("2026-03-21T00:00:00Z")), /^id-0001 {2}expired /);
    assert.match(describeMemory({ ...m, status: "quarantined" }, 0), /^id-0001 {2}quarantined L/);
    const r = await engine.recall({ query: "How long is the freeze?" });
    assert.match(describeRecall(r)[0]!, /^id-0001 {2}L\d \w+\s+0\.\d\d {2}The freeze lasts until Friday\. \(valid until 2026-03-20\)$/);
  });
});
