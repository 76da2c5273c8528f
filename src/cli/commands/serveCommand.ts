import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { HindsightError } from "../../core/errors.js";
import { defaultHome, scopeForFolder } from "../../server/paths.js";
import { openEngineOn, stderrLogger } from "../../server/runtime.js";
import { DEFAULT_BURST, DEFAULT_HOST, DEFAULT_PORT, DEFAULT_RATE, serveUntilSignal, startServer } from "../../server/serve.js";
import { resolveServerToken, type ServerToken } from "../../server/token.js";
import { storeFor } from "../../server/storeFactory.js";
import { OwnerLock } from "../../server/ownerLock.js";
import { TokenFileAuth } from "../../server/tokenAuth.js";
import { serveHints } from "./serveHints.js";
import { connectRedis, parseRedisUrl, type RedisLink } from "../../server/redis/connection.js";
import { RedisScopeLeases } from "../../server/redis/leases.js";
import { RedisRecallCache } from "../../server/redis/recallCache.js";

function isLoopbackOrAny(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "localhost" || host.startsWith("127.") || host === "::1";
}

function formatHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

function number(value: string | undefined, flag: string, fallback: number, check: (n: number) => boolean, rule: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || !check(n)) throw new HindsightError("INVALID_INPUT", `${flag}: must be ${rule}`, { field: flag });
  return n;
}

/** A flag, else its environment variable (the container is configured by environment), else nothing. */
function flagOrEnv(value: string | undefined, env: string): string | undefined {
  if (value !== undefined) return value;
  const v = process.env[env];
  return v === undefined || v === "" ? undefined : v;
}

/**
 * `hindsight serve`: REST (/api/v1), MCP over streamable HTTP (/mcp), /healthz and /metrics on LanceDB
 * (default) or Qdrant, behind a bearer token (one plain token: full access) or a tokens file (scoped
 * tokens for a team). Every flag of a team deployment also reads an environment variable. Logs and the
 * bound URL go to stderr.
 */
