import type { KeyObject } from "node:crypto";
import { hashSecret, sameDigest } from "../../domain/secrets.ts";
import type { Clock } from "../../interfaces/clock.ts";
import type { IngestStation, PositionStore } from "../../interfaces/positions.ts";
import { udpKeyFromHex } from "./udp-signature.ts";

/** How long a lookup (found or not) is remembered; a new or rotated station secret works within this. */
export const STATION_CACHE_TTL_MS = 30_000;
const MAX_ENTRIES = 20_000;

interface Entry {
  station: IngestStation | null;
  until: number;
}

/**
 * Finds stations by secret (TCP, HTTP) or by id (UDP, where the secret never travels),
 * with a short cache so a flood of datagrams or connections does not become a flood of
 * queries. Misses are cached too: garbage senders cost one query per TTL, not per packet.
 */
export class StationDirectory {
  readonly #store: PositionStore;
  readonly #clock: Clock;
  readonly #bySecret = new Map<string, Entry>();
  readonly #byId = new Map<number, Entry>();
  readonly #inflight = new Map<string, Promise<IngestStation | null>>();
  readonly #unseal: (sealed: string) => string;
  /** Opened UDP keys by station, with the stored form they came from (a rotation changes it). */
  readonly #udpKeys = new Map<number, { stored: string; key: KeyObject }>();

  /** `unseal` opens a stored UDP key (the secret box; the identity for a test store holding plain keys). */
  constructor(store: PositionStore, clock: Clock, unseal: (sealed: string) => string = (s) => s) {
    this.#store = store;
    this.#clock = clock;
    this.#unseal = unseal;
  }

  /** The station's UDP signing key, opened once per stored value; null for a station without one. */
  udpKey(station: IngestStation): KeyObject | null {
    const stored = station.udpKey;
    if (!stored) return null;
    let k = this.#udpKeys.get(station.id);
    if (!k || k.stored !== stored) {
      if (this.#udpKeys.size >= MAX_ENTRIES) this.#udpKeys.clear();
      k = { stored, key: udpKeyFromHex(this.#unseal(stored)) };
      this.#udpKeys.set(station.id, k);
    }
    return k.key;
  }

  /** The station whose secret this is, or null. The secret is hashed at once and never kept. */
  async bySecret(secret: string): Promise<IngestStation | null> {
    if (secret.length < 8 || secret.length > 200) return null;
    const hash = hashSecret(secret);
    const hit = this.#cached(this.#bySecret, hash);
    if (hit !== undefined) return hit && sameDigest(hit.secretHash, hash) ? hit : null;
    return this.#once(`s:${hash}`, async () => {
      const station = await this.#store.stationBySecretHash(hash);
      this.#remember(this.#bySecret, hash, station);
      return station;
    });
  }

  /** Synchronous cache probe for the UDP hot path: undefined when not cached. */
  cachedById(id: number): IngestStation | null | undefined {
    return this.#cached(this.#byId, id);
  }

  async byId(id: number): Promise<IngestStation | null> {
    const hit = this.#cached(this.#byId, id);
    if (hit !== undefined) return hit;
    return this.#once(`i:${id}`, async () => {
      const station = await this.#store.stationById(id);
      this.#remember(this.#byId, id, station);
      return station;
    });
  }

  forget(): void {
    this.#bySecret.clear();
    this.#byId.clear();
  }

  #cached<K>(map: Map<K, Entry>, key: K): IngestStation | null | undefined {
    const e = map.get(key);
    if (e === undefined) return undefined;
    if (e.until <= this.#clock.now()) {
      map.delete(key);
      return undefined;
    }
    return e.station;
  }

  #remember<K>(map: Map<K, Entry>, key: K, station: IngestStation | null): void {
    if (map.size >= MAX_ENTRIES) map.clear();
    map.set(key, { station, until: this.#clock.now() + STATION_CACHE_TTL_MS });
  }

  /** Concurrent lookups of one key share one query. */
  #once(key: string, load: () => Promise<IngestStation | null>): Promise<IngestStation | null> {
    let p = this.#inflight.get(key);
    if (!p) {
      p = load().finally(() => this.#inflight.delete(key));
      this.#inflight.set(key, p);
    }
    return p;
  }
}
