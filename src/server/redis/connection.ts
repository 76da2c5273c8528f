import { Redis } from "ioredis";
import { HindsightError } from "../../core/errors.js";
import { within } from "../../core/deadline.js";
import type { Logger } from "../../core/ports.js";

/** What a replica needs of Redis: one client that reconnects by itself, and whether it is reachable now. */
export interface RedisLink {
  readonly client: Redis;
  /** Where it connects, with any password removed (for logs and /healthz). */
  readonly where: string;
  /** "ok" when a PING answers within the timeout, else why not. */
  health(timeoutMs?: number): Promise<{ ok: true } | { ok: false; error: string }>;
  close(): Promise<void>;
}

/** redis://[:password@]host[:port][/db] or rediss:// (TLS); anything else is refused naming the flag. */
export function parseRedisUrl(url: string, field = "--redis-url"): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new HindsightError("INVALID_INPUT", `${field}: not a URL: expected redis://[:password@]host[:port][/db]`, { field });
  }
  if (u.protocol !== "redis:" && u.protocol !== "rediss:") {
    throw new HindsightError("INVALID_INPUT", `${field}: expected a redis:// or rediss:// URL, got ${u.protocol}//`, { field });
  }
  if (!u.hostname) throw new HindsightError("INVALID_INPUT", `${field}: the URL names no host`, { field });
  return u;
}

export function redactedRedisUrl(u: URL): string {
  return `${u.protocol}//${u.password ? "***@" : ""}${u.host}${u.pathname === "/" ? "" : u.pathname}`;
}

/**
 * Connects to the team's Redis. Commands fail at once while it is away (no offline queue: a rate
 * check or a lease must not wait minutes for a Redis that may not come back), and the client keeps
 * reconnecting in the background, so a replica recovers on its own when Redis returns.
 */
export function connectRedis(url: string, logger?: Logger): RedisLink {
  const u = parseRedisUrl(url);
  const where = redactedRedisUrl(u);
  const client = new Redis(url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(100 * 2 ** Math.min(attempt, 5), 2_000),
  });
  let down = false;
  client.on("error", (err: Error) => {
    if (down) return;
    down = true;
    logger?.warn("Redis is unreachable; shared limits fall back to this replica's own until it returns", { redis: where, error: err.message });
  });
  client.on("ready", () => {
    if (down) logger?.info("Redis is reachable again", { redis: where });
    down = false;
  });
  return {
    client,
    where,
    async health(timeoutMs = 1_000) {
      try {
        return (await within(client.ping(), timeoutMs)) === "late" ? { ok: false, error: `no answer within ${timeoutMs} ms` } : { ok: true };
      } catch (err) {
        return { ok: false, error: err instanceof Error ? err.message : String(err) };
      }
    },
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
