import { DISABLE_AFTER_FAILURES, shouldDisable } from "./schedule.ts";

/** The reason an endpoint turned off by the rule carries. */
export const DISABLED_REASON = `${DISABLE_AFTER_FAILURES} consecutive failed deliveries over at least 24 hours`;

export interface EndpointHealth {
  status: "active" | "disabled";
  /** Consecutive failed scheduled attempts. */
  failureStreak: number;
  /** When the first failure of the streak ended; null without a streak. */
  streakStartedAt: number | null;
}

export interface HealthAfter {
  failureStreak: number;
  streakStartedAt: number | null;
  /** Whether these outcomes turn an active endpoint off now. */
  turnOff: boolean;
}

/**
 * The endpoint's failure streak after a batch of scheduled attempts ending at `now`, in the
 * order they ended (true: succeeded). After a success in the batch the streak is the
 * failures that followed it (fewer than 15 failures all at one instant can never span 24 h,
 * so there is no turn-off to check); otherwise it grows by the batch's failures, and an
 * active endpoint is turned off when shouldDisable says so. Owners' tests and retries are
 * not scheduled attempts and do not belong in `outcomes`.
 */
export function healthAfter(endpoint: EndpointHealth, outcomes: readonly boolean[], now: number): HealthAfter {
  const lastSuccess = outcomes.lastIndexOf(true);
  const failuresAfter = outcomes.length - 1 - lastSuccess;
  if (lastSuccess >= 0) return { failureStreak: failuresAfter, streakStartedAt: failuresAfter > 0 ? now : null, turnOff: false };
  const failureStreak = endpoint.failureStreak + failuresAfter;
  const streakStartedAt = endpoint.streakStartedAt ?? now;
  return { failureStreak, streakStartedAt, turnOff: endpoint.status === "active" && shouldDisable(failureStreak, streakStartedAt, now) };
}
