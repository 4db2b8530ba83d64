import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { AppError } from "../../../domain/errors.ts";
import type { ChargeResult, CreditLedger } from "../../../interfaces/accounts.ts";
import type { LedgerStore } from "../accounts/write-behind-ledger.ts";

/**
 * Check and charge, atomically in Redis (a script runs alone): the balance must already be
 * in Redis (-1 asks the caller to seed it from the database); the charge and its pending
 * increment for the database are one step, so no process can see one without the other.
 */
const CHARGE = `
local used = redis.call('GET', KEYS[1])
if not used then return {-1, 0} end
used = tonumber(used)
local cost = tonumber(ARGV[1])
if used + cost > tonumber(ARGV[2]) then return {0, used} end
used = redis.call('INCRBY', KEYS[1], cost)
redis.call('HINCRBY', KEYS[2], ARGV[3], cost)
return {1, used}`;

const REFUND = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local used = redis.call('DECRBY', KEYS[1], ARGV[1])
redis.call('HINCRBY', KEYS[2], ARGV[2], -tonumber(ARGV[1]))
return used`;

/**
 * Seeds a balance from the database's figure plus whatever is pending for it (written
 * to Redis, not yet to the database). NX: when several processes seed at once, the first
 * wins and the others charge on its figure.
 */
const SEED = `
local pending = tonumber(redis.call('HGET', KEYS[2], ARGV[2]) or '0')
redis.call('SET', KEYS[1], tonumber(ARGV[1]) + pending, 'NX', 'EX', ARGV[3])
return 1`;

/**
 * Takes every pending increment at once, as a batch under the caller's token: the hash is
 * renamed to the batch's key and the token entered, with Redis's time, in the set of batches
 * taken and not yet applied. A taker that dies before applying leaves its batch there for
 * another process to apply, rather than taking it to its grave.
 */
const TAKE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
redis.call('RENAME', KEYS[1], KEYS[2])
local t = redis.call('TIME')
redis.call('ZADD', KEYS[3], tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000), ARGV[1])
return redis.call('HGETALL', KEYS[2])`;

/**
 * The token of one batch taken more than ARGV[1] ms ago and still not applied (its taker died
 * or stalled), marked taken now so the processes looking at once do not all apply it. If two
 * do, the database applies it once (applyBatch records the token).
 */
