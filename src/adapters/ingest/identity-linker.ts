/** A (station, MMSI) pair whose static report was just stored. */
export interface IdentityKey {
  stationId: number;
  mmsi: number;
}

/**
 * Links stored static reports into the vessel registry as soon as their batch is committed,
 * so a ship whose IMO was just heard answers by IMO within a second instead of after the
 * next periodic refresh. One link runs at a time; pairs stored meanwhile are gathered and
 * linked together next. A link that fails is not retried here: the pairs stay unlinked in
 * the database, and the periodic registry refresh (the safety net) finds them by their
 * difference from what was linked last.
 */
export class IdentityLinker {
  readonly #link: (keys: readonly IdentityKey[]) => Promise<number>;
  readonly #onError: (e: unknown) => void;
  #pending = new Map<string, IdentityKey>();
  #running: Promise<void> | null = null;

  constructor(link: (keys: readonly IdentityKey[]) => Promise<number>, onError: (e: unknown) => void) {
    this.#link = link;
    this.#onError = onError;
  }

  /** Queues pairs to link; returns at once. */
  add(keys: readonly IdentityKey[]): void {
    for (const k of keys) this.#pending.set(`${k.stationId}:${k.mmsi}`, k);
    if (this.#pending.size > 0 && this.#running === null) this.#running = this.#run();
  }

  /** Resolves once every pair queued so far is linked (or its link failed). */
  async drain(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #run(): Promise<void> {
    try {
      while (this.#pending.size > 0) {
        const keys = [...this.#pending.values()];
        this.#pending = new Map();
        await this.#link(keys).catch(this.#onError);
      }
    } finally {
      this.#running = null;
    }
  }
}
