/** One position report as the derived-fact detectors read it (a stored fix of one station). */
export interface DerivedFix {
  mmsi: number;
  stationId: number;
  /** Epoch ms. */
  time: number;
  lat: number;
  lon: number;
  /** Knots; null when the report carries none. */
  sog: number | null;
  /** ITU navigational status (1 = at anchor, 5 = moored); null when the report carries none. */
  navStatus: number | null;
}

/** Knots from kilometres over milliseconds. */
export function impliedKnots(km: number, ms: number): number {
  return ms <= 0 ? Number.POSITIVE_INFINITY : km / 1.852 / (ms / 3_600_000);
}
