/**
 * Zone entry detection with hysteresis. A vessel enters a zone when its previous known
 * position was outside and it is then seen inside on two consecutive fixes; it counts as
 * outside again only after two consecutive fixes outside. A ship lying on the boundary,
 * whose fixes scatter in and out, therefore never raises an alert, and one that crosses
 * in and out once raises at most one.
 *
 * State is kept per viewer (the account owning the zones: positions from another
 * account's private station never reach its tracker) and vessel. A vessel seen for the
 * first time sets a baseline and raises nothing: without a previous position there is no
 * "was outside". That is also what happens after a restart, since the state lives in memory.
 */

/** Per zone: `entering`/`leaving` hold the one fix seen on the new side so far. */
type ZoneState = "entering" | "inside" | "leaving";

interface VesselState {
  lastTime: number;
  lastSeen: number;
  zones: Map<number, ZoneState> | null;
}

export interface ZoneEntry {
  zoneId: number;
  mmsi: number;
}

export class ZoneTracker {
  readonly #vessels = new Map<number, VesselState>();

  get vessels(): number {
    return this.#vessels.size;
  }

  /**
   * Feeds one fix: `insideZones` are the ids of this viewer's zones containing it. Returns
   * the zones entered. Fixes not newer than the last one of the vessel (duplicates heard by
   * two stations, late arrivals) are ignored.
   */
  observe(mmsi: number, time: number, insideZones: readonly number[], seenAt: number): number[] {
    const v = this.#vessels.get(mmsi);
    if (!v) {
      const zones = insideZones.length > 0 ? new Map<number, ZoneState>(insideZones.map((z) => [z, "inside"])) : null;
      this.#vessels.set(mmsi, { lastTime: time, lastSeen: seenAt, zones });
      return NONE;
    }
    if (time <= v.lastTime) return NONE;
    v.lastTime = time;
    v.lastSeen = seenAt;
    if (insideZones.length === 0 && v.zones === null) return NONE;
    let entered: number[] | null = null;
    const zones = (v.zones ??= new Map());
    for (const z of insideZones) {
      const s = zones.get(z);
      if (s === undefined) zones.set(z, "entering");
      else if (s === "entering") {
        zones.set(z, "inside");
        (entered ??= []).push(z);
      } else if (s === "leaving") zones.set(z, "inside");
    }
    for (const [z, s] of zones) {
      if (insideZones.includes(z)) continue;
      if (s === "entering" || s === "leaving") zones.delete(z);
      else zones.set(z, "leaving");
    }
    if (zones.size === 0) v.zones = null;
    return entered ?? NONE;
  }

  /** Forgets a zone (deleted). */
  dropZone(zoneId: number): void {
    for (const v of this.#vessels.values()) {
      v.zones?.delete(zoneId);
      if (v.zones?.size === 0) v.zones = null;
    }
  }

  /** Forgets vessels not heard since `before`; a vessel heard again later starts from a new baseline. */
  prune(before: number): number {
    let n = 0;
    for (const [mmsi, v] of this.#vessels) {
      if (v.lastSeen < before) {
        this.#vessels.delete(mmsi);
        n++;
      }
    }
    return n;
  }
}

const NONE: number[] = [];
