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
 * "was outside". The state is saved by the caller (`changes`, `restore`), so a restart
 * continues where it stopped instead of setting new baselines.
 */

/** Per zone: `entering`/`leaving` hold the one fix seen on the new side so far. */
export type ZoneMembership = "entering" | "inside" | "leaving";

/** What a tracker knows of one vessel, as saved and restored. */
export interface VesselZoneState {
  mmsi: number;
  lastTime: number;
  lastSeen: number;
  /** The zones the vessel is in or crossing; null when in none. */
  zones: [number, ZoneMembership][] | null;
}

interface VesselState {
  lastTime: number;
  lastSeen: number;
  /** `lastSeen` when the state was last handed out by `changes` (or restored). */
  savedSeen: number;
  zones: Map<number, ZoneMembership> | null;
}

export interface ZoneEntry {
  zoneId: number;
  mmsi: number;
}

/**
 * A vessel whose zones did not change is handed out for saving again only once its
 * `lastSeen` moved this far: forgetting (`prune`) works in hours, and saving every fix of
 * every vessel would write a row per fix.
 */
const RESAVE_SEEN_MS = 10 * 60_000;

export class ZoneTracker {
  readonly #vessels = new Map<number, VesselState>();
  readonly #changed = new Set<number>();
  readonly #forgotten = new Set<number>();

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
      const zones = insideZones.length > 0 ? new Map<number, ZoneMembership>(insideZones.map((z) => [z, "inside"])) : null;
      this.#vessels.set(mmsi, { lastTime: time, lastSeen: seenAt, savedSeen: -Infinity, zones });
      this.#changed.add(mmsi);
      this.#forgotten.delete(mmsi);
      return NONE;
    }
    if (time <= v.lastTime) return NONE;
    v.lastTime = time;
    v.lastSeen = seenAt;
    if (seenAt - v.savedSeen >= RESAVE_SEEN_MS) this.#changed.add(mmsi);
    if (insideZones.length === 0 && v.zones === null) return NONE;
    let entered: number[] | null = null;
    let moved = false;
    const zones = (v.zones ??= new Map());
    for (const z of insideZones) {
      const s = zones.get(z);
      if (s === undefined) {
        zones.set(z, "entering");
        moved = true;
      } else if (s === "entering") {
        zones.set(z, "inside");
        (entered ??= []).push(z);
        moved = true;
      } else if (s === "leaving") {
        zones.set(z, "inside");
        moved = true;
      }
    }
    for (const [z, s] of zones) {
      if (insideZones.includes(z)) continue;
      if (s === "entering" || s === "leaving") zones.delete(z);
      else zones.set(z, "leaving");
      moved = true;
    }
    if (zones.size === 0) v.zones = null;
    if (moved) this.#changed.add(mmsi);
    return entered ?? NONE;
  }

  /** Forgets a zone (deleted). */
  dropZone(zoneId: number): void {
    for (const [mmsi, v] of this.#vessels) {
      if (!v.zones?.delete(zoneId)) continue;
      if (v.zones.size === 0) v.zones = null;
      this.#changed.add(mmsi);
    }
  }

  /** Forgets vessels not heard since `before`; a vessel heard again later starts from a new baseline. */
  prune(before: number): number {
    let n = 0;
    for (const [mmsi, v] of this.#vessels) {
      if (v.lastSeen < before) {
        this.#vessels.delete(mmsi);
        this.#changed.delete(mmsi);
        this.#forgotten.add(mmsi);
        n++;
      }
    }
    return n;
  }

  /** Puts back a vessel's saved state (at start, before any fix is observed). */
  restore(state: VesselZoneState): void {
    const zones = state.zones && state.zones.length > 0 ? new Map(state.zones) : null;
    this.#vessels.set(state.mmsi, { lastTime: state.lastTime, lastSeen: state.lastSeen, savedSeen: state.lastSeen, zones });
  }

  /**
   * What changed since the last call: vessels to save (new, moved between zone states,
   * or not saved for a while) and vessels forgotten. Clears both lists.
   */
  changes(): { save: VesselZoneState[]; forget: number[] } {
    const save: VesselZoneState[] = [];
    for (const mmsi of this.#changed) {
      const v = this.#vessels.get(mmsi);
      if (!v) continue;
      v.savedSeen = v.lastSeen;
      save.push({ mmsi, lastTime: v.lastTime, lastSeen: v.lastSeen, zones: v.zones ? [...v.zones] : null });
    }
    const forget = [...this.#forgotten];
    this.#changed.clear();
    this.#forgotten.clear();
    return { save, forget };
  }
}

const NONE: number[] = [];
