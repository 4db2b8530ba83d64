import { grantOf, sharedStationSource } from "../../../domain/rights/station-source.ts";
import type { Source } from "../../../domain/rights/source.ts";
import type { Station } from "../../../interfaces/accounts.ts";
import type { Clock } from "../../../interfaces/clock.ts";

/**
 * How long a snapshot of the shared stations is used. Stations are shared and unshared from
 * the command line (another process), so `serve` learns of a change within this; it bounds
 * how long a station made private stays visible to others.
 */
export const SHARED_STATIONS_TTL_MS = 1_000;

interface Snapshot {
  ids: number[];
  sources: Map<number, Source>;
  until: number;
}

/**
 * The shared stations, as the visible set (which stations' data everyone may see) and as
 * sources (what their owners grant) from ONE snapshot: a request never sees a station's
 * data under permissions older than the decision to show it. Read per request; loaded at
 * most once per TTL, concurrent readers sharing one load.
 */
export class SharedStations {
  readonly #load: () => Promise<Station[]>;
  readonly #clock: Clock;
  readonly #ttlMs: number;
  #snapshot: Snapshot = { ids: [], sources: new Map(), until: 0 };
  #loading: Promise<Snapshot> | null = null;

  constructor(load: () => Promise<Station[]>, clock: Clock, ttlMs = SHARED_STATIONS_TTL_MS) {
    this.#load = load;
    this.#clock = clock;
    this.#ttlMs = ttlMs;
  }

  /** Ids of every shared station, ascending. */
  async ids(): Promise<number[]> {
    return (await this.#current()).ids;
  }

  /** The source a shared station's data is published under; undefined when it is not shared (as of the last snapshot). */
  sourceOf(stationId: number): Source | undefined {
    // Readers without a request (zone alerts) keep the snapshot fresh too, without waiting on it.
    if (this.#snapshot.until <= this.#clock.now() && this.#loading === null) void this.#current().catch(() => undefined);
    return this.#snapshot.sources.get(stationId);
  }

  /** Every shared station as a source (id `station:<id>`, name, licence, permissions): what `GET /api/v1/sources` lists. */
  async sources(): Promise<Source[]> {
    return [...(await this.#current()).sources.values()];
  }

  /** Forget the snapshot: a change made in this process shows at the next read. */
  invalidate(): void {
    this.#snapshot = { ...this.#snapshot, until: 0 };
  }

  async #current(): Promise<Snapshot> {
    if (this.#snapshot.until > this.#clock.now()) return this.#snapshot;
    this.#loading ??= this.#load()
      .then((stations) => {
        const sources = new Map(stations.map((s) => [s.id, sharedStationSource(grantOf(s))]));
        this.#snapshot = { ids: stations.map((s) => s.id).sort((a, b) => a - b), sources, until: this.#clock.now() + this.#ttlMs };
        return this.#snapshot;
      })
      .finally(() => {
        this.#loading = null;
      });
    return this.#loading;
  }
}
