/**
 * UN/LOCODE writes coordinates as degrees and whole minutes, "DDMMN DDDMME"
 * (e.g. "5155N 00430E"). The published lists contain malformed strings
 * ("4427N 064250W", "2444N 05045") and values that are not coordinates at all
 * ("3360S 06843W": 60 minutes, or decimal degrees squeezed into the pattern such
 * as "4676N 14454E"), so anything that is not exactly the documented shape, or
 * whose minutes or degrees are out of range, is rejected instead of being guessed.
 */

export type LatLon = { lat: number; lon: number };

const UNLOCODE_COORDINATES = /^(\d{2})(\d{2})([NS])\s*(\d{3})(\d{2})([EW])$/;

/** Returns decimal degrees (6 decimals, south and west negative) or null. */
export function parseUnlocodeCoordinates(value: string | null | undefined): LatLon | null {
  if (!value) return null;
  const m = UNLOCODE_COORDINATES.exec(value.trim());
  if (!m) return null;
  const latDeg = Number(m[1]);
  const latMin = Number(m[2]);
  const lonDeg = Number(m[4]);
  const lonMin = Number(m[5]);
  if (latMin > 59 || lonMin > 59) return null;
  const lat = latDeg + latMin / 60;
  const lon = lonDeg + lonMin / 60;
  if (lat > 90 || lon > 180) return null;
  return { lat: signed(lat, m[3] === "S"), lon: signed(lon, m[6] === "W") };
}

/** Why a coordinate string was rejected, for the notes that keep the rejection auditable. */
export function describeCoordinateRejection(value: string): string {
  const m = UNLOCODE_COORDINATES.exec(value.trim());
  if (!m) return "not in the DDMMN DDDMME format";
  return "degrees or minutes out of range";
}

// Whole minutes are exact to 1/60 degree; rounding to 6 decimals only removes
// binary noise (42.516666666666666 -> 42.516667) and keeps values stable across runs.
function signed(value: number, negative: boolean): number {
  const rounded = Math.round(value * 1e6) / 1e6;
  // -0 would serialise as 0 but compare oddly (Object.is), so equator/meridian stay +0.
  return negative && rounded !== 0 ? -rounded : rounded;
}

/** Validates decimal degrees from other sources (WPI, geocoders): finite and in range. */
export function validLatLon(lat: number, lon: number): LatLon | null {
  if (!Number.isFinite(lat) || !Number.isFinite(lon)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  return { lat, lon };
}
