/**
 * Failed sign-ins counted per client address and per e-mail in a sliding window: past the
 * limit, sign-in is refused (429) until the oldest failure in the window ages out, without
 * checking the password, so an attacker can neither guess on nor queue costly hashes. A
 * success clears the e-mail's count. Kept in memory: one process's view, which is what a
 * single-process deployment has; several API processes each count on their own.
 */
export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_MS = 15 * 60_000;

export class LoginThrottle {
  readonly #failures = new Map<string, number[]>();
  readonly #max: number;
  readonly #windowMs: number;

  constructor(max = LOGIN_MAX_FAILURES, windowMs = LOGIN_WINDOW_MS) {
    this.#max = max;
    this.#windowMs = windowMs;
  }

  /** Milliseconds until another attempt is allowed for any of the subjects, or 0. */
  retryAfter(subjects: string[], now: number): number {
    let wait = 0;
    for (const s of subjects) {
      const recent = this.#recent(s, now);
      if (recent.length >= this.#max) wait = Math.max(wait, recent[recent.length - this.#max]! + this.#windowMs - now);
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
