import { fromPlane, type PlanePoint, segmentCrossing, toPlane } from "./geo.ts";

/**
 * A gate across a waterway: a polyline from land to land. A vessel transits when the
 * straight step between two consecutive fixes crosses it; the side it came from gives the
 * direction. See docs/waterways.md for how each gate was drawn.
 */
export interface GateDefinition {
  /** PortWatch id (`chokepoint9`) or the service's own (`kiel-canal`). */
  id: string;
  name: string;
  /** [lon, lat] vertices, as drawn (before extension inland). */
  line: [number, number][];
  /** Names of the two directions: crossing from the left of the line's direction to its right, and back. */
  directions: { leftToRight: string; rightToLeft: string };
  /** Longest step between two fixes across which a crossing is still counted. */
  maxGapMinutes: number;
}

export interface Gate extends GateDefinition {
  /** The line in the gate's planar frame (km), its ends extended inland. */
  plane: PlanePoint[];
  lon0: number;
  lat0: number;
  /** [minLon, minLat, maxLon, maxLat] of the extended line. */
  bbox: [number, number, number, number];
  lengthKm: number;
}

/** Each end is pushed this far along the line, so a coarse coastline leaves no gap at the shore. */
export const GATE_EXTENSION_KM = 3;

export function buildGate(def: GateDefinition): Gate {
  const lon0 = def.line.reduce((a, p) => a + p[0], 0) / def.line.length;
  const lat0 = def.line.reduce((a, p) => a + p[1], 0) / def.line.length;
  const plane = def.line.map(([lon, lat]) => toPlane(lon, lat, lon0, lat0));
  extend(plane, 0, 1);
  extend(plane, plane.length - 1, plane.length - 2);
  const ends = plane.map((p) => fromPlane(p, lon0, lat0));
  const lons = ends.map((p) => p[0]);
  const lats = ends.map((p) => p[1]);
  let lengthKm = 0;
  for (let i = 1; i < plane.length; i++) lengthKm += Math.hypot(plane[i]!.x - plane[i - 1]!.x, plane[i]!.y - plane[i - 1]!.y);
  return { ...def, plane, lon0, lat0, bbox: [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)], lengthKm };
}

function extend(plane: PlanePoint[], end: number, inner: number): void {
  const e = plane[end]!;
  const i = plane[inner]!;
  const len = Math.hypot(e.x - i.x, e.y - i.y);
  if (len === 0) return;
  plane[end] = { x: e.x + ((e.x - i.x) / len) * GATE_EXTENSION_KM, y: e.y + ((e.y - i.y) / len) * GATE_EXTENSION_KM };
}

export interface Crossing {
  gateId: string;
  /** Interpolated time of the crossing (epoch ms). */
  time: number;
  direction: string;
  /** Time between the two fixes around it. */
  gapMs: number;
}

/** Where the step (lon1, lat1) -> (lon2, lat2) crosses the gate, or null. */
export function crossGate(g: Gate, p1: { lon: number; lat: number; time: number }, p2: { lon: number; lat: number; time: number }): Crossing | null {
  const [minLon, minLat, maxLon, maxLat] = g.bbox;
  if (Math.max(p1.lon, p2.lon) < minLon || Math.min(p1.lon, p2.lon) > maxLon || Math.max(p1.lat, p2.lat) < minLat || Math.min(p1.lat, p2.lat) > maxLat) return null;
  const a = toPlane(p1.lon, p1.lat, g.lon0, g.lat0);
  const b = toPlane(p2.lon, p2.lat, g.lon0, g.lat0);
  for (let i = 1; i < g.plane.length; i++) {
    const hit = segmentCrossing(a, b, g.plane[i - 1]!, g.plane[i]!);
    if (!hit) continue;
    return {
      gateId: g.id,
      time: Math.round(p1.time + hit.u * (p2.time - p1.time)),
      direction: hit.from === 1 ? g.directions.leftToRight : g.directions.rightToLeft,
      gapMs: p2.time - p1.time,
    };
  }
  return null;
}

/** Whether a point lies within `km` of the gate's bounding box (the coverage area around it). */
export function nearGate(g: Gate, lon: number, lat: number, km: number): boolean {
  const dLat = km / 110.57;
  const dLon = km / (Math.cos((g.lat0 * Math.PI) / 180) * 111.32);
  return lon >= g.bbox[0] - dLon && lon <= g.bbox[2] + dLon && lat >= g.bbox[1] - dLat && lat <= g.bbox[3] + dLat;
}
