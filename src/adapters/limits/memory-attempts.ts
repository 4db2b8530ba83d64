import type { AttemptWindows } from "../../interfaces/attempts.ts";

/** More subjects than this and everything is forgotten rather than grow (a flood of made-up e-mails or addresses). */
const MAX_SUBJECTS = 100_000;

/** The in-process attempt windows: one process's view, which is what a deployment without Redis has. */
export class MemoryAttemptWindows implements AttemptWindows {
  readonly #attempts = new Map<string, number[]>();

  async wait(subject: string, max: number, windowMs: number, now: number): Promise<number> {
    return this.#wait(this.#recent(subject, windowMs, now), max, windowMs, now);
  }

  async add(subject: string, windowMs: number, now: number): Promise<void> {
    this.#add(subject, this.#recent(subject, windowMs, now), now);
  }

  async take(subject: string, max: number, windowMs: number, now: number): Promise<number> {
    const recent = this.#recent(subject, windowMs, now);
    const wait = this.#wait(recent, max, windowMs, now);
    if (wait === 0) this.#add(subject, recent, now);
    return wait;
  }

  async clear(subject: string): Promise<void> {
    this.#attempts.delete(subject);
  }

  async close(): Promise<void> {
    this.#attempts.clear();
  }

  #wait(recent: number[], max: number, windowMs: number, now: number): number {
    return recent.length >= max ? Math.max(0, recent[recent.length - max]! + windowMs - now) : 0;
  }

  #add(subject: string, recent: number[], now: number): void {
    if (this.#attempts.size > MAX_SUBJECTS) this.#attempts.clear();
    this.#attempts.set(subject, [...recent, now]);
  }

  #recent(subject: string, windowMs: number, now: number): number[] {
    return (this.#attempts.get(subject) ?? []).filter((t) => now - t < windowMs);
  }
}
