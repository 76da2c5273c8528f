import { strict as assert } from "node:assert";
import { join } from "node:path";
import { runTeamBench } from "../../src/bench/team.js";
import { MemoryEngine } from "../../src/core/engine.js";
import { TransformersEmbedder } from "../../src/models/transformersEmbedder.js";
import { systemClock } from "../../src/server/runtime.js";
import { startServer } from "../../src/server/serve.js";
import { TokenFileAuth } from "../../src/server/tokenAuth.js";
import { createToken } from "../../src/server/tokenFile.js";
import { LanceStore } from "../../src/stores/lancedb/lanceStore.js";
import { withTempDir } from "../helpers/fakes.js";
import { MODEL_DIR } from "../helpers/serveProcess.js";

/** A 10-second run of `hindsight bench team` (the 2-minute run is the bench command; its numbers are in the README). */
describe("integration: team load (4 MCP clients × 10 s of mixed recall/write, LanceDB, real model)", function () {
  this.timeout(180_000);

  it("no errors, and every acknowledged write is found again in its project", async () => {
    await withTempDir(async (dir) => {
      const engine = new MemoryEngine(
        { store: new LanceStore({ dir: join(dir, "store") }), embedder: new TransformersEmbedder({ modelDir: MODEL_DIR, allowDownload: false }), clock: systemClock },
        { defaultScope: "team:bench" },
      );
      await engine.open();
      try {
        const r = await runTeamBench({
          engine,
          clients: 4,
          seconds: 10,
          seed: 100,
          serve: async (projects) => {
            const path = join(dir, "tokens.json");
            const tokens: string[] = [];
            for (const [i, project] of projects.entries()) tokens.push((await createToken(path, { id: `c${i}`, scopes: ["read", "write"], projects: [project], rate: 0 }, new Date())).token);
            const { auth } = await TokenFileAuth.open(path, { defaults: { rate: 20, burst: 60 } });
            const running = await startServer({ engine, authenticator: auth, host: "127.0.0.1", port: 0 });
            return { url: running.url, tokens, close: () => running.close(200) };
          },
        });
        assert.equal(r.errors, 0, r.error_samples.join("\n"));
        assert.equal(r.hard_stopped, false);
        assert.ok(r.recalls > 0 && r.writes > 0, JSON.stringify(r));
        assert.ok(r.writes_acknowledged > 0);
        assert.equal(r.writes_lost, 0, r.error_samples.join("\n"));
        assert.equal(r.writes_verified, r.writes_acknowledged);
        assert.ok(r.seconds >= 10 && r.seconds < 70, `bounded: ${r.seconds} s`);
      } finally {
        await engine.close();
      }
    });
  });
});
