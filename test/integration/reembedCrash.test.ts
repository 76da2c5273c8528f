import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LanceStore } from "../../src/stores/lancedb/lanceStore.js";
import { CLI, childEnv, ensureBundle } from "../helpers/cliProcess.js";
import { memoryRecord, turnRecord } from "../helpers/records.js";

const OLD_MODEL = { id: "Xenova/all-MiniLM-L6-v2", dimension: 384 };
const NEW_MODEL = "Xenova/multilingual-e5-small";
const MEMORIES = 240;
const TURNS = 60;

function unit(seed: number): Float32Array {
  const v = new Float32Array(384);
  for (let i = 0; i < 384; i++) v[i] = Math.sin(seed * 31 + i * 7);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

/** What a store holds after a kill: which model, and how many memories and turns written with which model. */
async function inspect(dir: string): Promise<{ model: string; memories: number; turns: number; models: Set<string> }> {
  const store = new LanceStore({ dir });
  const model = (await store.storedModel())!;
  await store.open(model);
  try {
    const memories = await store.listMemories({});
    const turns = await store.listTurns({});
    return { model: model.id, memories: memories.length, turns: turns.length, models: new Set(memories.map((m) => m.embeddingModel)) };
  } finally {
    await store.close();
  }
}

describe("integration: `hindsight reembed` killed with SIGKILL (real process, LanceDB, the real model)", function () {
  this.timeout(600_000);
  let root: string;
  let template: string;

  before(async () => {
    ensureBundle();
    root = await mkdtemp(join(tmpdir(), "hindsight-reembed-crash-"));
    template = join(root, "template");
    const store = new LanceStore({ dir: template });
    await store.open(OLD_MODEL);
    await store.putMemories(
      Array.from({ length: MEMORIES }, (_, i) => ({
        record: memoryRecord({ id: `m${i}`, content: `Service ${i} writes its logs to /var/log/service-${i}.log.`, embeddingModel: OLD_MODEL.id }),
        vector: unit(i),
      })),
    );
    await store.putTurns(Array.from({ length: TURNS }, (_, i) => ({ record: turnRecord({ id: `t${i}`, user: `Turn ${i}: where do the logs of service ${i} go?` }), vector: unit(1000 + i) })));
    await store.close();
  });

  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  function reembed(dir: string, killAfterMs: number | null): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
    return new Promise((resolvePromise, reject) => {
      const child = spawn(process.execPath, [CLI, "reembed", "--data", dir], { env: childEnv(root), stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
      child.on("error", reject);
      child.on("close", (code, signal) => resolvePromise({ code, signal, stderr }));
      if (killAfterMs !== null) setTimeout(() => child.kill("SIGKILL"), killAfterMs).unref();
    });
  }

  it("a kill at any moment leaves the old tables with the old model or the new ones with the new model, complete; an uninterrupted run then finishes", async () => {
    // One uninterrupted run times the whole rewrite, so the kills can be spread over all of it.
    const timed = join(root, "timed");
    await cp(template, timed, { recursive: true });
    const t0 = Date.now();
    const full = await reembed(timed, null);
    const duration = Date.now() - t0;
    assert.equal(full.code, 0, full.stderr);
    const done = await inspect(timed);
    assert.deepEqual({ ...done, models: [...done.models] }, { model: NEW_MODEL, memories: MEMORIES, turns: TURNS, models: [NEW_MODEL] });

    const outcomes: string[] = [];
    const KILLS = 10;
    for (let k = 0; k < KILLS; k++) {
      const dir = join(root, `kill-${k}`);
      await cp(template, dir, { recursive: true });
      // From the model's load to the end: spread evenly, with a jitter, over the run.
      const at = Math.round(duration * (0.3 + (0.7 * (k + Math.random())) / KILLS));
      const run = await reembed(dir, at);
      const seen = await inspect(dir);
      outcomes.push(`${at} ms: ${run.signal ?? `exit ${run.code}`} → ${seen.model === NEW_MODEL ? "new" : "old"}`);
      assert.equal(seen.memories, MEMORIES, `kill at ${at} ms lost memories`);
      assert.equal(seen.turns, TURNS, `kill at ${at} ms lost turns`);
      assert.deepEqual([...seen.models], [seen.model], `kill at ${at} ms mixed models in one store`);
      // The store works after the kill: a second reembed completes it.
      const again = await reembed(dir, null);
      assert.equal(again.code, 0, again.stderr);
      const after = await inspect(dir);
      assert.deepEqual({ ...after, models: [...after.models] }, { model: NEW_MODEL, memories: MEMORIES, turns: TURNS, models: [NEW_MODEL] });
      await rm(dir, { recursive: true, force: true });
    }
    process.stderr.write(`      rewrite ${duration} ms; kills: ${outcomes.join("; ")}\n`);
    assert.ok(outcomes.some((o) => o.includes("SIGKILL")), "no kill landed before the run ended");
  });
});
