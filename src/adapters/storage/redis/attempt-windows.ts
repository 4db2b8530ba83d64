import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import type { AttemptWindows } from "../../../interfaces/attempts.ts";

/**
 * One sorted set per subject, scored by the attempt's time; the script drops what left the
 * window, then counts (`wait`), counts and adds (`take`) or adds (`add`), alone in Redis, so
 * two processes never both take the last place. The key expires a window after its last
 * attempt. KEYS: the subject's key. ARGV: op, now, window, max, a unique member.
 */
const ATTEMPT = `
local key = KEYS[1]
local op = ARGV[1]
local now = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local max = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if op ~= 'add' then
  local count = redis.call('ZCARD', key)
  if count >= max then
    local at = redis.call('ZRANGE', key, count - max, count - max, 'WITHSCORES')
    local wait = tonumber(at[2]) + window - now
    if wait < 1 then wait = 1 end
    return wait
  end
  if op == 'wait' then return 0 end
end
redis.call('ZADD', key, now, ARGV[5])
redis.call('PEXPIRE', key, window)
return 0`;

type AttemptCommand = { mdsAttempt(key: string, op: string, now: number, window: number, max: number, member: string): Promise<number> };

/** Attempt windows every process of a deployment shares (REDIS_URL set), under `{prefix}:{subject}`. */
export class RedisAttemptWindows implements AttemptWindows {
  readonly #redis: Redis & AttemptCommand;
  readonly #prefix: string;

  constructor(options: { redisUrl: string; prefix: string; onError?: (err: Error) => void }) {
    const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 1 });
    redis.on("error", (err: Error) => options.onError?.(err));
    redis.defineCommand("mdsAttempt", { numberOfKeys: 1, lua: ATTEMPT });
    this.#redis = redis as Redis & AttemptCommand;
    this.#prefix = options.prefix;
  }

  async wait(subject: string, max: number, windowMs: number, now: number): Promise<number> {
    return Number(await this.#redis.mdsAttempt(this.#key(subject), "wait", now, windowMs, max, ""));
  }

  async add(subject: string, windowMs: number, now: number): Promise<void> {
    await this.#redis.mdsAttempt(this.#key(subject), "add", now, windowMs, 0, member(now));
  }

  async take(subject: string, max: number, windowMs: number, now: number): Promise<number> {
    return Number(await this.#redis.mdsAttempt(this.#key(subject), "take", now, windowMs, max, member(now)));
  }

  async clear(subject: string): Promise<void> {
    await this.#redis.del(this.#key(subject));
  }

  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }

  #key(subject: string): string {
    return `${this.#prefix}:${subject}`;
  }
}

/** Two attempts in one millisecond are two members. */
const member = (now: number) => `${now}:${randomBytes(6).toString("hex")}`;
