/**
 * Small-distance geometry for the derived facts: great-circle distance, and a local
 * planar frame (equirectangular at a reference latitude) in which a gate segment and a
 * vessel's step between two fixes are tested for crossing. Over the tens of kilometres a
 * gate spans the frame's error is well under a ship's length.
 */

const EARTH_KM = 6371.0088;
const RAD = Math.PI / 180;

export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export interface PlanePoint {
  x: number;
  y: number;
}

/** Kilometres east and north of (lon0, lat0). */
export function toPlane(lon: number, lat: number, lon0: number, lat0: number): PlanePoint {
  return { x: (lon - lon0) * Math.cos(lat0 * RAD) * 111.32, y: (lat - lat0) * 110.57 };
}

/** Inverse of `toPlane`. */
export function fromPlane(p: PlanePoint, lon0: number, lat0: number): [number, number] {
  return [lon0 + p.x / (Math.cos(lat0 * RAD) * 111.32), lat0 + p.y / 110.57];
}

/** z of (b - a) x (p - a): positive when p is left of a->b. */
export function cross(a: PlanePoint, b: PlanePoint, p: PlanePoint): number {
  return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
}

/**
 * Where segment p1->p2 crosses segment a->b: the fraction `u` along p1->p2 and the side of
 * a->b that p1 was on (1 = left, -1 = right). Null when they do not cross, or when an end
 * lies exactly on the line (the next step decides).
 */
export function segmentCrossing(p1: PlanePoint, p2: PlanePoint, a: PlanePoint, b: PlanePoint): { u: number; from: 1 | -1 } | null {
  const s1 = cross(a, b, p1);
  const s2 = cross(a, b, p2);
  if (s1 === 0 || s2 === 0 || Math.sign(s1) === Math.sign(s2)) return null;
  const t1 = cross(p1, p2, a);
  const t2 = cross(p1, p2, b);
  if (t1 === 0 || t2 === 0 || Math.sign(t1) === Math.sign(t2)) return null;
  return { u: s1 / (s1 - s2), from: s1 > 0 ? 1 : -1 };
}
