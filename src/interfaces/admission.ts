import type { ChargeResult } from "./accounts.ts";
import type { RateDecision } from "./rate-limiter.ts";

/** The credits a call would take, asked for together with its rate-limit check. */
export interface ChargeRequest {
  accountId: string;
  keyId: string;
  period: string;
  cost: number;
  /** The account's monthly allowance: the charge passes only if the period's total stays within it. */
  limit: number;
}

export interface AdmissionRequest {
  /** Who the per-second budget belongs to (a key, or a client address for calls without a key). */
  subject: string;
  perSecond: number;
  /** Null when the call takes no credits (free, unbilled, or refused before its cost is known). */
  charge: ChargeRequest | null;
}

export interface AdmissionDecision {
  rate: RateDecision;
  /** The charge's outcome; null when none was asked or the rate limit refused the call first (nothing charged). */
  charge: ChargeResult | null;
}

/**
 * The two checks every call passes before it runs: its rate limit, then its credits, in that
 * order (a rate-limited call is never charged). One port for both, because a scaled
 * deployment answers both in one round trip to Redis (storage/redis/admission.ts), while a single
 * process asks its limiter and its ledger in turn (sequential-admission.ts).
 */
export interface Admission {
  /** A decision, or one to wait for: the in-process admission (in-process-admission.ts) usually decides at once, saving the call its awaits. */
  admit(request: AdmissionRequest): AdmissionDecision | Promise<AdmissionDecision>;
  close(): Promise<void>;
}
