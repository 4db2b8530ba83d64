/**
 * User zones: GeoJSON Polygons in lon/lat degrees, validated once when saved, then tested
 * against every position that falls in their grid cells (zone-index.ts).
 *
 * Written by hand rather than with a geometry library: the service needs point-in-polygon
 * and segment intersection only, both a few lines, and the hot path (one test per fix and
 * candidate zone) should not allocate.
 */

export type Ring = [number, number][];

export interface Polygon {
  type: "Polygon";
  /** Outer ring first, then holes; each closed (first position = last). */
  coordinates: Ring[];
}

export interface BBox {
  minLon: number;
  minLat: number;
  maxLon: number;
  maxLat: number;
}

export const ZONE_LIMITS = {
  /** Positions over all rings. */
  maxVertices: 1_000,
  maxHoles: 10,
  /** Largest extent either way, in degrees: an ocean basin is not a zone, and a zone crossing the antimeridian must be split. */
  maxSpanDeg: 30,
  /** Smallest extent either way (about 10 m): anything smaller is a typing error or a point. */
  minSpanDeg: 0.0001,
} as const;

export type GeometryCheck = { ok: true; polygon: Polygon; bbox: BBox } | { ok: false; message: string };

function fail(message: string): GeometryCheck {
  return { ok: false, message };
}

/** Validates untrusted input as a Polygon; returns a clean copy (2D positions only, repeated vertices dropped). */
export function validatePolygon(input: unknown): GeometryCheck {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return fail("must be a GeoJSON object");
  const g = input as Record<string, unknown>;
  if (g.type !== "Polygon") return fail('must be a GeoJSON Polygon ({"type":"Polygon","coordinates":[[[lon,lat],...]]})');
  if (!Array.isArray(g.coordinates) || g.coordinates.length === 0) return fail("coordinates must be a non-empty array of rings");
  if (g.coordinates.length > ZONE_LIMITS.maxHoles + 1) return fail(`must have at most ${ZONE_LIMITS.maxHoles} holes`);
  const rings: Ring[] = [];
  let vertices = 0;
  for (const [ri, rawRing] of (g.coordinates as unknown[]).entries()) {
    const where = ri === 0 ? "the outer ring" : `hole ${ri}`;
    if (!Array.isArray(rawRing)) return fail(`${where} must be an array of positions`);
    vertices += rawRing.length;
    if (vertices > ZONE_LIMITS.maxVertices) return fail(`must have at most ${ZONE_LIMITS.maxVertices} positions in all`);
    const ring: Ring = [];
    for (const [pi, p] of rawRing.entries()) {
      if (!Array.isArray(p) || p.length < 2 || p.length > 3 || !p.every((x) => typeof x === "number" && Number.isFinite(x))) {
        return fail(`${where}, position ${pi}: must be [lon, lat] with finite numbers`);
      }
      const [lon, lat] = p as number[];
      if (lon! < -180 || lon! > 180) return fail(`${where}, position ${pi}: longitude ${lon} is outside -180..180`);
      if (lat! < -90 || lat! > 90) return fail(`${where}, position ${pi}: latitude ${lat} is outside -90..90`);
      const prev = ring[ring.length - 1];
      if (prev && prev[0] === lon && prev[1] === lat) continue;
      ring.push([lon!, lat!]);
    }
    if (ring.length < 4) return fail(`${where} must have at least 4 positions (3 distinct corners and the first repeated at the end)`);
    const first = ring[0]!;
    const last = ring[ring.length - 1]!;
    if (first[0] !== last[0] || first[1] !== last[1]) return fail(`${where} must be closed: its last position must equal its first`);
    const cross = selfIntersection(ring);
    if (cross !== null) return fail(`${where} intersects itself (edges ${cross[0]} and ${cross[1]})`);
    if (Math.abs(signedArea(ring)) === 0) return fail(`${where} encloses no area`);
    rings.push(ring);
  }
  const bbox = ringBBox(rings[0]!);
  const spanLon = bbox.maxLon - bbox.minLon;
  const spanLat = bbox.maxLat - bbox.minLat;
  if (spanLon > ZONE_LIMITS.maxSpanDeg || spanLat > ZONE_LIMITS.maxSpanDeg) {
    return fail(`is ${spanLon.toFixed(2)} x ${spanLat.toFixed(2)} degrees; at most ${ZONE_LIMITS.maxSpanDeg} degrees either way (split zones crossing the antimeridian)`);
  }
  if (spanLon < ZONE_LIMITS.minSpanDeg || spanLat < ZONE_LIMITS.minSpanDeg) return fail(`must be at least ${ZONE_LIMITS.minSpanDeg} degrees either way`);
  for (let h = 1; h < rings.length; h++) {
    const hole = rings[h]!;
    if (!hole.every(([lon, lat]) => pointInRing(lon, lat, rings[0]!))) return fail(`hole ${h} must lie inside the outer ring`);
    for (let o = 0; o < h; o++) {
      if (ringsIntersect(hole, rings[o]!)) return fail(`hole ${h} crosses or touches ${o === 0 ? "the outer ring" : `hole ${o}`}`);
    }
  }
  return { ok: true, polygon: { type: "Polygon", coordinates: rings }, bbox };
}