export async function serveCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: "string" },
      port: { type: "string" },
      data: { type: "string" },
      scope: { type: "string" },
      token: { type: "string" },
      tokens: { type: "string" },
      store: { type: "string" },
      "qdrant-url": { type: "string" },
      "qdrant-prefix": { type: "string" },
      "redis-url": { type: "string" },
      rate: { type: "string" },
      burst: { type: "string" },
      "allowed-host": { type: "string", multiple: true },
      "idle-exit": { type: "string" },
      verbose: { type: "boolean" },
    },
  });
  const port = number(flagOrEnv(values.port, "HINDSIGHT_PORT"), "--port", DEFAULT_PORT, (n) => Number.isInteger(n) && n >= 0 && n <= 65535, "an integer from 0 to 65535");
  const rate = number(flagOrEnv(values.rate, "HINDSIGHT_RATE"), "--rate", DEFAULT_RATE, (n) => n >= 0, "a number of requests per second (0: no limit)");
  const burst = number(flagOrEnv(values.burst, "HINDSIGHT_BURST"), "--burst", DEFAULT_BURST, (n) => Number.isInteger(n) && n >= 1, "an integer of at least 1");
  const dataDir = flagOrEnv(values.data, "HINDSIGHT_DATA") ?? join(defaultHome(), "store");
  const idleExit = number(values["idle-exit"], "--idle-exit", 0, (n) => n >= 0, "a number of seconds (0: never)");
  const logger = stderrLogger(values.verbose ?? false);
  const tokensPath = flagOrEnv(values.tokens, "HINDSIGHT_TOKENS");
  const envAllowed = flagOrEnv(undefined, "HINDSIGHT_ALLOWED_HOSTS")?.split(",").map((h) => h.trim()).filter((h) => h !== "");
  const allowedHosts = values["allowed-host"] ?? envAllowed;
  const redisUrl = flagOrEnv(values["redis-url"], "HINDSIGHT_REDIS_URL");
  if (redisUrl !== undefined) parseRedisUrl(redisUrl);

  // With a tokens file only its tokens are accepted, unless a plain token is given explicitly as well.
  let plain: ServerToken | null = null;
  if (!tokensPath || values.token !== undefined || process.env.HINDSIGHT_TOKEN) {
    plain = await resolveServerToken({ flag: values.token, env: process.env.HINDSIGHT_TOKEN, dataDir });
  }
  const scoped = tokensPath ? await TokenFileAuth.open(tokensPath, { defaults: { rate, burst }, logger }) : null;

  const kind = flagOrEnv(values.store, "HINDSIGHT_STORE") ?? "lancedb";
  // A local store has one owner process: this one, or none (STORE_LOCKED names the one that has it).
  const lock = kind === "lancedb" ? await OwnerLock.acquire(dataDir, idleExit > 0 ? "daemon" : "serve") : null;
  try {
    return await serveOwned(lock);
  } finally {
    await lock?.release();
  }

  async function serveOwned(lock: OwnerLock | null): Promise<number> {
    const { store, where } = storeFor(kind, {
      dataDir,
      qdrantUrl: flagOrEnv(values["qdrant-url"], "HINDSIGHT_QDRANT_URL"),
      qdrantApiKey: flagOrEnv(undefined, "QDRANT_API_KEY"),
      qdrantPrefix: flagOrEnv(values["qdrant-prefix"], "HINDSIGHT_QDRANT_PREFIX"),
      logger,
    });
    const givenScope = flagOrEnv(values.scope, "HINDSIGHT_SCOPE");
    const scope = givenScope ?? scopeForFolder(process.cwd());
    const redis: RedisLink | null = redisUrl !== undefined ? connectRedis(redisUrl, logger) : null;
    const redisPrefix = flagOrEnv(values["qdrant-prefix"], "HINDSIGHT_QDRANT_PREFIX") ?? "hindsight";
    const leaseTtlMs = number(flagOrEnv(undefined, "HINDSIGHT_LEASE_TTL_MS"), "HINDSIGHT_LEASE_TTL_MS", 10_000, (n) => Number.isInteger(n) && n >= 300, "an integer number of milliseconds, at least 300");
    // Replicas on one store decide each project's writes one at a time, through a lease in Redis.
    const leases = redis ? new RedisScopeLeases({ redis: redis.client, prefix: redisPrefix, ttlMs: leaseTtlMs, logger }) : undefined;
    const cacheTtlS = number(flagOrEnv(undefined, "HINDSIGHT_RECALL_CACHE_TTL_S"), "HINDSIGHT_RECALL_CACHE_TTL_S", 120, (n) => n >= 0, "a number of seconds (0: no recall cache)");
    const recallCache = redis && cacheTtlS > 0 ? new RedisRecallCache({ redis: redis.client, prefix: redisPrefix, ttlMs: cacheTtlS * 1000 }) : undefined;
    const engine = await openEngineOn(store, { scope, verbose: values.verbose ?? false, ...(leases ? { leases } : {}), ...(recallCache ? { recallCache } : {}) });
    const ownerToken = lock ? OwnerLock.newToken() : null;
    let running;
    try {
      running = await startServer({
        engine,
        tokens: [...(plain ? [plain.token] : []), ...(ownerToken ? [ownerToken] : [])],
        ...(scoped ? { authenticator: scoped.auth } : {}),
        host: flagOrEnv(values.host, "HINDSIGHT_HOST") ?? DEFAULT_HOST,
        port,
        rate,
        burst,
        ...(allowedHosts ? { allowedHosts } : {}),
        ...(redis ? { redis, redisPrefix } : {}),
        ...(store.reachable ? { dependencies: { [kind]: () => store.reachable!() } } : {}),
        logger,
      });
    } catch (err) {
      await redis?.close();
      await engine.close();
      throw err;
    }
    // The second opinion reads the store's memories while the server waits for its first recalls.
    void engine.readAhead();
    // Clients reach the owner on loopback even when it listens on every interface.
    if (lock && ownerToken) await lock.publish(`http://${isLoopbackOrAny(running.host) ? "127.0.0.1" : formatHost(running.host)}:${running.port}`, ownerToken);
    if (plain?.source === "generated") {
      process.stderr.write(`hindsight: generated a bearer token, saved to ${plain.path} (mode 0600); it is shown only this once:\n${plain.token}\n`);
    } else if (plain?.source === "file") {
      process.stderr.write(`hindsight: using the bearer token in ${plain.path}\n`);
    }
    if (scoped) process.stderr.write(`hindsight: tokens from ${tokensPath} (${scoped.live} live; changes apply within a second)\n`);
    process.stderr.write(
      `hindsight: serving ${running.url} (REST ${running.url}/api/v1, MCP ${running.url}/mcp, ${running.url}/healthz, ${running.url}/metrics); scope ${engine.config.defaultScope}; store ${where}${redis ? `; write leases, shared limits${recallCache ? " and the recall cache" : ""} in Redis at ${redis.where}` : ""}\n`,
    );
    // An owner started for the extension or the CLI (--idle-exit) logs to a file nobody reads as a guide.
    if (idleExit === 0) {
      const launcher = process.argv[1] ?? "hindsight";
      process.stderr.write(
        serveHints({
          url: running.url,
          scope: engine.config.defaultScope,
          scopeFromFolder: givenScope === undefined,
          folder: process.cwd(),
          cli: basename(launcher) === "hindsight" ? "hindsight" : `node ${launcher}`,
          tokenFile: plain?.path ?? null,
          teamTokens: scoped !== null,
        }),
      );
    }
    const code = await serveUntilSignal(running, engine, logger, idleExit > 0 ? idleExit * 1000 : undefined);
    await redis?.close();
    return code;
  }
}
