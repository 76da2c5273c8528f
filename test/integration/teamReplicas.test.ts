import { strict as assert } from "node:assert";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { TokenBucketLimiter } from "../../src/http/rateLimit.js";
import { connectRedis } from "../../src/server/redis/connection.js";
import { RedisRateLimiter } from "../../src/server/redis/rateLimiter.js";
import { startFakeQdrant, type FakeQdrant } from "../contract/qdrantFake.js";
import { ensureBundle, startServeProcess, type ServeProcess } from "../helpers/cliProcess.js";
import { http } from "../helpers/http.js";
import { freePort, startRedis, type RedisProcess } from "../helpers/redisProcess.js";

const TOKEN = "team-replicas-token-0123456789abcdef";

describe("integration: team replicas share Redis (real redis-server processes)", function () {
  this.timeout(300_000);
  let redis: RedisProcess;

  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await redis.stop();
  });

  describe("the shared rate limit", () => {
    it("two limiters on one Redis give a key one budget in total, not one each", async () => {
      const a = new Redis(redis.url);
      const b = new Redis(redis.url);
      try {
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
      } finally {
        a.disconnect();
        b.disconnect();
      }
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

  describe("replicas of `hindsight serve --redis-url` on one store (the FAKE Qdrant REST endpoints, served by this test process)", () => {
    let home: string;
    let fake: FakeQdrant;
    const replicas: ServeProcess[] = [];

    before(async () => {
      ensureBundle();
      home = await mkdtemp(join(tmpdir(), "hindsight-replicas-"));
      fake = await startFakeQdrant();
    });
    after(async () => {
      for (const r of replicas.splice(0)) if (r.child.exitCode === null) r.child.kill("SIGKILL");
      await fake.close();
      await rm(home, { recursive: true, force: true });
    });

    const serve = (prefix: string, rate: string, burst: string) =>
      startServeProcess(home, ["--store", "qdrant", "--qdrant-url", fake.url, "--qdrant-prefix", prefix, "--scope", "team:core", "--rate", rate, "--burst", burst, "--redis-url", redis.url], { HINDSIGHT_TOKEN: TOKEN });

    it("a burst of one token spread over two replicas is held to one budget in total; /healthz reports Redis, degraded while it is away and ok when it returns, reads served throughout", async () => {
      const [one, two] = await Promise.all([serve("replicas", "0.5", "6"), serve("replicas", "0.5", "6")]);
      replicas.push(one!, two!);
      assert.match(one!.stderr(), /shared limits in Redis at redis:\/\/\*\*\*@127\.0\.0\.1:\d+/);
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
        assert.deepEqual(h.json, { status: "ok", redis: "ok" });
      }

      await redis.stop();
      const down = await http(one!.url, "GET", "/healthz");
      assert.equal(down.status, 200, "a replica without Redis still serves reads");
      assert.deepEqual(down.json, { status: "degraded", redis: "unavailable" });
      // Limits fall back to the replica's own bucket (untouched so far, so full): a read, not an error.
      const read = await http(two!.url, "GET", "/api/v1/stats", { token: TOKEN });
      assert.equal(read.status, 200, read.text);

      await redis.start();
      let back: unknown = null;
      for (let i = 0; i < 50 && JSON.stringify(back) !== JSON.stringify({ status: "ok", redis: "ok" }); i++) {
        await new Promise((r) => setTimeout(r, 200));
        back = (await http(one!.url, "GET", "/healthz")).json;
      }
      assert.deepEqual(back, { status: "ok", redis: "ok" }, "the replica reconnected by itself");
    });
  });
});