export function ringBBox(ring: Ring): BBox {
  let minLon = Infinity;
  let minLat = Infinity;
  let maxLon = -Infinity;
  let maxLat = -Infinity;
  for (const [lon, lat] of ring) {
    if (lon < minLon) minLon = lon;
    if (lon > maxLon) maxLon = lon;
    if (lat < minLat) minLat = lat;
    if (lat > maxLat) maxLat = lat;
  }
  return { minLon, minLat, maxLon, maxLat };
}

function signedArea(ring: Ring): number {
  let a = 0;
  for (let i = 0; i + 1 < ring.length; i++) a += ring[i]![0] * ring[i + 1]![1] - ring[i + 1]![0] * ring[i]![1];
  return a / 2;
}

/** Even-odd crossing test of one ring (the closing position included). */
export function pointInRing(lon: number, lat: number, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 2; i < ring.length - 1; j = i++) {
    const xi = ring[i]![0];
    const yi = ring[i]![1];
    const xj = ring[j]![0];
    const yj = ring[j]![1];
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Inside the outer ring and in none of the holes. */
export function pointInPolygon(lon: number, lat: number, polygon: Polygon): boolean {
  const rings = polygon.coordinates;
  if (!pointInRing(lon, lat, rings[0]!)) return false;
  for (let h = 1; h < rings.length; h++) if (pointInRing(lon, lat, rings[h]!)) return false;
  return true;
}

function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  const v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  return v > 0 ? 1 : v < 0 ? -1 : 0;
}

function onSegment(ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean {
  return Math.min(ax, bx) <= px && px <= Math.max(ax, bx) && Math.min(ay, by) <= py && py <= Math.max(ay, by);
}

/** Whether segments p1p2 and p3p4 share any point (touching and collinear overlap count). */
export function segmentsIntersect(p1: [number, number], p2: [number, number], p3: [number, number], p4: [number, number]): boolean {
  const d1 = orient(p3[0], p3[1], p4[0], p4[1], p1[0], p1[1]);
  const d2 = orient(p3[0], p3[1], p4[0], p4[1], p2[0], p2[1]);
  const d3 = orient(p1[0], p1[1], p2[0], p2[1], p3[0], p3[1]);
  const d4 = orient(p1[0], p1[1], p2[0], p2[1], p4[0], p4[1]);
  if (d1 !== d2 && d3 !== d4 && d1 !== 0 && d2 !== 0 && d3 !== 0 && d4 !== 0) return true;
  if (d1 === 0 && onSegment(p3[0], p3[1], p4[0], p4[1], p1[0], p1[1])) return true;
  if (d2 === 0 && onSegment(p3[0], p3[1], p4[0], p4[1], p2[0], p2[1])) return true;
  if (d3 === 0 && onSegment(p1[0], p1[1], p2[0], p2[1], p3[0], p3[1])) return true;
  if (d4 === 0 && onSegment(p1[0], p1[1], p2[0], p2[1], p4[0], p4[1])) return true;
  return false;
}

/**
 * The first pair of edges (by index) that meet other than where neighbours share a corner,
 * or null. Adjacent edges may only share their common corner: a spike folding back onto
 * the previous edge is caught by the collinear check.
 */
function selfIntersection(ring: Ring): [number, number] | null {
  const n = ring.length - 1;
  for (let i = 0; i < n; i++) {
    const a1 = ring[i]!;
    const a2 = ring[i + 1]!;
    for (let j = i + 1; j < n; j++) {
      const b1 = ring[j]!;
      const b2 = ring[j + 1]!;
      const adjacent = j === i + 1 || (i === 0 && j === n - 1);
      if (adjacent) {
        // Neighbours share one corner; they are bad only if they fold back along each other.
        const shared = j === i + 1 ? a2 : a1;
        const other = j === i + 1 ? b2 : b1;
        const mine = j === i + 1 ? a1 : a2;
        if (orient(mine[0], mine[1], shared[0], shared[1], other[0], other[1]) === 0) {
          const backwards = (other[0] - shared[0]) * (mine[0] - shared[0]) + (other[1] - shared[1]) * (mine[1] - shared[1]) > 0;
          if (backwards) return [i, j];
        }
        continue;
      }
      if (segmentsIntersect(a1, a2, b1, b2)) return [i, j];
    }
  }
  return null;
}

function ringsIntersect(a: Ring, b: Ring): boolean {
  for (let i = 0; i + 1 < a.length; i++) {
    for (let j = 0; j + 1 < b.length; j++) if (segmentsIntersect(a[i]!, a[i + 1]!, b[j]!, b[j + 1]!)) return true;
  }
  return false;
}
