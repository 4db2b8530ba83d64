/**
 * Failed sign-ins counted per client address (30) and per e-mail (10) in a sliding window of 15 minutes: past the
 * limit, sign-in is refused (429) until the oldest failure in the window ages out, without
 * checking the password, so an attacker can neither guess on nor queue costly hashes. A
 * success clears the e-mail's count. Kept in memory: one process's view, which is what a
 * single-process deployment has; several API processes each count on their own.
 */
export const LOGIN_MAX_FAILURES = 10;
/** An address may hold several people (an office behind one NAT), so it gets more room than one e-mail. */
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 30;
export const LOGIN_WINDOW_MS = 15 * 60_000;

export class LoginThrottle {
  readonly #failures = new Map<string, number[]>();
  readonly #windowMs: number;

  constructor(windowMs = LOGIN_WINDOW_MS) {
    this.#windowMs = windowMs;
  }

  /** Milliseconds until another attempt is allowed for any of the subjects (`ip:...` and `email:...`), or 0. */
  retryAfter(subjects: string[], now: number): number {
    let wait = 0;
    for (const s of subjects) {
      const max = s.startsWith("ip:") ? LOGIN_MAX_FAILURES_PER_ADDRESS : LOGIN_MAX_FAILURES;
      const recent = this.#recent(s, now);
      if (recent.length >= max) wait = Math.max(wait, recent[recent.length - max]! + this.#windowMs - now);
    }
    return wait;
  }

  fail(subjects: string[], now: number): void {
    // A bounded map: under a flood of made-up e-mails, forget everything rather than grow.
    if (this.#failures.size > 100_000) this.#failures.clear();
    for (const s of subjects) this.#failures.set(s, [...this.#recent(s, now), now]);
  }

  succeed(subject: string): void {
    this.#failures.delete(subject);
  }

  #recent(subject: string, now: number): number[] {
    return (this.#failures.get(subject) ?? []).filter((t) => now - t < this.#windowMs);
  }
}
