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

interface Bucket {
  tokens: number;
  at: number;
}

/** A token bucket per key (per bearer token): `burst` requests at once, refilled at `rate` per second. */
export class TokenBucketLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;
  private readonly maxKeys: number;

  constructor(private readonly options: RateLimitOptions) {
    if (!(options.rate > 0) || !Number.isFinite(options.rate)) throw new Error("rate must be a positive number");
    if (!(options.burst >= 1) || !Number.isFinite(options.burst)) throw new Error("burst must be at least 1");
    this.now = options.now ?? (() => performance.now());
    this.maxKeys = options.maxKeys ?? 10_000;
  }

  take(key: string, cost = 1): RateDecision {
    const now = this.now();
    const bucket = this.refill(key, now);
    if (bucket.tokens >= cost) {
      bucket.tokens -= cost;
      return { allowed: true, remaining: Math.floor(bucket.tokens) };
    }
    const waitSeconds = (cost - bucket.tokens) / this.options.rate;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitSeconds)) };
  }

  private refill(key: string, now: number): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= this.maxKeys) this.evictIdle(now);
      bucket = { tokens: this.options.burst, at: now };
      this.buckets.set(key, bucket);
      return bucket;
    }
    const elapsed = Math.max(0, now - bucket.at) / 1000;
    bucket.tokens = Math.min(this.options.burst, bucket.tokens + elapsed * this.options.rate);
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
