import type { PositionFix } from "../positions/position-fix.ts";

/** One position report as the derived-fact detectors read it (a stored fix of one station). */
export type DerivedFix = Omit<PositionFix, "cog" | "heading">;

/** Knots from kilometres over milliseconds. */
export function impliedKnots(km: number, ms: number): number {
  return ms <= 0 ? Number.POSITIVE_INFINITY : km / 1.852 / (ms / 3_600_000);
}
