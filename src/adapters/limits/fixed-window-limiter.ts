import type { Clock } from "../../interfaces/clock.ts";
import type { RateDecision, RateLimiter } from "../../interfaces/rate-limiter.ts";

const WINDOW_MS = 1_000;

interface Window {
  startedAt: number;
  used: number;
}

/**
 * The in-process limiter: a one-second fixed window per subject and rate (the window opens
 * at the first call and lasts a second), the rule storage/redis/admission.ts applies across
 * processes. Time comes only from the Clock, so a test clock moves its windows.
 * Expired windows are swept at most once a window, when a call comes in, so no timer runs.
 */
export class FixedWindowLimiter implements RateLimiter {
  readonly #clock: Clock;
  readonly #windows = new Map<string, Window>();
  #nextSweepAt = 0;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  async consume(subject: string, perSecond: number): Promise<RateDecision> {
    return this.take(subject, perSecond);
  }

  /** consume()'s decision, returned at once: the window is this process's memory, there is nothing to wait for. */
  take(subject: string, perSecond: number): RateDecision {
    const now = this.#clock.now();
    this.#sweep(now);
    // Plans differ in rate, and a key that changes plan starts a fresh budget at the new rate.
    const id = `${perSecond}:${subject}`;
    let window = this.#windows.get(id);
    if (!window || now >= window.startedAt + WINDOW_MS || now < window.startedAt) {
      window = { startedAt: now, used: 0 };
      this.#windows.set(id, window);
    }
    const resetMs = window.startedAt + WINDOW_MS - now;
    if (window.used >= perSecond) return { allowed: false, limit: perSecond, remaining: 0, resetMs };
    window.used += 1;
    return { allowed: true, limit: perSecond, remaining: perSecond - window.used, resetMs };
  }

  /** Subjects seen now and then (client addresses of keyless calls) must not pile up. */
  #sweep(now: number): void {
    if (now < this.#nextSweepAt) return;
    this.#nextSweepAt = now + WINDOW_MS;
    for (const [id, window] of this.#windows) {
      if (now >= window.startedAt + WINDOW_MS) this.#windows.delete(id);
    }
  }

  async close(): Promise<void> {
    this.#windows.clear();
  }
}
