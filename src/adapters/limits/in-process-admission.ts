import type { ChargeResult, CreditLedger } from "../../interfaces/accounts.ts";
import type { Admission, AdmissionDecision, AdmissionRequest } from "../../interfaces/admission.ts";
import type { RateDecision, RateLimiter } from "../../interfaces/rate-limiter.ts";

/** A limiter whose window is in this process's memory, so it can decide at once (fixed-window-limiter.ts). */
export interface ImmediateRateLimiter extends RateLimiter {
  take(subject: string, perSecond: number): RateDecision;
}

/** A ledger that charges at once a balance it holds in memory, and says so by returning undefined otherwise (write-behind-ledger.ts). */
export interface HeldBalanceLedger extends CreditLedger {
  chargeHeld(accountId: string, keyId: string, period: string, cost: number, limit: number): ChargeResult | undefined;
}

/**
 * Admission for the embedded (SQLite) deployment, where the rate window and the credit
 * balance are both this process's memory: the rate limit, then the charge, decided in one
 * synchronous step, so a call waits on nothing (sequential-admission.ts awaits each in turn,
 * two or more microtask turns a call for what is decided at once). Only an account's first
 * charge of a month in this process waits, for its balance to be read from the store.
 * Exactness is the ledger's: its check-and-add runs with nothing in between.
 */
export class InProcessAdmission implements Admission {
  readonly #limiter: ImmediateRateLimiter;
  readonly #ledger: HeldBalanceLedger;

  constructor(limiter: ImmediateRateLimiter, ledger: HeldBalanceLedger) {
    this.#limiter = limiter;
    this.#ledger = ledger;
  }

  admit(request: AdmissionRequest): AdmissionDecision | Promise<AdmissionDecision> {
    const rate = this.#limiter.take(request.subject, request.perSecond);
    if (!rate.allowed || request.charge === null) return { rate, charge: null };
    const c = request.charge;
    const held = this.#ledger.chargeHeld(c.accountId, c.keyId, c.period, c.cost, c.limit);
    if (held) return { rate, charge: held };
    return this.#ledger.charge(c.accountId, c.keyId, c.period, c.cost, c.limit).then((charge) => ({ rate, charge }));
  }

  close(): Promise<void> {
    return this.#limiter.close();
  }
}
