/**
 * The delivery state machine of spec 3 as numbers. A delivery is attempted at once, then
 * after each of these delays measured from the end of the previous attempt: 8 attempts in
 * all, then it is given up.
 */
export const RETRY_DELAYS_MS: readonly number[] = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000, 12 * 3_600_000, 24 * 3_600_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** A receiver must answer 2xx within this (spec 6.1); the deadline covers DNS, connect, TLS and headers. */
export const ATTEMPT_DEADLINE_MS = 10_000;

/** Request bodies larger than this are never sent (spec 6.4). */
export const MAX_BODY_BYTES = 64 * 1024;

/** Only this much of a receiver's answer is read and kept for the delivery log. */
export const RESPONSE_SNIPPET_BYTES = 1024;

/** An endpoint is turned off after this many consecutive failed attempts spanning at least DISABLE_SPAN_MS. */
export const DISABLE_AFTER_FAILURES = 15;
export const DISABLE_SPAN_MS = 24 * 3_600_000;

/**
 * When the next scheduled attempt is due after `completed` scheduled attempts have failed,
 * the last ending at `endedAt`; null when none is left (give up).
 */
export function nextAttemptAt(completed: number, endedAt: number): number | null {
  if (completed < 1 || completed >= MAX_ATTEMPTS) return null;
  return endedAt + RETRY_DELAYS_MS[completed - 1]!;
}

/** Whether a failure streak (after counting the latest failure) turns the endpoint off. */
export function shouldDisable(streak: number, streakStartedAt: number, now: number): boolean {
  return streak >= DISABLE_AFTER_FAILURES && now - streakStartedAt >= DISABLE_SPAN_MS;
}

export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status < 300;
}
