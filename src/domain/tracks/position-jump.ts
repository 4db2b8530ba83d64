import { distanceKm, type GeoPoint } from "../geo/distance.ts";

/**
 * Fastest a ship is taken to sail. The fastest merchant ships and ferries make 40 to 45
 * knots, a few fast craft a little over 50; 60 leaves them a margin. A fix that implies
 * more than this since the ship's last fix is a corrupt or spoofed position, not a voyage.
 */
export const MAX_PLAUSIBLE_KNOTS = 60;

/**
 * Distance always allowed between two fixes (nautical miles), whatever the time between
 * them: GNSS noise, positions rounded to 1/10 minute (type 27) and timestamps of whole
 * seconds would otherwise make two close fixes a second apart look impossibly fast.
 */
export const JUMP_SLACK_NM = 1;

/**
 * Consecutive fixes that must agree with one another, all far from the last accepted one,
 * before the ship is taken to be there (the earlier accepted fix was the wrong one, or the
 * ship was not heard for a long way). The first ones are flagged; this one is accepted.
 */
export const JUMP_CONFIRMATIONS = 3;

export interface TimedPoint extends GeoPoint {
  /** Epoch milliseconds. */
  time: number;
}

/** Whether going from `a` to `b` means sailing faster than `maxKnots` (plus the slack). */
export function impliesImpossibleSpeed(a: TimedPoint, b: TimedPoint, maxKnots = MAX_PLAUSIBLE_KNOTS): boolean {
  const nm = distanceKm(a, b) / 1.852;
  const hours = Math.abs(b.time - a.time) / 3_600_000;
  return nm > maxKnots * hours + JUMP_SLACK_NM;
}

interface Track {
  /** The last accepted fix. */
  last: TimedPoint;
  /** Flagged fixes since, that agree with one another: the newest, and how many. */
  elsewhere: TimedPoint | null;
  agreeing: number;
}

/**
 * Judges each new fix of a ship against its last accepted one. Kept per key (station and
 * MMSI) in memory, at most `maxKeys` of them (the oldest forgotten first); a ship not
 * known yet, as after a restart, has its first fix accepted.
 */
export class JumpFilter {
  readonly #tracks = new Map<string, Track>();
  readonly #maxKeys: number;

  constructor(maxKeys = 500_000) {
    this.#maxKeys = maxKeys;
  }

  /** True when the fix is plausible (and becomes the last accepted one); false for a jump. */
  accept(key: string, fix: TimedPoint): boolean {
    const t = this.#tracks.get(key);
    if (t === undefined) {
      if (this.#tracks.size >= this.#maxKeys) this.#tracks.delete(this.#tracks.keys().next().value!);
      this.#tracks.set(key, { last: fix, elsewhere: null, agreeing: 0 });
      return true;
    }
    if (!impliesImpossibleSpeed(t.last, fix)) {
      if (fix.time >= t.last.time) t.last = fix;
      t.elsewhere = null;
      t.agreeing = 0;
      return true;
    }
    t.agreeing = t.elsewhere !== null && !impliesImpossibleSpeed(t.elsewhere, fix) ? t.agreeing + 1 : 1;
    t.elsewhere = fix;
    if (t.agreeing < JUMP_CONFIRMATIONS) return false;
    t.last = fix;
    t.elsewhere = null;
    t.agreeing = 0;
    return true;
  }
}
