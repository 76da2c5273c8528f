import { strict as assert } from "node:assert";
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { TokenBucketLimiter } from "../../src/http/rateLimit.js";
import { connectRedis } from "../../src/server/redis/connection.js";
import { RedisRateLimiter } from "../../src/server/redis/rateLimiter.js";
import { RedisScopeLeases } from "../../src/server/redis/leases.js";
import { syntheticMemory, syntheticQuery } from "../../src/bench/synthetic.js";
import { RedisRecallCache } from "../../src/server/redis/recallCache.js";
import type { RecallReach } from "../../src/core/recall/reach.js";
import { HindsightError } from "../../src/core/errors.js";
import { ALL_SCOPES } from "../../src/core/ports.js";
import { startFakeQdrantProcess, type FakeQdrantProcess } from "../helpers/qdrantFakeProcess.js";
import { childEnv, ensureBundle, ROOT, runCli, startServeProcess, type ServeProcess } from "../helpers/cliProcess.js";
import { mcpClient } from "../helpers/serveProcess.js";
import { http } from "../helpers/http.js";
import { freePort, startRedis, type RedisProcess } from "../helpers/redisProcess.js";

const TOKEN = "team-replicas-token-0123456789abcdef";

/** /healthz once it says what `until` waits for (a replica looks at its dependencies at most once a second), or its last answer after 5 s. */
async function healthWhen(url: string, until: (json: { status: string }) => boolean) {
  let h = await http(url, "GET", "/healthz");
  for (let i = 0; i < 25 && !until(h.json); i++) {
    await new Promise((r) => setTimeout(r, 200));
    h = await http(url, "GET", "/healthz");
  }
  return h;
}

