import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { ALL_SCOPES, type RecallCache } from "../../core/ports.js";
import type { RecallResult } from "../../core/recall/types.js";

export interface RedisRecallCacheOptions {
  redis: Redis;
  prefix?: string;
  /** How long an answer is kept at most, even if nothing changes (time decay, facts that expire). */
  ttlMs?: number;
}

/**
 * Recall answers in Redis, shared by the replicas. An answer is kept under its question and the
 * generation numbers of its scope and of "every scope" at the time it was asked; a change INCRs its
 * scope's number (an import or an edit, every scope's), so later lookups look elsewhere and the old
 * answers simply expire. An answer computed from the store before a change is kept under the
 * numbers read before it, so it cannot be found after the change either.
 */
export class RedisRecallCache implements RecallCache {
  private readonly prefix: string;
  private readonly ttlMs: number;

  constructor(private readonly options: RedisRecallCacheOptions) {
    this.prefix = `${options.prefix ?? "hindsight"}:`;
    this.ttlMs = options.ttlMs ?? 120_000;
  }

  private generationKey(scope: string): string {
    return scope === ALL_SCOPES ? `${this.prefix}gen:all` : `${this.prefix}gen:scope:${scope}`;
  }

  async lookup(scope: string, key: string): Promise<{ hit: RecallResult | null; slot: string }> {
    const redis = this.options.redis;
    const [mine, all] = await redis.mget(this.generationKey(scope), this.generationKey(ALL_SCOPES));
    const digest = createHash("sha256").update(`${scope}\0${mine ?? 0}\0${all ?? 0}\0${key}`).digest("hex");
    const slot = `${this.prefix}recall:${digest}`;
    const kept = await redis.get(slot);
    return { hit: kept === null ? null : (JSON.parse(kept) as RecallResult), slot };
  }

  async keep(slot: string, result: RecallResult): Promise<void> {
    await this.options.redis.set(slot, JSON.stringify(result), "PX", this.ttlMs);
  }

  async changed(scope: string): Promise<void> {
    await this.options.redis.incr(this.generationKey(scope));
  }
}
