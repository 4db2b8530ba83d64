import type { ChargeResult, CreditLedger } from "../../../interfaces/accounts.ts";
import type { CreditIncrement } from "./credit-ledger.ts";

/** What the write-behind ledger needs of the store underneath. */
export interface LedgerStore extends CreditLedger {
  balance(accountId: string, period: string): Promise<number>;
  add(accountId: string, period: string, delta: number): Promise<void>;
  applyBatch(token: string, increments: readonly CreditIncrement[]): Promise<boolean>;
  forgetBatches(before: number): Promise<void>;
  tally(keyId: string, period: string, calls: number, credits: number): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Credits for the embedded (SQLite) deployment, where one process serves the store.
 * The balance of each account and month is held in memory once read, and charged there:
 * JavaScript runs one charge at a time, so the check and the increment cannot interleave
 * and a balance is never overdrawn. The store learns the increments in the background,
 * batched every `flushMs`, which takes the write off each request.
 *
 * What this gives up: a crash loses up to `flushMs` of charges (in the caller's favour,
 * never against it), and two processes must not serve one SQLite file (each would hold its
 * own balance). A deployment with several API processes uses PostgreSQL, whose ledger
 * charges in the database on every call.
 */
export class WriteBehindLedger implements CreditLedger {
  readonly #store: LedgerStore;
  readonly #flushMs: number;
  /** account|period -> the balance as this process knows it. */
  readonly #used = new Map<string, number>();
  /** account|period -> increments not yet written. */
  readonly #pending = new Map<string, { accountId: string; period: string; delta: number }>();
  /** Balances being read from the store, so concurrent first calls share one read. */
  readonly #loading = new Map<string, Promise<number>>();
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> = Promise.resolve();

  constructor(store: LedgerStore, flushMs = 200) {
    this.#store = store;
    this.#flushMs = flushMs;
  }

  async #balance(accountId: string, period: string): Promise<number> {
    const k = `${accountId}|${period}`;
    const known = this.#used.get(k);
    if (known !== undefined) return known;
    let loading = this.#loading.get(k);
    if (!loading) {
      loading = this.#store.balance(accountId, period);
      this.#loading.set(k, loading);
    }
    const used = await loading;
    this.#loading.delete(k);
    // Another call may have loaded and charged meanwhile: keep its figure.
    if (!this.#used.has(k)) this.#used.set(k, used);
    return this.#used.get(k)!;
  }

  async charge(accountId: string, keyId: string, period: string, cost: number, limit: number): Promise<ChargeResult> {
    const held = this.chargeHeld(accountId, keyId, period, cost, limit);
    if (held) return held;
    await this.#balance(accountId, period);
    // The balance is held from here on (it is never dropped): the charge is decided at once.
    return this.chargeHeld(accountId, keyId, period, cost, limit)!;
  }

  /**
   * The charge decided at once when this process holds the balance, without an await; undefined
   * (nothing charged) when the balance must first be read from the store, which charge() does.
   * The check and the add run with nothing in between, so no other charge can interleave.
   */
  chargeHeld(accountId: string, keyId: string, period: string, cost: number, limit: number): ChargeResult | undefined {
    const k = `${accountId}|${period}`;
    const used = this.#used.get(k);
    if (used === undefined) return undefined;
    if (used + cost > limit) return { ok: false, used };
    this.#used.set(k, used + cost);
    this.#add(accountId, period, cost);
    this.#store.tally(keyId, period, 1, cost);
    return { ok: true, used: used + cost };
  }

  async refund(accountId: string, keyId: string, period: string, cost: number): Promise<void> {
    const k = `${accountId}|${period}`;
    await this.#balance(accountId, period);
    this.#used.set(k, this.#used.get(k)! - cost);
    this.#add(accountId, period, -cost);
    this.#store.tally(keyId, period, -1, -cost);
  }

  #add(accountId: string, period: string, delta: number): void {
    const k = `${accountId}|${period}`;
    const p = this.#pending.get(k);
    if (p) p.delta += delta;
    else this.#pending.set(k, { accountId, period, delta });
    if (!this.#timer) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        void this.flush().catch(() => undefined);
      }, this.#flushMs);
      this.#timer.unref();
    }
  }

  async flush(): Promise<void> {
    const batch = [...this.#pending.values()];
    this.#pending.clear();
    const previous = this.#flushing;
    this.#flushing = (async () => {
      await previous;
      for (const p of batch) if (p.delta !== 0) await this.#store.add(p.accountId, p.period, p.delta);
      await this.#store.flush();
    })();
    await this.#flushing;
  }

  async usage(accountId: string, keyId: string, period: string) {
    await this.flush();
    return this.#store.usage(accountId, keyId, period);
  }

  async setUsed(accountId: string, period: string, used: number): Promise<void> {
    await this.flush();
    await this.#store.setUsed(accountId, period, used);
    this.#used.set(`${accountId}|${period}`, used);
  }

  async close(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.flush();
    await this.#store.close();
  }
}
