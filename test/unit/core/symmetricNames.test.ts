import { strict as assert } from "node:assert";
import { latinNames, mayReadSymmetric } from "../../../src/core/recall/relevance.js";

// A Chinese question about a thing no memory names found unrelated Chinese memories through the symmetric reading
// (eval/judgement/fresh6, a history's last question). The sentences here are in no case file.

describe("a question that names a thing is not answered by a paraphrase that never names it", () => {
  it("reads names written with a capital and a lowercase letter, not acronyms", () => {
    assert.deepEqual(latinNames("Grafana 的告警发到哪个群"), ["grafana"]);
    assert.deepEqual(latinNames("iOS 包谁来签"), ["ios"]);
    assert.deepEqual(latinNames("API 文档放在哪"), []);
    assert.deepEqual(latinNames("这人忌口吗"), []);
  });
  it("the symmetric reading speaks only for memories that name it, or for any memory when the question names nothing", () => {
    assert.equal(mayReadSymmetric("Kafka 的分区数是多少", "订单服务上线推迟到下周三"), false);
    assert.equal(mayReadSymmetric("Kafka 的分区数是多少", "消息队列用 kafka，分区 12 个"), true);
    assert.equal(mayReadSymmetric("API 文档放在哪", "接口文档在内网 wiki 上"), true);
    assert.equal(mayReadSymmetric("这人忌口吗", "对虾过敏"), true);
  });
});
