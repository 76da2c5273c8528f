import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { HindsightError } from "../../core/errors.js";
import { ALL_SCOPES, type Logger, type ScopeLeases } from "../../core/ports.js";

/** A scope's lease, unless the lease of every scope is held (an import waits for every scope's to end). */
const ACQUIRE_SCOPE = `
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0`;
/** Taken only if it is still ours: a lease that expired and went to another replica stays theirs. */
const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;
/** The time left on the lease if it is ours, else -1. */
const LEFT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PTTL', KEYS[1]) end
return -1`;

export interface RedisScopeLeasesOptions {
  redis: Redis;
  prefix?: string;
  /** How long a lease lasts unless renewed: a replica killed while holding one holds it this long at most. */
  ttlMs?: number;
  /** How long a write waits for another replica's lease before it is refused. */
  waitMs?: number;
  logger?: Logger;
  sleep?: (ms: number) => Promise<void>;
}

const unavailable = (message: string, cause?: unknown): HindsightError =>
  new HindsightError("COORDINATION_UNAVAILABLE", message, cause === undefined ? {} : { cause });

/**
 * Per-scope write leases in Redis, for the replicas of a team server on one store. A lease is a key
 * holding this replica's id and a fence number (INCR), set only if absent, with a TTL that a timer
 * renews while the task runs. Before a commit the task asks the fence: the key must still hold our
 * value with a third of its time left; a replica that was paused (GC, a stalled disk) past its TTL
 * finds it gone and commits nothing. Every Redis failure is COORDINATION_UNAVAILABLE: a write is
 * never decided without the lease.
 */
export class RedisScopeLeases implements ScopeLeases {
  private readonly prefix: string;
  private readonly ttlMs: number;
  private readonly waitMs: number;
  private readonly replica = randomUUID();
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: RedisScopeLeasesOptions) {
    this.prefix = `${options.prefix ?? "hindsight"}:lease:`;
    this.ttlMs = options.ttlMs ?? 10_000;
    this.waitMs = options.waitMs ?? 30_000;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  private keyOf(key: string): string {
    return key === ALL_SCOPES ? `${this.prefix}all` : `${this.prefix}scope:${key}`;
  }

  async hold<T>(key: string, task: (fence: () => Promise<void>) => Promise<T>): Promise<T> {
    const redis = this.options.redis;
    const k = this.keyOf(key);
    const value = await this.acquire(key, k);
    let lost = false;
    const renew = setInterval(() => {
      redis.eval(RENEW, 1, k, value, this.ttlMs).then(
        (ok) => {
          if (ok !== 1) lost = true;
        },
        () => {
          lost = true;
        },
      );
    }, Math.max(50, Math.floor(this.ttlMs / 3)));
    const fence = async (): Promise<void> => {
      let left = -1;
      try {
        left = lost ? -1 : Number(await redis.eval(LEFT, 1, k, value));
      } catch (err) {
        throw unavailable(`the team's Redis could not confirm this replica's lease of ${describe(key)}: nothing was stored`, err);
      }
      if (left < this.ttlMs / 3) {
        lost = true;
        throw unavailable(`this replica lost its lease of ${describe(key)} before it could commit (another replica may decide now): nothing was stored; send the write again`);
      }
    };
    try {
      return await task(fence);
    } finally {
      clearInterval(renew);
      await redis.eval(RELEASE, 1, k, value).catch((err: unknown) => this.options.logger?.warn("could not release a lease; it expires by itself", { lease: k, error: String(err) }));
    }
  }

  private async acquire(key: string, k: string): Promise<string> {
    const redis = this.options.redis;
    const started = Date.now();
    let value: string;
    try {
      value = `${this.replica}:${await redis.incr(`${this.prefix}fence`)}`;
    } catch (err) {
      throw unavailable(`the team's Redis cannot be reached, so no replica may decide writes now (reads are still served): ${errorText(err)}`, err);
    }
    for (let attempt = 0; ; attempt++) {
      try {
        if (key === ALL_SCOPES) {
          if ((await redis.set(k, value, "PX", this.ttlMs, "NX")) === "OK") {
            await this.waitForScopes(k, value, started);
            return value;
          }
        } else if ((await redis.eval(ACQUIRE_SCOPE, 2, k, this.keyOf(ALL_SCOPES), value, this.ttlMs)) === 1) {
          return value;
        }
      } catch (err) {
        if (HindsightError.is(err)) throw err;
        throw unavailable(`the team's Redis cannot be reached, so no replica may decide writes now (reads are still served): ${errorText(err)}`, err);
      }
      if (Date.now() - started > this.waitMs) {
        throw unavailable(`another replica has held the lease of ${describe(key)} for over ${Math.round(this.waitMs / 1000)} s: send the write again`);
      }
      await this.sleep(Math.min(200, 10 * 2 ** Math.min(attempt, 4)) * (0.5 + Math.random()));
    }
  }

  private async anyScopeHeld(): Promise<boolean> {
    let cursor = "0";
    do {
      const [next, keys] = await this.options.redis.scan(cursor, "MATCH", `${this.prefix}scope:*`, "COUNT", 1000);
      if (keys.length > 0) return true;
      cursor = next;
    } while (cursor !== "0");
    return false;
  }

  /** Every scope's lease holder finishes before a task for all scopes starts; new ones wait for it (ACQUIRE_SCOPE). */
  private async waitForScopes(k: string, value: string, started: number): Promise<void> {
    const redis = this.options.redis;
    for (;;) {
      if (!(await this.anyScopeHeld())) return;
      if (Date.now() - started > this.waitMs) {
        await redis.eval(RELEASE, 1, k, value).catch(() => undefined);
        throw unavailable(`writes to other projects on other replicas did not end within ${Math.round(this.waitMs / 1000)} s: send the change again`);
      }
      await redis.eval(RENEW, 1, k, value, this.ttlMs);
      await this.sleep(20);
    }
  }
}

function describe(key: string): string {
  return key === ALL_SCOPES ? "every project" : key;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
