import { strict as assert } from "node:assert";
import { BearerAuth, newToken, tokenActor, tokenId } from "../../../src/http/auth.js";
import { HostCheck, isLoopbackHost, loopbackAllowedHosts } from "../../../src/http/hostCheck.js";
import { HttpMetrics } from "../../../src/http/metrics.js";
import { TokenBucketLimiter } from "../../../src/http/rateLimit.js";
import { Router } from "../../../src/http/router.js";
import { HindsightError } from "../../../src/core/errors.js";
import { errorAnswer } from "../../../src/http/errors.js";
import { lintProbe } from "../../helpers/lintProbe.js";

describe("http parts", () => {
  describe("token bucket (injected clock)", () => {
    it("allows a burst, refuses with Retry-After, refills at the rate", () => {
      let now = 0;
      const limiter = new TokenBucketLimiter({ rate: 2, burst: 3, now: () => now });
      for (let i = 0; i < 3; i++) assert.equal(limiter.take("a").allowed, true);
      const refused = limiter.take("a");
      assert.deepEqual(refused, { allowed: false, retryAfterSeconds: 1 });
      now += 499;
      assert.equal(limiter.take("a").allowed, false, "half a token is not a token");
      now += 1;
      assert.equal(limiter.take("a").allowed, true, "one token after 500 ms at 2/s");
      assert.equal(limiter.take("a").allowed, false);
      now += 10_000;
      for (let i = 0; i < 3; i++) assert.equal(limiter.take("a").allowed, true, "refills up to the burst, not beyond");
      assert.equal(limiter.take("a").allowed, false);
    });

    it("keeps one bucket per key and rounds Retry-After up to whole seconds", () => {
      let now = 0;
      const limiter = new TokenBucketLimiter({ rate: 0.25, burst: 1, now: () => now });
      assert.equal(limiter.take("a").allowed, true);
      assert.equal(limiter.take("b").allowed, true, "another token has its own bucket");
      const r = limiter.take("a");
      assert.ok(!r.allowed && r.retryAfterSeconds === 4);
      now += 1000;
      const r2 = limiter.take("a");
      assert.ok(!r2.allowed && r2.retryAfterSeconds === 3);
    });

    it("drops idle buckets beyond maxKeys and refuses bad settings", () => {
      let now = 0;
      const limiter = new TokenBucketLimiter({ rate: 1, burst: 1, now: () => now, maxKeys: 2 });
      limiter.take("a");
      limiter.take("b");
      now += 5000;
      assert.equal(limiter.take("c").allowed, true);
      assert.equal(limiter.take("a").allowed, true, "an evicted bucket starts full again");
      assert.throws(() => new TokenBucketLimiter({ rate: 0, burst: 1 }));
      assert.throws(() => new TokenBucketLimiter({ rate: 1, burst: 0 }));
    });
  });

  describe("bearer auth", () => {
    it("accepts known tokens by id, refuses missing, malformed and wrong ones", () => {
      const t1 = newToken();
      const t2 = newToken();
      assert.notEqual(t1, t2);
      assert.ok(t1.length >= 40);
      const auth = new BearerAuth([t1, t2]);
      assert.equal(auth.authenticate(`Bearer ${t1}`), tokenId(t1));
      assert.equal(auth.authenticate(`bearer ${t2}`), tokenId(t2));
      assert.equal(auth.authenticate(undefined), null);
      assert.equal(auth.authenticate(t1), null);
      assert.equal(auth.authenticate(`Basic ${t1}`), null);
      assert.equal(auth.authenticate(`Bearer ${t1}x`), null);
      assert.equal(auth.authenticate(`Bearer ${t1.slice(0, -1)}`), null);
      assert.throws(() => new BearerAuth([]));
      assert.throws(() => new BearerAuth(["short"]));
    });

    it("a token id is a short hash that does not contain the token", () => {
      const t = "a-very-secret-token-value-123";
      assert.match(tokenId(t), /^[0-9a-f]{12}$/);
      assert.equal(tokenActor(t), `token:${tokenId(t)}`);
      assert.ok(!tokenActor(t).includes("secret"));
    });
  });

  describe("host check", () => {
    it("accepts the bound loopback host:port and localhost:port, nothing else", () => {
      const check = new HostCheck(loopbackAllowedHosts("127.0.0.1", 8765));
      assert.ok(check.allows("127.0.0.1:8765"));
      assert.ok(check.allows("LOCALHOST:8765"));
      assert.ok(!check.allows("127.0.0.1:8766"));
      assert.ok(!check.allows("evil.example:8765"));
      assert.ok(!check.allows("127.0.0.1"));
      assert.ok(!check.allows(undefined));
      assert.ok(new HostCheck(null).allows("anything"));
      assert.deepEqual(loopbackAllowedHosts("::1", 80), ["[::1]:80", "localhost:80"]);
      assert.ok(isLoopbackHost("127.0.0.1") && isLoopbackHost("localhost") && isLoopbackHost("::1"));
      assert.ok(!isLoopbackHost("0.0.0.0") && !isLoopbackHost("10.0.0.1"));
    });
  });

  describe("router", () => {
    it("matches parameters, answers 404 for unknown paths and 405 with Allow for other methods", async () => {
      const r = new Router("/api/v1", [
        { method: "GET", path: "/memories/:id", handler: async () => ({ json: 1 }) },
        { method: "DELETE", path: "/memories/:id", handler: async () => ({ json: 2 }) },
      ]);
      const m = r.match("GET", "/api/v1/memories/a%20b");
      assert.deepEqual(m?.params, { id: "a b" });
      assert.equal(m?.label, "/api/v1/memories/:id");
      assert.equal(r.match("GET", "/other"), null);
      assert.throws(() => r.match("GET", "/api/v1/nope"), (e: unknown) => errorAnswer(e).status === 404 && HindsightError.is(e, "NOT_FOUND"));
      assert.throws(
        () => r.match("PUT", "/api/v1/memories/x"),
        (e: unknown) => errorAnswer(e).status === 405 && errorAnswer(e).headers.allow === "GET, DELETE",
      );
    });
  });

  describe("metrics", () => {
    it("renders the Prometheus text format with escaped labels", () => {
      const metrics = new HttpMetrics();
      metrics.observe("GET", '/a"b\\c', 200, 0.003);
      metrics.observe("GET", '/a"b\\c', 200, 0.2);
      metrics.countRateLimited();
      const text = metrics.render(null);
      assert.ok(text.endsWith("\n"));
      assert.match(text, /^# HELP hindsight_http_requests_total /m);
      assert.match(text, /^# TYPE hindsight_http_requests_total counter$/m);
      assert.ok(text.includes('hindsight_http_requests_total{method="GET",route="/a\\"b\\\\c",status="200"} 2'));
      assert.ok(text.includes('hindsight_http_request_duration_seconds_bucket{route="/a\\"b\\\\c",le="0.005"} 1'));
      assert.ok(text.includes('hindsight_http_request_duration_seconds_bucket{route="/a\\"b\\\\c",le="+Inf"} 2'));
      assert.ok(text.includes("hindsight_rate_limited_total 1"));
      for (const line of text.trim().split("\n")) {
        assert.match(line, /^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{.*\})? [0-9.e+-]+|[a-z_]+(\{.*\})? \+Inf)$/, line);
      }
    });
  });

  describe("layer rules for src/http (eslint.config.mjs)", function () {
    this.timeout(60_000);
    const messages = (code: string): Promise<string[]> => lintProbe(code, "src/http/probe.ts");
    for (const spec of ["vscode", "@modelcontextprotocol/sdk/server/mcp.js", "../stores/memory/memoryStore.js", "../mcp/createServer.js", "../server/runtime.js"]) {
      it(`refuses ${spec}`, async () => {
        const m = await messages(`import * as x from "${spec}";\nexport const y = x;\n`);
        assert.ok(m.some((s) => /^(@typescript-eslint\/)?no-restricted-imports/.test(s)), JSON.stringify(m));
      });
    }
    it("may import src/core, zod and node:http", async () => {
      const m = await messages('import { createServer } from "node:http";\nimport { z } from "zod";\nimport { HindsightError } from "../core/errors.js";\nexport const y = [createServer, z, HindsightError];\n');
      assert.deepEqual(m, []);
    });
  });
});
