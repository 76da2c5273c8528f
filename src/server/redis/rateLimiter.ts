import type { Redis } from "ioredis";
import type { Logger } from "../../core/ports.js";
import type { RateDecision, RateLimiter } from "../../http/rateLimit.js";

/**
 * One token bucket per key, in a Redis hash, taken atomically: the script refills by the time passed
 * on Redis's own clock (replicas' clocks may disagree), takes `cost` if it can, and says how long to
 * wait if not. The hash expires once it would be full again, so idle tokens leave nothing behind.
 */
const TAKE = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1])
local at = tonumber(b[2])
if tokens == nil or at == nil then
  tokens = burst
  at = now
end
tokens = math.min(burst, tokens + math.max(0, now - at) / 1000 * rate)
local allowed = 0
if tokens >= cost then
  tokens = tokens - cost
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate * 1000) + 1000)
if allowed == 1 then
  return {1, math.floor(tokens)}
end
return {0, math.max(1, math.ceil((cost - tokens) / rate))}
`;

export interface RedisRateLimiterOptions {
  redis: Redis;
  rate: number;
  burst: number;
  /** Key prefix, so several deployments can share one Redis. */
  prefix?: string;
  /** Used while Redis cannot be asked: this replica's own bucket, so a Redis outage does not stop reads. */
  fallback: RateLimiter;
  logger?: Logger;
}

/**
 * The per-token rate limit shared by every replica of a team server: N replicas behind a load
 * balancer give one token the same budget as one server would, not N times it.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly prefix: string;

  constructor(private readonly options: RedisRateLimiterOptions) {
    if (!(options.rate > 0) || !Number.isFinite(options.rate)) throw new Error("rate must be a positive number");
    if (!(options.burst >= 1) || !Number.isFinite(options.burst)) throw new Error("burst must be at least 1");
    this.prefix = `${options.prefix ?? "hindsight"}:rate:`;
  }

  async take(key: string, cost = 1, limits?: { rate: number; burst: number }): Promise<RateDecision> {
    const rate = limits?.rate ?? this.options.rate;
    const burst = limits?.burst ?? this.options.burst;
    try {
      const [allowed, n] = (await this.options.redis.eval(TAKE, 1, `${this.prefix}${key}`, rate, burst, cost)) as [number, number];
      return allowed === 1 ? { allowed: true, remaining: n } : { allowed: false, retryAfterSeconds: n };
    } catch (err) {
      this.options.logger?.debug("shared rate limit unavailable; using this replica's own", { error: String(err) });
      return this.options.fallback.take(key, cost, limits);
    }
  }
}
