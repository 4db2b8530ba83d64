/**
 * Tasks run one at a time, in the order given; a failed task is reported and the next one
 * still runs. `coalesced` is for "drain the queue" wake-ups: every call made while one such
 * run waits to start shares it, so a burst of wake-ups costs one drain, not one each.
 */
export class SerialTasks {
  #tail: Promise<void> = Promise.resolve();
  #waiting: Promise<void> | null = null;
  readonly #onError: (err: unknown) => void;

  constructor(onError: (err: unknown) => void = () => {}) {
    this.#onError = onError;
  }

  run(task: () => Promise<void>): Promise<void> {
    const next = this.#tail.then(task).catch((e: unknown) => this.#onError(e));
    this.#tail = next;
    return next;
  }

  coalesced(task: () => Promise<void>): Promise<void> {
    this.#waiting ??= this.run(() => {
      this.#waiting = null;
      return task();
    });
    return this.#waiting;
  }

  /** Resolves when every task given so far has run. */
  idle(): Promise<void> {
    return this.#tail;
  }
}
