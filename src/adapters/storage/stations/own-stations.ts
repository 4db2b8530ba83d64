import type { Clock } from "../../../interfaces/clock.ts";

/**
 * How long an account's own-station list is reused. Stations are only ever created (never
 * deleted or moved to another account), so the list only grows: this bounds how long a
 * station made in another process (`mds stations create`) stays out of its owner's answers.
 * A station made in this process shows at once (added()).
 */
export const OWN_STATIONS_TTL_MS = 1_000;

/** Accounts remembered at most; past it the oldest are forgotten, so a key-rotating crowd cannot grow the map. */
const MAX_ACCOUNTS = 50_000;

type Entry = { ids: readonly number[]; until: number };

/**
 * Each account's own station ids, for the visible set every read of positions, calls and
 * vessels is filtered by. Asked on nearly every paid request; without this it was one
 * database round trip per request (on PostgreSQL the largest share of a port lookup's
 * work). Concurrent readers of one account share one load.
 */
export class OwnStations {
  readonly #load: (accountId: string) => Promise<readonly number[]>;
  readonly #clock: Clock;
  readonly #ttlMs: number;
  readonly #entries = new Map<string, Entry>();
  readonly #loading = new Map<string, Promise<readonly number[]>>();

  constructor(load: (accountId: string) => Promise<readonly number[]>, clock: Clock, ttlMs = OWN_STATIONS_TTL_MS) {
    this.#load = load;
    this.#clock = clock;
    this.#ttlMs = ttlMs;
  }

  async ids(accountId: string): Promise<readonly number[]> {
    const hit = this.#entries.get(accountId);
    if (hit && hit.until > this.#clock.now()) return hit.ids;
    let loading = this.#loading.get(accountId);
    if (!loading) {
      loading = this.#load(accountId)
        .then((ids) => {
          // A station created while this load ran invalidated the entry; the load may predate it, so it is not kept.
          if (this.#loading.get(accountId) === loading) this.#remember(accountId, ids);
          return ids;
        })
        .finally(() => {
          if (this.#loading.get(accountId) === loading) this.#loading.delete(accountId);
        });
      this.#loading.set(accountId, loading);
    }
    return loading;
  }

  /** A station was created for the account in this process: its next read loads afresh. */
  added(accountId: string): void {
    this.#entries.delete(accountId);
    this.#loading.delete(accountId);
  }

  #remember(accountId: string, ids: readonly number[]): void {
    if (this.#entries.size >= MAX_ACCOUNTS) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.delete(accountId);
    this.#entries.set(accountId, { ids, until: this.#clock.now() + this.#ttlMs });
  }
}
