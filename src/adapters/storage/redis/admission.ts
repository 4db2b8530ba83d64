import { Redis } from "ioredis";
import { AppError } from "../../../domain/errors.ts";
import type { ChargeResult } from "../../../interfaces/accounts.ts";
import type { Admission, AdmissionDecision, AdmissionRequest } from "../../../interfaces/admission.ts";
import type { RateDecision } from "../../../interfaces/rate-limiter.ts";

/**
 * What admission needs of the Redis credit ledger (storage/redis/credit-ledger.ts): where an
 * account-month is charged, its per-key tallies, and its own charge, which first loads a
 * balance Redis does not hold yet.
 */
export interface RedisChargeLedger {
  chargeKeys(accountId: string, period: string): { balance: string; pending: string; field: string };
  charged(keyId: string, period: string, cost: number): void;
  charge(accountId: string, keyId: string, period: string, cost: number, limit: number): Promise<ChargeResult>;
}

/**
 * Admits a batch of calls in one script (a script runs alone, so every decision in it is
 * atomic, in order). Per call: a one-second fixed window on its rate key (opened by the
 * window's first call and expired by Redis, so every process agrees on it whatever its
 * clock), then, if the window allows it and it takes credits, the check-and-charge of
 * credit-ledger.ts's CHARGE on the account-month's balance.
 *
 * KEYS: per call its rate key and its balance key (the rate key again when it takes no
 * credits), then the pending hash. ARGV: per call its rate, cost (0: no charge), allowance and
 * pending field. Returns per call: the window's count, its time left (ms), the charge status
 * (1 charged, 0 refused for credits, -1 balance not in Redis yet, 2 none asked, 3 refused by
 * the rate limit) and the balance.
 */
const ADMIT = `
local pending = KEYS[#KEYS]
local out = {}
for i = 1, #ARGV / 4 do
  local rateKey = KEYS[2 * i - 1]
  local perSecond = tonumber(ARGV[4 * i - 3])
  local cost = tonumber(ARGV[4 * i - 2])
  local count = redis.call('INCR', rateKey)
  if count == 1 then redis.call('PEXPIRE', rateKey, 1000) end
  local ttl = redis.call('PTTL', rateKey)
  if ttl < 0 then
    redis.call('PEXPIRE', rateKey, 1000)
    ttl = 1000
  end
  local status, used = 2, 0
  if count > perSecond then
    status = 3
  elseif cost > 0 then
    local balance = redis.call('GET', KEYS[2 * i])
    if not balance then
      status = -1
    else
      used = tonumber(balance)
      if used + cost > tonumber(ARGV[4 * i - 1]) then
        status = 0
      else
        used = redis.call('INCRBY', KEYS[2 * i], cost)
        redis.call('HINCRBY', pending, ARGV[4 * i], cost)
        status = 1
      end
    end
  end
  out[#out + 1] = count
  out[#out + 1] = ttl
  out[#out + 1] = status
  out[#out + 1] = used
end
return out`;

/** Calls per script: enough to carry a busy process's calls of one event-loop turn, short enough not to hold Redis up. */
const MAX_BATCH = 256;

type Pending = { request: AdmissionRequest; resolve: (d: AdmissionDecision) => void; reject: (e: unknown) => void };

type AdmitCommand = { mdsAdmit(...args: (string | number)[]): Promise<number[]> };

/**
 * Rate limits and credits of a scaled deployment (REDIS_URL set), decided in Redis so that
 * they hold across every API process. The calls that reach a process in one turn of its event
 * loop go to Redis as one script call: one round trip and one command for the lot instead of
 * two per call, which is most of what a paid call costs beyond its own work. Each call is
 * still decided alone and exactly (nothing is leased or estimated), so a balance is never
 * over-granted and a window never lets more through than its rate.
 */
export class RedisAdmission implements Admission {
  readonly #redis: Redis & AdmitCommand;
  readonly #ledger: RedisChargeLedger;
  readonly #ratePrefix: string;
  #queue: Pending[] = [];
  #scheduled = false;

  /** `ratePrefix`: where the rate windows are kept (`{ratePrefix}:{perSecond}:{subject}`). */
  constructor(options: { redisUrl: string; ledger: RedisChargeLedger; ratePrefix: string; onError?: (err: Error) => void }) {
    const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: true });
    redis.on("error", (err: Error) => options.onError?.(err));
    // No fixed key count: a batch names two keys per call.
    redis.defineCommand("mdsAdmit", { lua: ADMIT });
    this.#redis = redis as Redis & AdmitCommand;
    this.#ledger = options.ledger;
    this.#ratePrefix = options.ratePrefix;
  }

  admit(request: AdmissionRequest): Promise<AdmissionDecision> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ request, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        // After this turn's I/O callbacks: every call that arrived with them joins the batch.
        setImmediate(() => this.#drain());
      }
    });
  }

  #drain(): void {
    this.#scheduled = false;
    const queue = this.#queue;
    this.#queue = [];
    for (let i = 0; i < queue.length; i += MAX_BATCH) void this.#run(queue.slice(i, i + MAX_BATCH));
  }

  async #run(batch: Pending[]): Promise<void> {
    const keys: string[] = [];
    const args: (string | number)[] = [];
    let pending = "";
    for (const { request } of batch) {
      const rateKey = `${this.#ratePrefix}:${request.perSecond}:${request.subject}`;
      keys.push(rateKey);
      const c = request.charge;
      if (c && c.cost > 0) {
        const k = this.#ledger.chargeKeys(c.accountId, c.period);
        pending = k.pending;
        keys.push(k.balance);
        args.push(request.perSecond, c.cost, c.limit, k.field);
      } else {
        keys.push(rateKey);
        args.push(request.perSecond, 0, 0, "");
      }
    }
    keys.push(pending || `${this.#ratePrefix}:unused`);
    let flat: number[];
    try {
      flat = await this.#redis.mdsAdmit(keys.length, ...keys, ...args);
    } catch (e) {
      const error = new AppError("service_unavailable", "Rate limits and credits cannot be checked: Redis does not answer; retry shortly. Not charged.");
      error.cause = e;
      for (const p of batch) p.reject(error);
      return;
    }
    batch.forEach((p, i) => {
      const [count, ttl, status, used] = flat.slice(4 * i, 4 * i + 4).map(Number) as [number, number, number, number];
      const rate = decision(p.request.perSecond, count, ttl);
      this.#charge(p.request, status, used).then(
        (charge) => p.resolve({ rate, charge }),
        (e: unknown) => p.reject(e),
      );
    });
  }

  /** What the script's charge status means for the call; a balance not yet in Redis is seeded by the ledger, which then charges. */
  async #charge(request: AdmissionRequest, status: number, used: number): Promise<ChargeResult | null> {
    const c = request.charge;
    if (c === null || status === 2 || status === 3) return null;
    if (status === -1) return this.#ledger.charge(c.accountId, c.keyId, c.period, c.cost, c.limit);
    if (status === 0) return { ok: false, used };
    this.#ledger.charged(c.keyId, c.period, c.cost);
    return { ok: true, used };
  }

  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}

function decision(perSecond: number, count: number, ttl: number): RateDecision {
  if (count > perSecond) return { allowed: false, limit: perSecond, remaining: 0, resetMs: ttl };
  return { allowed: true, limit: perSecond, remaining: perSecond - count, resetMs: ttl };
}
