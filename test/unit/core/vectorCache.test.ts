import { strict as assert } from "node:assert";
import type { EmbedKind } from "../../../src/core/ports.js";
import { VectorCache } from "../../../src/core/model/vectorCache.js";
import { FakeEmbedder } from "../../helpers/fakes.js";

/** Records which kind of text it was asked to embed. */
class KindRecorder extends FakeEmbedder {
  kinds: Array<EmbedKind | undefined> = [];
  embedded: string[] = [];
  override async embed(texts: string[], kind?: EmbedKind): Promise<Float32Array[]> {
    this.kinds.push(kind);
    this.embedded.push(...texts);
    return super.embed(texts);
  }
}

describe("vector cache: texts embedded one way, once", () => {
  it("embeds each text once, as a query, and answers later calls from what it kept", async () => {
    const embedder = new KindRecorder();
    const sym = new VectorCache(embedder, "query");
    const first = await sym.of(["仓库在嘉善。", "客服九点上班。", "仓库在嘉善。"]);
    assert.equal(first.size, 2);
    assert.deepEqual(embedder.kinds, ["query"]);
    const second = await sym.of(["客服九点上班。", "运费满百免。"]);
    assert.deepEqual(embedder.embedded, ["仓库在嘉善。", "客服九点上班。", "运费满百免。"]);
    assert.equal(second.get("客服九点上班。"), first.get("客服九点上班。"));
    assert.equal((await sym.of([])).size, 0);
  });
});
