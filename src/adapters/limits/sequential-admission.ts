import type { CreditLedger } from "../../interfaces/accounts.ts";
import type { Admission, AdmissionDecision, AdmissionRequest } from "../../interfaces/admission.ts";
import type { RateLimiter } from "../../interfaces/rate-limiter.ts";

/** Admission from a rate limiter and a credit ledger asked in turn: the shape of a deployment without Redis. */
export class SequentialAdmission implements Admission {
  readonly #limiter: RateLimiter;
  readonly #ledger: CreditLedger;

  constructor(limiter: RateLimiter, ledger: CreditLedger) {
    this.#limiter = limiter;
    this.#ledger = ledger;
  }

  async admit(request: AdmissionRequest): Promise<AdmissionDecision> {
    const rate = await this.#limiter.consume(request.subject, request.perSecond);
    if (!rate.allowed || request.charge === null) return { rate, charge: null };
    const c = request.charge;
    return { rate, charge: await this.#ledger.charge(c.accountId, c.keyId, c.period, c.cost, c.limit) };
  }

  close(): Promise<void> {
    return this.#limiter.close();
  }
}