const CLAIM_STALE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local stale = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]), 'LIMIT', 0, 1)
if #stale == 0 then return false end
redis.call('ZADD', KEYS[1], now, stale[1])
return stale[1]`;

const SET_USED = `
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
redis.call('HDEL', KEYS[2], ARGV[2])
return 1`;

/** A batch taken this long ago and not applied is taken over: no write of one batch takes 10 s. */
const BATCH_RECLAIM_MS = 10_000;

/** How long the database remembers an applied batch's token: far longer than any batch waits in Redis. */
const BATCH_MEMORY_MS = 86_400_000;

/** A balance outlives its month by more than a week, whenever in the month it was seeded. */
const BALANCE_TTL_SECONDS = 40 * 86_400;

type Scripts = {
  mdsCharge(balance: string, pending: string, cost: number, limit: number, field: string): Promise<[number, number]>;
  mdsRefund(balance: string, pending: string, cost: number, field: string): Promise<number>;
  mdsSeed(balance: string, pending: string, used: number, field: string, ttl: number): Promise<number>;
  mdsTake(pending: string, batch: string, batches: string, token: string): Promise<string[]>;
  mdsClaimStale(batches: string, olderThanMs: number): Promise<string | null>;
  mdsSetUsed(balance: string, pending: string, used: number, field: string, ttl: number): Promise<number>;
};

/**
 * Credits for a deployment of several API processes (REDIS_URL set). Redis holds each
 * account-month's balance and charges it with one script call, so the check-and-charge is
 * exact across every process. The increments are kept in Redis as well (a pending hash)
 * and written behind to the database every `flushMs` by whichever process takes them, so
 * an API process killed at any moment loses no charge. The database's `credit_usage` is the
 * durable copy a lost Redis is rebuilt from; docs/adr/0001-credit-ledger.md gives the rule
 * and what it can over-grant.
 */
export class RedisCreditLedger implements CreditLedger {
  readonly #redis: Redis & Scripts;
  readonly #store: LedgerStore;
  readonly #prefix: string;
  readonly #flushMs: number;
  readonly #reclaimAfterMs: number;
  readonly #seeding = new Map<string, Promise<void>>();
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> = Promise.resolve();
  #closed = false;
  #forgotBatchesAt = 0;

  constructor(options: { redisUrl: string; store: LedgerStore; prefix: string; flushMs?: number; reclaimAfterMs?: number; onError?: (err: Error) => void }) {
    // Auto-pipelining: the charges of concurrent requests go to Redis in one write instead of one each.
    const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: true, enableAutoPipelining: true });
    redis.on("error", (err: Error) => options.onError?.(err));
    redis.defineCommand("mdsCharge", { numberOfKeys: 2, lua: CHARGE });
    redis.defineCommand("mdsRefund", { numberOfKeys: 2, lua: REFUND });
    redis.defineCommand("mdsSeed", { numberOfKeys: 2, lua: SEED });
    redis.defineCommand("mdsTake", { numberOfKeys: 3, lua: TAKE });
    redis.defineCommand("mdsClaimStale", { numberOfKeys: 1, lua: CLAIM_STALE });
    redis.defineCommand("mdsSetUsed", { numberOfKeys: 2, lua: SET_USED });
    this.#redis = redis as Redis & Scripts;
    this.#store = options.store;
    this.#prefix = `${options.prefix}:credits`;
    this.#flushMs = options.flushMs ?? 200;
    this.#reclaimAfterMs = options.reclaimAfterMs ?? BATCH_RECLAIM_MS;
    this.#schedule();
  }

  #balanceKey(accountId: string, period: string): string {
    return `${this.#prefix}:${accountId}:${period}`;
  }

  get #pendingKey(): string {
    return `${this.#prefix}:pending`;
  }

  /** The tokens of the batches taken and not yet applied, scored by when they were taken. */
  get #batchesKey(): string {
    return `${this.#prefix}:batches`;
  }

  #batchKey(token: string): string {
    return `${this.#prefix}:batch:${token}`;
  }

  /**
   * Where a charge of this account-month is made, for admission that charges in a script of
   * its own (admission.ts): the balance, the pending hash written behind, and the
   * hash field of the account-month. A charge must add its cost to both, as CHARGE does.
   */
  chargeKeys(accountId: string, period: string): { balance: string; pending: string; field: string } {
    return { balance: this.#balanceKey(accountId, period), pending: this.#pendingKey, field: `${accountId}|${period}` };
  }

  /** Records a charge made through chargeKeys() in the per-key tallies. */
  charged(keyId: string, period: string, cost: number): void {
    this.#store.tally(keyId, period, 1, cost);
  }

  async charge(accountId: string, keyId: string, period: string, cost: number, limit: number): Promise<ChargeResult> {
    const field = `${accountId}|${period}`;
    for (let attempt = 0; attempt < 3; attempt++) {
      const [status, used] = await this.#call(() => this.#redis.mdsCharge(this.#balanceKey(accountId, period), this.#pendingKey, cost, limit, field));
      if (status === -1) {
        await this.#seed(accountId, period);
        continue;
      }
      if (status === 0) return { ok: false, used: Number(used) };
      this.#store.tally(keyId, period, 1, cost);
      return { ok: true, used: Number(used) };
    }
    throw new AppError("service_unavailable", "The credit balance could not be loaded into Redis; retry shortly. Not charged.");
  }

  async refund(accountId: string, keyId: string, period: string, cost: number): Promise<void> {
    const field = `${accountId}|${period}`;
    const r = await this.#call(() => this.#redis.mdsRefund(this.#balanceKey(accountId, period), this.#pendingKey, cost, field));
    // The balance is gone (Redis lost it since the charge): the database is rebuilt from, so give it back there.
    if (Number(r) === -1) await this.#store.add(accountId, period, -cost);
    this.#store.tally(keyId, period, -1, -cost);
  }

  async #seed(accountId: string, period: string): Promise<void> {
    const k = `${accountId}|${period}`;
    let seeding = this.#seeding.get(k);
    if (!seeding) {
      seeding = (async () => {
        const used = await this.#store.balance(accountId, period);
        await this.#call(() => this.#redis.mdsSeed(this.#balanceKey(accountId, period), this.#pendingKey, used, k, BALANCE_TTL_SECONDS));
      })().finally(() => this.#seeding.delete(k));
      this.#seeding.set(k, seeding);
    }
    await seeding;
  }

  /** Redis failing is the service being unavailable for paid calls (503, not charged), never an internal error. */
  async #call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (e) {
      const error = new AppError("service_unavailable", "Credits cannot be checked: Redis does not answer; retry shortly. Not charged.");
      error.cause = e;
      throw error;
    }
  }

  #schedule(): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.flush()
        .catch(() => undefined)
        .finally(() => this.#schedule());
    }, this.#flushMs);
    this.#timer.unref();
  }

  /**
   * Writes the pending increments of every process to the database: first any batch another
   * process took and did not apply (it died or stalled), then what is pending now, taken as a
   * batch of this process's. Each batch leaves Redis only once the database has it, and the
   * database applies a batch once, so a kill at any point neither loses nor doubles a charge.
   */
  async flush(): Promise<void> {
    const previous = this.#flushing;
    this.#flushing = (async () => {
      await previous.catch(() => undefined);
      for (let token = await this.#redis.mdsClaimStale(this.#batchesKey, this.#reclaimAfterMs); token !== null; token = await this.#redis.mdsClaimStale(this.#batchesKey, this.#reclaimAfterMs)) {
        await this.#apply(token, await this.#redis.hgetall(this.#batchKey(token)));
      }
      const token = randomUUID();
      const flat = await this.#redis.mdsTake(this.#pendingKey, this.#batchKey(token), this.#batchesKey, token);
      const taken: Record<string, string> = {};
      for (let i = 0; i + 1 < flat.length; i += 2) taken[flat[i]!] = flat[i + 1]!;
      if (flat.length > 0) await this.#apply(token, taken);
      await this.#store.flush();
      if (Date.now() - this.#forgotBatchesAt > BATCH_MEMORY_MS / 24) {
        this.#forgotBatchesAt = Date.now();
        await this.#store.forgetBatches(Date.now() - BATCH_MEMORY_MS);
      }
    })();
    await this.#flushing;
  }

  /** Applies a taken batch (field `account|period` -> increment), then drops it from Redis. */
  async #apply(token: string, batch: Record<string, string>): Promise<void> {
    const increments = Object.entries(batch)
      .map(([field, delta]) => {
        const [accountId, period] = field.split("|") as [string, string];
        return { accountId, period, delta: Number(delta) };
      })
      .filter((i) => i.delta !== 0);
    if (increments.length > 0) await this.#store.applyBatch(token, increments);
    await this.#redis.multi().del(this.#batchKey(token)).zrem(this.#batchesKey, token).exec();
  }

  async usage(accountId: string, keyId: string, period: string) {
    await this.flush();
    const u = await this.#store.usage(accountId, keyId, period);
    const live = await this.#call(() => this.#redis.get(this.#balanceKey(accountId, period)));
    return { ...u, used: live === null ? u.used : Number(live) };
  }

  async setUsed(accountId: string, period: string, used: number): Promise<void> {
    await this.flush();
    await this.#store.setUsed(accountId, period, used);
    await this.#call(() => this.#redis.mdsSetUsed(this.#balanceKey(accountId, period), this.#pendingKey, used, `${accountId}|${period}`, BALANCE_TTL_SECONDS));
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.flush().catch(() => undefined);
    await this.#store.close();
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}
