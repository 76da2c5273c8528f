import { strict as assert } from "node:assert";
import { HindsightError } from "../../../src/core/errors.js";
import { makeEngine, rejection } from "../../helpers/fakes.js";

describe("engine view with its own default scope (a client of the store's owner in another project)", () => {
  it("calls without a scope use the view's; the engine and other views keep theirs; a named scope still wins", async () => {
    const { engine } = await makeEngine();
    const api = engine.withDefaultScope("project:api");
    const web = engine.withDefaultScope("project:web").actingAs("token:abc");
    const a = await api.write({ content: "The API is written in Go 1.22." });
    const w = await web.write({ content: "The web app is built with Vite." });
    const own = await engine.write({ content: "The monorepo uses pnpm workspaces." });
    assert.equal((await engine.get(a.id!)).scope, "project:api");
    assert.equal((await engine.get(w.id!)).scope, "project:web");
    assert.equal((await engine.get(own.id!)).scope, "project:test");
    assert.equal(api.config.defaultScope, "project:api");
    assert.equal(engine.config.defaultScope, "project:test");
    assert.deepEqual((await api.recall({ query: "What language is the API written in?" })).memories.map((m) => m.id), [a.id]);
    assert.equal((await api.list({ scope: "project:web" })).length, 1);
  });

  it("a malformed scope is INVALID_INPUT naming the field", async () => {
    const { engine } = await makeEngine();
    const err = await rejection(Promise.resolve().then(() => engine.withDefaultScope("no colon here")));
    assert.ok(HindsightError.is(err, "INVALID_INPUT"), String(err));
    assert.equal(err.field, "scope");
  });
});
