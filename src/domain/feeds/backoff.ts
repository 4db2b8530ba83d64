/**
 * Waits between reconnection attempts: exponential, capped, with jitter so that many
 * clients (or many restarts of one) do not hammer a feed in step. "Equal jitter": half
 * the delay is fixed, half random, so the wait never collapses to zero.
 */
export interface BackoffPolicy {
  /** The first wait, and the floor of every wait (a feed's own connection limit). */
  minMs: number;
  maxMs: number;
}

/** The wait before attempt `failures + 1`, given `failures` consecutive failures so far (>= 1). */
export function backoffDelay(policy: BackoffPolicy, failures: number, random: number): number {
  const exp = policy.minMs * 2 ** Math.min(Math.max(failures - 1, 0), 30);
  const capped = Math.min(policy.maxMs, exp);
  return Math.max(policy.minMs, Math.round(capped / 2 + (capped / 2) * random));
}

/** After a feed refuses us for rate (HTTP 429), wait at least this long: fast retries get an address blocked. */
export const RATE_LIMITED_COOLDOWN_MS = 10 * 60_000;
