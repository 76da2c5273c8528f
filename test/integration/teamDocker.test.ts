import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { startServer } from "../../src/server/serve.js";
import { ROOT } from "../helpers/cliProcess.js";
import { makeEngine, withTempDir } from "../helpers/fakes.js";

const run = promisify(execFile);
const COMPOSE = "/usr/bin/docker-compose";
const DOCKER = join(ROOT, "docker");

async function compose(args: string[], env: NodeJS.ProcessEnv, file = join(DOCKER, "compose.yaml")): Promise<{ code: number; stdout: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...env };
  try {
    const r = await run(COMPOSE, ["-f", file, ...args], { env: childEnv, cwd: DOCKER });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

/** The docker/ folder: no Docker engine runs here, so the compose file is validated and the image's parts are checked one by one. */
const KEYS = { QDRANT_API_KEY: "test-key", REDIS_PASSWORD: "testredispassword0123" };

describe("integration: docker/ (compose file, Dockerfile)", function () {
  this.timeout(60_000);

  describe("compose.yaml, validated by Debian's docker-compose 1.29 (no engine needed)", () => {
    before(function () {
      if (!existsSync(COMPOSE)) {
        console.log(`[docker] ${COMPOSE} is not installed: the compose file is not validated on this machine`);
        this.skip();
      }
    });

    it("is valid with QDRANT_API_KEY and REDIS_PASSWORD set (config -q)", async () => {
      const r = await compose(["config", "-q"], KEYS);
      assert.equal(r.code, 0, r.stderr);
    });

    it("refuses to start without QDRANT_API_KEY or REDIS_PASSWORD, saying which", async () => {
      const r = await compose(["config", "-q"], { REDIS_PASSWORD: "p" });
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /QDRANT_API_KEY/);
      const s = await compose(["config", "-q"], { QDRANT_API_KEY: "k" });
      assert.notEqual(s.code, 0);
      assert.match(s.stderr, /REDIS_PASSWORD/);
    });

    it("the validator does validate: a misspelt key fails", async () => {
      await withTempDir(async (dir) => {
        const text = (await readFile(join(DOCKER, "compose.yaml"), "utf8")).replace("depends_on:", "depends_onx:");
        const file = join(dir, "compose.yaml");
        await writeFile(file, text);
        const r = await compose(["config", "-q"], KEYS, file);
        assert.notEqual(r.code, 0);
        assert.match(r.stderr, /depends_onx/);
      });
    });

    it("normalised: named volumes, every healthcheck, depends_on healthy, memory limits, no host network, Qdrant and Redis not published", async () => {
      const r = await compose(["config"], KEYS);
      assert.equal(r.code, 0, r.stderr);
      const out = r.stdout;
      assert.match(out, /condition: service_healthy/);
      // hindsight and hindsight-2 wait for qdrant and redis, the proxy for both replicas.
      assert.equal((out.match(/condition: service_healthy/g) ?? []).length, 6);
      assert.equal((out.match(/healthcheck:/g) ?? []).length, 4);
      assert.equal((out.match(/mem_limit: 2g/g) ?? []).length, 3);
      for (const v of ["hindsight-data:/data", "qdrant-storage:/qdrant/storage", "qdrant-snapshots:/qdrant/snapshots", "redis-data:/data"]) assert.ok(out.includes(v), v);
      assert.ok(!/network_mode/.test(out), "no host networking");
      assert.ok(out.includes("127.0.0.1:8765:8765"), "hindsight published on host loopback by default");
      // the qdrant service's block: from its key to the next top-level key
      const qdrant = (out.split("\n  qdrant:\n")[1] ?? "").split(/\n(?=\S)/)[0] ?? "";
      assert.match(qdrant, /\n {4}expose:/);
      assert.ok(!/\n {4}ports:/.test(qdrant), "Qdrant publishes no port");
      assert.match(out, /HINDSIGHT_QDRANT_URL: http:\/\/qdrant:6333/);
      const redis = (out.split("\n  redis:\n")[1] ?? "").split(/\n(?=\S)|\n {2}\S/)[0] ?? "";
      assert.match(redis, /\n {4}expose:/);
      assert.ok(!/\n {4}ports:/.test(redis), "Redis publishes no port");
      assert.ok(!redis.includes(KEYS.REDIS_PASSWORD + " "), "the password is on no command line");
      assert.ok(out.includes(`HINDSIGHT_REDIS_URL: redis://:${KEYS.REDIS_PASSWORD}@redis:6379`));
      // The replicas profile: a second server like the first but unpublished, and the proxy in front of both.
      const block = (name: string) => (out.split(`\n  ${name}:\n`)[1] ?? "").split(/\n {2}\S/)[0] ?? "";
      const second = block("hindsight-2");
      assert.match(second, /profiles:\n\s+- replicas/);
      assert.ok(!/\n {4}ports:/.test(second), "the second replica is reached through the proxy only");
      assert.ok(second.includes(`HINDSIGHT_REDIS_URL: redis://:${KEYS.REDIS_PASSWORD}@redis:6379`) && second.includes("hindsight-data:/data"), "same store, Redis and tokens as the first");
      const proxy = block("proxy");
      assert.match(proxy, /profiles:\n\s+- replicas/);
      assert.ok(proxy.includes("127.0.0.1:8780:8780"), "the proxy is published on host loopback");
      const services = await compose(["config", "--services"], KEYS);
      assert.deepEqual(services.stdout.trim().split("\n").sort(), ["hindsight", "hindsight-2", "proxy", "qdrant", "redis"]);
    });
  });

  describe("Dockerfile", () => {
    let dockerfile = "";
    before(async () => {
      dockerfile = await readFile(join(DOCKER, "Dockerfile"), "utf8");
    });

    it("multi-stage, non-root user with a configurable UID, /data volume, HEALTHCHECK, TZ", () => {
      assert.ok((dockerfile.match(/^FROM /gm) ?? []).length >= 2, "multi-stage");
      assert.match(dockerfile, /^ARG UID=\d+$/m);
      assert.match(dockerfile, /^USER hindsight/m);
      assert.ok(!/^USER (root|0)\b/m.test(dockerfile));
      assert.match(dockerfile, /^VOLUME \["\/data"\]$/m);
      assert.match(dockerfile, /^HEALTHCHECK /m);
      assert.match(dockerfile, /TZ=UTC/);
      assert.match(dockerfile, /tzdata/);
      assert.match(dockerfile, /COPY --from=build/);
    });

    it("every path the build stage copies is in the build context (Dockerfile.dockerignore)", async () => {
      const ignore = await readFile(join(DOCKER, "Dockerfile.dockerignore"), "utf8");
      const allowed = ignore.split("\n").filter((l) => l.startsWith("!")).map((l) => l.slice(1).replace(/\/\*\*$/, ""));
      const sources = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => (m[1] as string).split(/\s+/));
      assert.ok(sources.length >= 5, sources.join(" "));
      for (const s of sources) {
        assert.ok(allowed.includes(s), `${s} is copied but ignored by Dockerfile.dockerignore`);
        assert.ok(existsSync(join(ROOT, s)), `${s} does not exist`);
      }
    });

    it("the HEALTHCHECK command passes against a serving hindsight and fails when nothing serves", async () => {
      const m = /HEALTHCHECK [^\n]*\\\n\s*CMD \["node", "-e", "(.+)"\]/.exec(dockerfile);
      assert.ok(m, "HEALTHCHECK CMD node -e …");
      const script = JSON.parse(`"${m[1]}"`) as string;
      const t = await makeEngine();
      const running = await startServer({ engine: t.engine, tokens: ["healthcheck-token-0123456789"], port: 0, rate: 0 });
      try {
        const ok = await run(process.execPath, ["-e", script], { env: { ...process.env, HINDSIGHT_PORT: String(running.port) } }).then(
          () => 0,
          (e: { code?: number }) => e.code ?? 1,
        );
        assert.equal(ok, 0);
      } finally {
        await running.close(100);
        await t.engine.close();
      }
      const down = await run(process.execPath, ["-e", script], { env: { ...process.env, HINDSIGHT_PORT: String(running.port) } }).then(
        () => 0,
        (e: { code?: number }) => e.code ?? 1,
      );
      assert.equal(down, 1);
    });
  });
});
