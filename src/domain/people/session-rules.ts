/**
 * How long a sign-in lasts. A session ends after a week without use, and after 30 days
 * whatever happens, so a stolen cookie does not live for ever. `last_seen_at` is written at
 * most once a minute: a page view should not cost a database write.
 */
export const SESSION_IDLE_MS = 7 * 24 * 3_600_000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 3_600_000;
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

export interface SessionTimes {
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

export function newSessionTimes(now: number): SessionTimes {
  return { createdAt: now, lastSeenAt: now, expiresAt: now + SESSION_ABSOLUTE_MS };
}

export function sessionAlive(s: SessionTimes, now: number): boolean {
  return now < s.expiresAt && now - s.lastSeenAt < SESSION_IDLE_MS;
}

export function sessionNeedsTouch(s: SessionTimes, now: number): boolean {
  return now - s.lastSeenAt >= SESSION_TOUCH_INTERVAL_MS;
}
