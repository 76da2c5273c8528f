export interface RateLimitOptions {
  /** Tokens added per second (the sustained request rate). */
  rate: number;
  /** Bucket size: how many requests may come at once after a quiet spell. */
  burst: number;
  /** Milliseconds, monotonic; injected so tests control time. */
  now?: () => number;
  /** Buckets kept before full (idle) ones are dropped. */
  maxKeys?: number;
}

export type RateDecision = { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

/**
 * A per-key request budget: `burst` at once, refilled at `rate` per second. The in-process bucket
 * below serves one server; a team's replicas share one in Redis (src/server/redis/rateLimiter.ts).
 */
export interface RateLimiter {
  /** `limits`: this key's own rate and burst instead of the limiter's (a token file can give each token its own). */
  take(key: string, cost?: number, limits?: { rate: number; burst: number }): RateDecision | Promise<RateDecision>;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** A token bucket per key (per bearer token): `burst` requests at once, refilled at `rate` per second. */
export class TokenBucketLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;
  private readonly maxKeys: number;

  constructor(private readonly options: RateLimitOptions) {
    if (!(options.rate > 0) || !Number.isFinite(options.rate)) throw new Error("rate must be a positive number");
    if (!(options.burst >= 1) || !Number.isFinite(options.burst)) throw new Error("burst must be at least 1");
    this.now = options.now ?? (() => performance.now());
    this.maxKeys = options.maxKeys ?? 10_000;
  }

  /** `limits`: this key's own rate and burst instead of the limiter's (a token file can give each token its own). */
  take(key: string, cost = 1, limits?: { rate: number; burst: number }): RateDecision {
    const rate = limits?.rate ?? this.options.rate;
    const burst = limits?.burst ?? this.options.burst;
    const now = this.now();
    const bucket = this.refill(key, now, rate, burst);
    if (bucket.tokens >= cost) {
      bucket.tokens -= cost;
      return { allowed: true, remaining: Math.floor(bucket.tokens) };
    }
    const waitSeconds = (cost - bucket.tokens) / rate;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitSeconds)) };
  }

  private refill(key: string, now: number, rate: number, burst: number): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= this.maxKeys) this.evictIdle(now);
      bucket = { tokens: burst, at: now };
      this.buckets.set(key, bucket);
      return bucket;
    }
    const elapsed = Math.max(0, now - bucket.at) / 1000;
    bucket.tokens = Math.min(burst, bucket.tokens + elapsed * rate);
    bucket.at = now;
    return bucket;
  }

  /** Drops buckets that have refilled completely: forgetting them changes nothing. */
  private evictIdle(now: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + (Math.max(0, now - b.at) / 1000) * this.options.rate >= this.options.burst) this.buckets.delete(key);
    }
  }
}