describe("integration: team replicas share Redis (real redis-server processes)", function () {
  this.timeout(300_000);
  let redis: RedisProcess;

  before(async () => {
    redis = await startRedis();
  });

  /** Two connections to the test's Redis, as two replicas have. */
  async function twoClients(use: (a: Redis, b: Redis) => Promise<void>): Promise<void> {
    const a = new Redis(redis.url);
    const b = new Redis(redis.url);
    try {
      await use(a, b);
    } finally {
      a.disconnect();
      b.disconnect();
    }
  }
  after(async () => {
    await redis.stop();
  });

  describe("the shared recall cache", () => {
    it("the recall cache in Redis: an answer comes back with the notes of every change since it was kept, none once they are not all there, and not after a change to every scope", async () => {
      await twoClients(async (a, b) => {
        const prefix = `t${Date.now()}`;
        const one = new RedisRecallCache({ redis: a, prefix });
        const other = new RedisRecallCache({ redis: b, prefix });
        const reach: RecallReach = { open: false, ids: ["m1"], terms: ["export"], vector: new Float32Array([0.6, 0.8, 0]), minCos: 0.5 };
        const result = { query: "q", scope: "project:x", memories: [], conflicts: [], usedFallback: false, text: "" };
        const first = await one.lookup("project:x", "q");
        assert.equal(first.kept, null);
        await one.keep(first.slot, { result, reach });
        const same = await other.lookup("project:x", "q");
        assert.deepEqual(same.since, []);
        assert.deepEqual([...(same.kept?.reach.vector ?? [])], [...reach.vector!], "the vector round-trips exactly");

        const written = { memories: [{ id: "n1", vector: new Float32Array([0, 0, 1]), terms: ["invoic"] }] };
        await other.changed("project:x", written);
        await other.changed("project:y", null);
        await other.changed("project:x", null);
        const behind = await one.lookup("project:x", "q");
        assert.equal(behind.since?.length, 2, "the two changes to its own scope, not the other scope's");
        assert.deepEqual(behind.since?.[0]?.memories.map((m) => [m.id, [...m.vector], m.terms]), [["n1", [0, 0, 1], ["invoic"]]]);
        assert.equal(behind.since?.[1], null, "an undescribed change stays undescribed");

        // Kept again as of now, then the scope's notes are lost (expired): the changes since cannot be judged.
        await one.keep(behind.slot, { result, reach });
        await other.changed("project:x", written);
        await a.del(`${prefix}:changes:scope:project:x`);
        assert.equal((await one.lookup("project:x", "q")).since, null);

        const fresh = await one.lookup("project:x", "q");
        await one.keep(fresh.slot, { result, reach });
        await other.changed(ALL_SCOPES, null);
        assert.equal((await one.lookup("project:x", "q")).since, null, "an import or an edit of every scope");
      });
    });
  });

  describe("the shared rate limit", () => {
    it("two limiters on one Redis give a key one budget in total, not one each", async () => {
      await twoClients(async (a, b) => {
      const own = () => new TokenBucketLimiter({ rate: 1000, burst: 1000 });
      const prefix = `t${Date.now()}`;
      const one = new RedisRateLimiter({ redis: a, rate: 0.5, burst: 5, prefix, fallback: own() });
      const two = new RedisRateLimiter({ redis: b, rate: 0.5, burst: 5, prefix, fallback: own() });
      const decisions = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).take("alice")));
      assert.equal(decisions.filter((d) => d.allowed).length, 5);
      const refused = decisions.find((d) => !d.allowed);
      assert.ok(refused && !refused.allowed && refused.retryAfterSeconds >= 1 && refused.retryAfterSeconds <= 2, JSON.stringify(refused));
      // Another key, and a token's own limits, have their own buckets.
      assert.equal((await one.take("bob")).allowed, true);
      const own2 = await Promise.all(Array.from({ length: 4 }, () => two.take("carol", 1, { rate: 1, burst: 2 })));
      assert.deepEqual(own2.map((d) => d.allowed), [true, true, false, false]);
      // The bucket leaves Redis once it would be full again.
      const ttl = await a.pttl(`${prefix}:rate:alice`);
      assert.ok(ttl > 0 && ttl <= 11_000, `ttl ${ttl}`);
      });
    });

    it("while Redis cannot be reached a replica limits by its own bucket instead of failing the request", async () => {
      const link = connectRedis(`redis://127.0.0.1:${await freePort()}`);
      try {
        const limiter = new RedisRateLimiter({ redis: link.client, rate: 1, burst: 2, fallback: new TokenBucketLimiter({ rate: 1, burst: 2 }) });
        const d = await Promise.all([limiter.take("x"), limiter.take("x"), limiter.take("x")]);
        assert.deepEqual(d.map((x) => x.allowed), [true, true, false]);
        assert.equal((await link.health(500)).ok, false);
      } finally {
        await link.close();
      }
    });
  });

  describe("write leases", () => {
    const isCoordination = (err: unknown) => HindsightError.is(err) && err.code === "COORDINATION_UNAVAILABLE";

    it("two replicas never hold one scope's lease at once; other scopes run meanwhile; the lease of every scope excludes them all", async () => {
      await twoClients(async (a, b) => {
      const prefix = `l${Date.now()}`;
      const one = new RedisScopeLeases({ redis: a, prefix, ttlMs: 2000 });
      const two = new RedisScopeLeases({ redis: b, prefix, ttlMs: 2000 });
      const inside = new Map<string, number>();
      const log: string[] = [];
      const work = (who: string, key: string) => async (fence: () => Promise<void>) => {
        const n = (inside.get(key) ?? 0) + 1;
        inside.set(key, n);
        const others = [...inside.entries()].filter(([k, c]) => k !== key && c > 0).map(([k]) => k);
        log.push(`${who} ${key} in (alone: ${n === 1}, beside: ${others.join(",")})`);
        await new Promise((r) => setTimeout(r, 30));
        await fence();
        inside.set(key, (inside.get(key) ?? 1) - 1);
      };
      await Promise.all([
        ...Array.from({ length: 6 }, (_, i) => (i % 2 ? one : two).hold("project:x", work(`r${i % 2}`, "project:x"))),
        one.hold("project:y", work("r1", "project:y")),
        two.hold(ALL_SCOPES, work("r2", ALL_SCOPES)),
      ]);
      assert.ok(log.every((l) => l.includes("alone: true")), log.join("\n"));
      const all = log.find((l) => l.includes(`${ALL_SCOPES} in`))!;
      assert.match(all, /beside: \)$/, "nothing ran beside the task for every scope");
      assert.ok(log.some((l) => /project:y in .*beside: project:x|project:x in .*beside: project:y/.test(l)), `scopes ran side by side:\n${log.join("\n")}`);
      assert.equal((await a.keys(`${prefix}:lease:scope:*`)).length + (await a.keys(`${prefix}:lease:all`)).length, 0, "every lease released");
      });
    });

    it("a replica paused past its lease's time cannot commit: its fence throws once another replica may have taken the lease", async () => {
      await twoClients(async (a, b) => {
      const prefix = `p${Date.now()}`;
      const slow = new RedisScopeLeases({ redis: a, prefix, ttlMs: 400 });
      const other = new RedisScopeLeases({ redis: b, prefix, ttlMs: 400 });
      let committed = false;
      const paused = slow.hold("project:z", async (fence) => {
        // A stall that stops the event loop, renewals included (a long GC, a frozen VM).
        const until = Date.now() + 700;
        while (Date.now() < until) {
          /* busy */
        }
        await fence();
        committed = true;
      });
      await assert.rejects(paused, isCoordination);
      assert.equal(committed, false);
      assert.equal(await other.hold("project:z", async () => "taken over"), "taken over");
      });
    });

    it("without Redis no lease is granted: the task does not run and the error says writes are refused, reads served", async () => {
      const link = connectRedis(`redis://127.0.0.1:${await freePort()}`);
      try {
        let ran = false;
        await assert.rejects(
          new RedisScopeLeases({ redis: link.client, ttlMs: 1000 }).hold("project:q", async () => {
            ran = true;
          }),
          (err: unknown) => isCoordination(err) && /reads are still served/.test((err as Error).message),
        );
        assert.equal(ran, false);
      } finally {
        await link.close();
      }
    });
  });

  describe("replicas of `hindsight serve --redis-url` on one store (the FAKE Qdrant REST endpoints, served by a process of their own)", () => {
    let home: string;
    let fake: FakeQdrantProcess;
    const replicas: ServeProcess[] = [];

    before(async () => {
      ensureBundle();
      home = await mkdtemp(join(tmpdir(), "hindsight-replicas-"));
      fake = await startFakeQdrantProcess();
    });
    after(async () => {
      for (const r of replicas.splice(0)) if (r.child.exitCode === null) r.child.kill("SIGKILL");
      await fake.close();
      await rm(home, { recursive: true, force: true });
    });

    const serve = (prefix: string, rate: string, burst: string, extra: string[] = []) =>
      startServeProcess(home, ["--store", "qdrant", "--qdrant-url", fake.url, "--qdrant-prefix", prefix, "--scope", "team:core", "--rate", rate, "--burst", burst, "--redis-url", redis.url, ...extra], {
        HINDSIGHT_TOKEN: TOKEN,
        HINDSIGHT_LEASE_TTL_MS: "1500",
      });
    const write = (r: ServeProcess, body: Record<string, unknown>) => http(r.url, "POST", "/api/v1/memories", { token: TOKEN, body });
    const active = async (r: ServeProcess) => {
      const listed = await http(r.url, "GET", "/api/v1/memories?limit=1000&status=active", { token: TOKEN });
      assert.equal(listed.status, 200, listed.text);
      return listed.json.memories as Array<{ id: string; content: string; status: string; superseded_by: string | null }>;
    };

    it("three replicas on one store: one sentence written through all at once is one memory; three replacements of one memory have one winner, the memory kept as history", async () => {
      const three = await Promise.all([serve("decide", "0", "1"), serve("decide", "0", "1"), serve("decide", "0", "1")]);
      replicas.push(...three);
      const same = await Promise.all(three.flatMap((r) => [1, 2].map(() => write(r, { content: "The release branch is cut every Wednesday at noon." }))));
      assert.ok(same.every((a) => a.status === 200 || a.status === 201), same.map((a) => a.text).join("\n"));
      assert.deepEqual(same.map((a) => a.json.action).sort(), ["added", "duplicate", "duplicate", "duplicate", "duplicate", "duplicate"]);
      assert.equal((await active(three[0]!)).filter((m) => m.content.includes("release branch")).length, 1);

      const base = await write(three[1]!, { content: "Staging runs PostgreSQL 14." });
      assert.equal(base.status, 201, base.text);
      const rivals = await Promise.all(three.map((r, i) => write(r, { content: `Staging runs PostgreSQL ${15 + i}.`, replaces: [base.json.id] })));
      const won = rivals.filter((a) => a.status === 201);
      assert.equal(won.length, 1, rivals.map((a) => `${a.status} ${a.text}`).join("\n"));
      for (const lost of rivals.filter((a) => a.status !== 201)) {
        assert.equal(lost.status, 400);
        assert.equal(lost.json.error.code, "INVALID_INPUT");
        assert.match(lost.json.error.message, new RegExp(`superseded by ${won[0]!.json.id}`));
      }
      const kept = await http(three[2]!.url, "GET", `/api/v1/memories/${base.json.id}`, { token: TOKEN });
      assert.equal(kept.json.memory.status, "superseded");
      assert.equal(kept.json.memory.superseded_by, won[0]!.json.id);
      assert.equal((await active(three[2]!)).filter((m) => m.content.startsWith("Staging runs")).length, 1);
    });

    it("the recall cache: a question asked through one replica is answered from Redis by another, through writes its searches cannot find, until a write that reaches it makes it ask the store again (never a stale answer)", async () => {
      const [a, b] = await Promise.all([serve("cache", "0", "1"), serve("cache", "0", "1")]);
      replicas.push(a!, b!);
      assert.match(a!.stderr(), /and the recall cache in Redis/);
      // A project's worth of other memories, more than the vector search asks for: a new memory must beat the weakest candidate to join.
      const seeded = await Promise.all(Array.from({ length: 60 }, (_, i) => write(b!, { content: syntheticMemory(i).content })));
      assert.ok(seeded.every((r) => r.status === 201));
      assert.equal((await write(a!, { content: "The nightly export lands in the bucket acme-exports." })).status, 201);
      const ask = (r: ServeProcess) => http(r.url, "POST", "/api/v1/recall", { token: TOKEN, body: { query: "Where does the nightly export land?" } });
      const cacheCounts = async (r: ServeProcess) => {
        const text = (await http(r.url, "GET", "/metrics", { token: TOKEN })).text;
        return [Number(/hindsight_recall_cache_hits_total (\d+)/.exec(text)?.[1]), Number(/hindsight_recall_cache_misses_total (\d+)/.exec(text)?.[1])];
      };
      const first = await ask(a!);
      assert.equal(first.json.memories[0]?.content, "The nightly export lands in the bucket acme-exports.");
      for (let i = 0; i < 3; i++) assert.deepEqual((await ask(b!)).json.memories.map((m: { id: string }) => m.id), first.json.memories.map((m: { id: string }) => m.id));
      assert.deepEqual(await cacheCounts(a!), [0, 1]);
      assert.deepEqual(await cacheCounts(b!), [3, 0], "the other replica answered from the cache");

      // Another team's kind of fact, sharing no word with the question: the answer cannot have changed.
      assert.equal((await write(a!, { content: syntheticMemory(61).content })).status, 201);
      assert.deepEqual((await ask(b!)).json.memories.map((m: { id: string }) => m.id), first.json.memories.map((m: { id: string }) => m.id));
      assert.deepEqual(await cacheCounts(b!), [4, 0], "kept across a write that cannot reach it");

      // A question whose words 45 of the memories hold, more than its full-text search asks for: a write sharing
      // one common word of it, ranked by the store under everything the search found, keeps the answer.
      const more = await Promise.all(Array.from({ length: 30 }, (_, i) => write(b!, { content: syntheticMemory(62 + i).content })));
      assert.ok(more.every((r) => r.status === 201));
      const busy = (r: ServeProcess) => http(r.url, "POST", "/api/v1/recall", { token: TOKEN, body: { query: syntheticQuery(0) } });
      const busyFirst = await busy(a!);
      assert.deepEqual((await busy(b!)).json.memories.map((m: { id: string }) => m.id), busyFirst.json.memories.map((m: { id: string }) => m.id));
      assert.deepEqual(await cacheCounts(b!), [5, 0]);
      // "deploy" and nothing else of the question, in a long memory far from it in meaning (under the weakest vector candidate).
      const pie = await write(a!, { content: "Grandma always deploys an extra pinch of cinnamon and a spoon of brown sugar when she bakes her famous apple pie for the village fete." });
      assert.equal(pie.status, 201, pie.text);
      assert.deepEqual((await busy(b!)).json.memories.map((m: { id: string }) => m.id), busyFirst.json.memories.map((m: { id: string }) => m.id));
      assert.deepEqual(await cacheCounts(b!), [6, 0], "the word searches asked again found nothing new");

      const moved = await write(a!, { content: "The nightly export moved from acme-exports to acme-archive.", replaces: [first.json.memories[0].id] });
      assert.equal(moved.status, 201, moved.text);
      const after = await ask(b!);
      assert.equal(after.json.memories[0]?.id, moved.json.id, "not the answer cached before the write");
      assert.deepEqual(await cacheCounts(b!), [6, 1]);
    });

    it("kill -9 of a replica holding a project's lease: another replica decides that project's writes after the lease's time, and every acknowledged write is there once", async () => {
      const [a, b] = await Promise.all([serve("killed", "0", "1"), serve("killed", "0", "1")]);
      replicas.push(a!, b!);
      const client = new Redis(redis.url);
      try {
        const acked: string[] = [];
        const burst = Array.from({ length: 40 }, (_, i) => `Worker ${i} drains the queue jobs-${i} at night.`);
        const sent = burst.map((content) => write(a!, { content }).then((r) => (r.status === 201 ? acked.push(content) : undefined), () => undefined));
        let holder: string | null = null;
        for (let i = 0; i < 500 && holder === null; i++) {
          holder = await client.get("killed:lease:scope:team:core");
          if (holder === null) await new Promise((r) => setTimeout(r, 5));
        }
        assert.ok(holder, "replica a took the lease");
        a!.child.kill("SIGKILL");
        await Promise.all(sent);
        const t0 = Date.now();
        const after = await write(b!, { content: "Worker 99 drains the queue jobs-99 at night." });
        assert.equal(after.status, 201, after.text);
        assert.ok(Date.now() - t0 < 1500 + 3000, "taken over within the lease's time");
        const contents = (await active(b!)).map((m) => m.content);
        for (const c of [...acked, "Worker 99 drains the queue jobs-99 at night."]) assert.equal(contents.filter((x) => x === c).length, 1, c);
      } finally {
        client.disconnect();
      }
    });

    it("a burst of one token spread over two replicas is held to one budget in total; /healthz reports Redis, degraded while it is away and ok when it returns, reads served throughout", async () => {
      const [one, two] = await Promise.all([serve("replicas", "0.5", "6"), serve("replicas", "0.5", "6")]);
      replicas.push(one!, two!);
      assert.match(one!.stderr(), /write leases, shared limits and the recall cache in Redis at redis:\/\/\*\*\*@127\.0\.0\.1:\d+/);
      assert.doesNotMatch(one!.stderr(), new RegExp(redis.password));

      const t0 = Date.now();
      const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => http((i % 2 ? one : two)!.url, "GET", "/api/v1/stats", { token: TOKEN })));
      const seconds = (Date.now() - t0) / 1000;
      const ok = answers.filter((a) => a.status === 200).length;
      const limited = answers.filter((a) => a.status === 429);
      // One bucket of 6, refilled at 0.5/s: two per-process buckets would have let 12 through.
      assert.ok(ok >= 6 && ok <= 6 + Math.ceil(seconds * 0.5), `${ok} allowed in ${seconds} s`);
      assert.equal(limited.length, 16 - ok);
      assert.ok(limited.every((a) => Number(a.headers["retry-after"]) >= 1));
      for (const r of [one!, two!]) {
        const h = await http(r.url, "GET", "/healthz");
        assert.deepEqual(h.json, { status: "ok", qdrant: "ok", redis: "ok" });
      }

      await redis.stop();
      const down = await healthWhen(one!.url, (j) => j.status === "degraded");
      assert.equal(down.status, 200, "a replica without Redis still serves reads");
      assert.deepEqual(down.json, { status: "degraded", qdrant: "ok", redis: "unavailable" });
      // Limits fall back to the replica's own bucket (untouched so far, so full): a read, not an error.
      const read = await http(two!.url, "GET", "/api/v1/stats", { token: TOKEN });
      assert.equal(read.status, 200, read.text);

      await redis.start();
      let back: unknown = null;
      for (let i = 0; i < 50 && JSON.stringify(back) !== JSON.stringify({ status: "ok", qdrant: "ok", redis: "ok" }); i++) {
        await new Promise((r) => setTimeout(r, 200));
        back = (await http(one!.url, "GET", "/healthz")).json;
      }
      assert.deepEqual(back, { status: "ok", qdrant: "ok", redis: "ok" }, "the replica reconnected by itself");
    });

    it("Redis stopped mid-run: writes are refused with COORDINATION_UNAVAILABLE, nothing half-stored, recall still answers; when it returns, writes go through again", async () => {
      const [one, two] = await Promise.all([serve("outage", "0", "1"), serve("outage", "0", "1")]);
      replicas.push(one!, two!);
      assert.equal((await write(one!, { content: "The docs site is built with Astro." })).status, 201);
      await redis.stop();
      const refused = await write(two!, { content: "The docs site is deployed from the main branch." });
      assert.equal(refused.status, 503, refused.text);
      assert.equal(refused.json.error.code, "COORDINATION_UNAVAILABLE");
      const recall = await http(one!.url, "POST", "/api/v1/recall", { token: TOKEN, body: { query: "What builds the docs site?" } });
      assert.equal(recall.status, 200, recall.text);
      assert.equal(recall.json.memories[0]?.content, "The docs site is built with Astro.");
      await redis.start();
      let again = refused;
      for (let i = 0; i < 50 && again.status !== 201; i++) {
        await new Promise((r) => setTimeout(r, 200));
        again = await write(two!, { content: "The docs site is deployed from the main branch." });
      }
      assert.equal(again.status, 201, again.text);
      assert.deepEqual((await active(one!)).map((m) => m.content).filter((c) => c.startsWith("The docs site")).sort(), ["The docs site is built with Astro.", "The docs site is deployed from the main branch."]);
    });

    it("bench team --replicas 1,2 --questions: the same load on one and on two replicas of one store, every write found again, the repeated questions answered from the cache", async () => {
      const r = await runCli(
        ["bench", "team", "--store", "qdrant", "--qdrant-url", fake.url, "--redis-url", redis.url, "--replicas", "1,2", "--clients", "4", "--seconds", "4", "--seed", "40", "--questions", "5", "--write-ratio", "0.1", "--json"],
        { cwd: home, env: childEnv(home) },
      );
      assert.equal(r.code, 0, r.stderr);
      const runs = (JSON.parse(r.stdout) as { runs: Array<Record<string, number | null>> }).runs;
      assert.deepEqual(runs.map((x) => x.replicas), [1, 2]);
      for (const x of runs) {
        assert.equal(x.errors, 0);
        assert.equal(x.writes_lost, 0);
        assert.ok((x.writes_acknowledged as number) > 0);
        assert.ok((x.cache_hit_rate as number) > 0, `hit rate ${x.cache_hit_rate}`);
        assert.ok(x.recall_repeat_p50_ms !== null && x.recall_first_p50_ms !== null);
      }
      const refused = await runCli(["bench", "team", "--replicas", "2", "--seconds", "1"], { cwd: home, env: childEnv(home) });
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /--replicas: replicas share one store only on Qdrant/);
    });

    it("behind the replicas profile's reverse proxy (docker/Caddyfile, real Caddy): an MCP session stays on its replica through many calls, REST and /healthz pass through", async () => {
      const caddyOk = spawnSync("caddy", ["validate", "--config", join(ROOT, "docker", "Caddyfile"), "--adapter", "caddyfile"], { encoding: "utf8" });
      assert.equal(caddyOk.status, 0, `docker/Caddyfile is not valid: ${caddyOk.stderr}`);
      const [port, portA, portB] = [await freePort(), await freePort(), await freePort()];
      // The proxy passes the client's Host on, and checks health with the replica's own: each replica
      // accepts both (the DNS-rebinding check).
      const behind = (own: number) => ["--port", String(own), "--allowed-host", `127.0.0.1:${port}`, "--allowed-host", `127.0.0.1:${own}`];
      const [a, b] = await Promise.all([serve("proxied", "0", "1", behind(portA)), serve("proxied", "0", "1", behind(portB))]);
      replicas.push(a!, b!);
      const hostPort = (u: string) => new URL(u).host;
      const file = join(home, "Caddyfile");
      const text = (await readFile(join(ROOT, "docker", "Caddyfile"), "utf8")).replace(":8780", `:${port}`).replace("hindsight:8765 hindsight-2:8765", `${hostPort(a!.url)} ${hostPort(b!.url)}`);
      assert.ok(text.includes(hostPort(b!.url)), "the upstreams were replaced");
      await writeFile(file, `{\n\tadmin off\n\tstorage file_system ${join(home, "caddy")}\n}\n${text}`);
      const caddy = spawn("caddy", ["run", "--config", file, "--adapter", "caddyfile"], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, HOME: home, XDG_DATA_HOME: home, XDG_CONFIG_HOME: home } });
      let log = "";
      caddy.stderr!.on("data", (d: Buffer) => (log += d.toString("utf8")));
      try {
        const proxy = `http://127.0.0.1:${port}`;
        let health: { status: number; json: unknown } | null = null;
        for (let i = 0; i < 100 && health?.status !== 200; i++) {
          await new Promise((r) => setTimeout(r, 100));
          health = await http(proxy, "GET", "/healthz").catch(() => null);
        }
        assert.deepEqual(health?.json, { status: "ok", qdrant: "ok", redis: "ok" }, log);
        const client = await mcpClient(proxy, TOKEN, "behind-proxy");
        try {
          for (let i = 0; i < 8; i++) {
            const w = (await client.callTool({ name: "memory_write", arguments: { content: `Service ${i} listens on port ${8000 + i}.` } })) as { isError?: boolean; structuredContent?: { action: string } };
            assert.notEqual(w.isError, true);
            assert.equal(w.structuredContent?.action, "added");
          }
          const r = (await client.callTool({ name: "memory_recall", arguments: { query: "Which port does service 3 listen on?" } })) as { structuredContent?: { memories: Array<{ content: string }> } };
          assert.equal(r.structuredContent?.memories[0]?.content, "Service 3 listens on port 8003.");
        } finally {
          await client.close();
        }
        const rest = await http(proxy, "POST", "/api/v1/recall", { token: TOKEN, body: { query: "Which port does service 5 listen on?" } });
        assert.equal(rest.json.memories[0]?.content, "Service 5 listens on port 8005.");
      } finally {
        caddy.kill("SIGTERM");
      }
    });

    it("/healthz reports the Qdrant store apart from Redis: a Qdrant that stops answering makes the replica degraded, and it says which", async () => {
      const own = await startFakeQdrantProcess();
      const r = await startServeProcess(home, ["--store", "qdrant", "--qdrant-url", own.url, "--qdrant-prefix", "health", "--scope", "team:core", "--redis-url", redis.url], { HINDSIGHT_TOKEN: TOKEN });
      replicas.push(r);
      assert.deepEqual((await http(r.url, "GET", "/healthz")).json, { status: "ok", qdrant: "ok", redis: "ok" });
      await own.close();
      const h = await healthWhen(r.url, (j) => j.status === "degraded");
      assert.equal(h.status, 200);
      assert.deepEqual(h.json, { status: "degraded", qdrant: "unavailable", redis: "ok" });
    });
  });
});
