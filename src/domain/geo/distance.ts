/** A point in decimal degrees. */
export interface GeoPoint {
  lat: number;
  lon: number;
}

/** Great-circle distance in kilometres (haversine on a sphere of 6,371 km: within 0.5 % of the ellipsoid). */
export function distanceKm(a: GeoPoint, b: GeoPoint): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}
