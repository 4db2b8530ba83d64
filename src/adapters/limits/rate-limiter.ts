import { Redis } from "ioredis";
import { RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Clock } from "../../ports/clock.ts";
import type { RateDecision, RateLimiter } from "../../ports/rate-limiter.ts";
import { FixedWindowLimiter } from "./fixed-window-limiter.ts";

/**
 * One budget per key and second: shared through Redis when REDIS_URL is set, so every API
 * process draws on the same budget, and in this process otherwise, timed by the clock.
 */
export class FlexibleRateLimiter implements RateLimiter {
  readonly #limiter: RateLimiter;

  constructor(options: { clock: Clock; redisUrl?: string; keyPrefix?: string }) {
    this.#limiter = options.redisUrl ? new RedisRateLimiter(options.redisUrl, options.keyPrefix ?? "mds:rl") : new FixedWindowLimiter(options.clock);
  }

  consume(subject: string, perSecond: number): Promise<RateDecision> {
    return this.#limiter.consume(subject, perSecond);
  }

  close(): Promise<void> {
    return this.#limiter.close();
  }
}

/**
 * rate-limiter-flexible over Redis, one limiter per distinct rate (plans differ). Redis's own
 * key expiry times the windows, so all processes agree on them whatever their clocks say.
 */
class RedisRateLimiter implements RateLimiter {
  readonly #limiters = new Map<number, RateLimiterAbstract>();
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(redisUrl: string, prefix: string) {
    // Auto-pipelining: the checks of concurrent requests go to Redis in one write instead of one each.
    this.#redis = new Redis(redisUrl, { enableOfflineQueue: true, maxRetriesPerRequest: 2, lazyConnect: false, enableAutoPipelining: true });
    this.#prefix = prefix;
  }

  async consume(subject: string, perSecond: number): Promise<RateDecision> {
    let limiter = this.#limiters.get(perSecond);
    if (!limiter) {
      limiter = new RateLimiterRedis({ storeClient: this.#redis, points: perSecond, duration: 1, keyPrefix: `${this.#prefix}:${perSecond}` });
      this.#limiters.set(perSecond, limiter);
    }
    try {
      const r = await limiter.consume(subject, 1);
      return { allowed: true, limit: perSecond, remaining: r.remainingPoints, resetMs: r.msBeforeNext };
    } catch (e) {
      // The library rejects with a RateLimiterRes when the budget is spent, and with an Error when its store fails.
      if (e instanceof RateLimiterRes) return { allowed: false, limit: perSecond, remaining: 0, resetMs: e.msBeforeNext };
      throw e;
    }
  }

  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}
