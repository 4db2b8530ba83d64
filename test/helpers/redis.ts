import { Redis } from "ioredis";

/** The Redis tests use: REDIS_URL, else the local one. */
export const TEST_REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/** Whether a Redis answers at `url`; suites that need one skip (naming why) when not. */
export async function redisReachable(url: string = TEST_REDIS_URL): Promise<boolean> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  r.on("error", () => {});
  try {
    await r.connect();
    return (await r.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

/** Removes every key under `prefix`: a suite's own namespace, so runs sharing one Redis leave nothing behind. */
export async function dropRedisKeys(prefix: string, url: string = TEST_REDIS_URL): Promise<void> {
  const r = new Redis(url);
  try {
    const keys = await r.keys(`${prefix}*`);
    if (keys.length > 0) await r.del(...keys);
  } finally {
    r.disconnect();
  }
}
