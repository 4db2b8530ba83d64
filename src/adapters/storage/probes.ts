import { Redis } from "ioredis";
import { type Kysely, sql } from "kysely";

/** One dependency a process needs to serve: resolves when reachable, rejects with why not. */
export interface Probe {
  name: string;
  check(): Promise<void>;
  close?(): Promise<void>;
}

/** Rejects once `ms` have passed: a dependency that hangs is as unready as one that refuses. */
function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** The main store answers a trivial query. */
export function storageProbe<T>(db: Kysely<T>, timeoutMs = 2_000): Probe {
  return {
    name: "storage",
    async check() {
      await within(timeoutMs, "storage", sql`select 1`.execute(db));
    },
  };
}

/**
 * Redis answers PING, on a connection of its own that never queues commands while cut off
 * (a queued PING would report a lost Redis as slow rather than gone).
 */
export function redisProbe(url: string, timeoutMs = 2_000): Probe {
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: timeoutMs });
  redis.on("error", () => {});
  return {
    name: "redis",
    async check() {
      if (redis.status === "wait" || redis.status === "end") await within(timeoutMs, "redis", redis.connect()).catch(() => undefined);
      await within(timeoutMs, "redis", redis.ping());
    },
    async close() {
      redis.disconnect();
    },
  };
}
