export type RateDecision = { allowed: true; limit: number; remaining: number; resetMs: number } | { allowed: false; limit: number; remaining: 0; resetMs: number };

/** A per-second budget per subject (a key id, or a client address for calls without a key). */
export interface RateLimiter {
  consume(subject: string, perSecond: number): Promise<RateDecision>;
  close(): Promise<void>;
}
