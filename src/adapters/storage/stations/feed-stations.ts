import type { Clock } from "../../../interfaces/clock.ts";
import type { FeedStore } from "../../../interfaces/feeds.ts";

/** How long the list of feed stations is reused: a feed added elsewhere becomes visible within this. */
export const FEED_STATIONS_TTL_MS = 1_000;

/**
 * The stations that carry public feeds, read per request by the visible set, so cached.
 * Every refresh first tells `bind` which source governs each station (the sources registry
 * learns that a feed's station is, say, `digitraffic-marine`) and only then hands out the
 * ids: a feed station is never visible before its licence is known.
 */
export class FeedStations {
  readonly #feeds: FeedStore;
  readonly #clock: Clock;
  readonly #bind: (stations: { stationId: number; sourceId: string }[]) => void;
  #ids: readonly number[] = [];
  #until = 0;
  #loading: Promise<readonly number[]> | null = null;

  constructor(feeds: FeedStore, clock: Clock, bind: (stations: { stationId: number; sourceId: string }[]) => void) {
    this.#feeds = feeds;
    this.#clock = clock;
    this.#bind = bind;
  }

  ids(): Promise<readonly number[]> {
    if (this.#clock.now() < this.#until) return Promise.resolve(this.#ids);
    this.#loading ??= this.refresh().finally(() => {
      this.#loading = null;
    });
    return this.#loading;
  }

  /** Reads the list now (after `feeds add` in this process, and at start). */
  async refresh(): Promise<readonly number[]> {
    const stations = await this.#feeds.stations();
    this.#bind(stations);
    this.#ids = stations.map((s) => s.stationId);
    this.#until = this.#clock.now() + FEED_STATIONS_TTL_MS;
    return this.#ids;
  }
}
