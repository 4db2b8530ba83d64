import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { RateDecision, RateLimiter } from "../../ports/rate-limiter.ts";

/**
 * rate-limiter-flexible, one limiter per distinct rate (plans differ), in memory by default
 * and in Redis when REDIS_URL is set so that every API process shares one budget per key.
 */
export class FlexibleRateLimiter implements RateLimiter {
  readonly #limiters = new Map<number, RateLimiterAbstract>();
  readonly #make: (perSecond: number) => RateLimiterAbstract;
  readonly #redis: Redis | null;

  constructor(options: { redisUrl?: string; keyPrefix?: string } = {}) {
    const prefix = options.keyPrefix ?? "mds:rl";
    if (options.redisUrl) {
      const redis = new Redis(options.redisUrl, { enableOfflineQueue: true, maxRetriesPerRequest: 2, lazyConnect: false });
      this.#redis = redis;
      this.#make = (points) => new RateLimiterRedis({ storeClient: redis, points, duration: 1, keyPrefix: `${prefix}:${points}` });
    } else {
      this.#redis = null;
      this.#make = (points) => new RateLimiterMemory({ points, duration: 1, keyPrefix: `${prefix}:${points}` });
    }
  }

  async consume(subject: string, perSecond: number): Promise<RateDecision> {
    let limiter = this.#limiters.get(perSecond);
    if (!limiter) {
      limiter = this.#make(perSecond);
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
    if (this.#redis) await this.#redis.quit().catch(() => this.#redis?.disconnect());
  }
}
