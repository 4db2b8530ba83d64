import { distanceKm, toPlane } from "./geo.ts";

/** Grid cell of the segment index, degrees. */
const CELL = 0.5;

/**
 * Distance to the nearest coastline, from land polygons (the bundled Natural Earth 1:50m
 * land, public/geo/land-50m.json): each ring's edges go into a half-degree grid, and a query
 * looks only at the cells within its reach. Loitering must be at least 20 nm from shore
 * (docs/vessel-events.md); the data's 1 km rounding is far inside that margin.
 */
export class ShoreIndex {
  readonly #cells = new Map<string, number[][]>();

  /** `rings`: each a closed list of [lon, lat] points. */
  constructor(rings: Iterable<readonly (readonly [number, number])[]>) {
    for (const ring of rings) {
      for (let i = 1; i < ring.length; i++) {
        const [lon1, lat1] = ring[i - 1]!;
        const [lon2, lat2] = ring[i]!;
        const seg = [lon1, lat1, lon2, lat2];
        const keys = new Set<string>();
        // An edge goes into every cell its bounding box touches (edges are short: at most a few cells).
        for (let y = Math.floor(Math.min(lat1, lat2) / CELL); y <= Math.floor(Math.max(lat1, lat2) / CELL); y++) {
          for (let x = Math.floor(Math.min(lon1, lon2) / CELL); x <= Math.floor(Math.max(lon1, lon2) / CELL); x++) keys.add(`${y}:${x}`);
        }
        for (const k of keys) {
          const list = this.#cells.get(k);
          if (list) list.push(seg);
          else this.#cells.set(k, [seg]);
        }
      }
    }
  }

  get empty(): boolean {
    return this.#cells.size === 0;
  }

  /** Km from the point to the nearest coast edge, or Infinity when none is within `reachKm`. */
  distanceKm(lat: number, lon: number, reachKm: number): number {
    const dLat = reachKm / 110.57 / CELL;
    const dLon = reachKm / (Math.max(0.05, Math.cos((lat * Math.PI) / 180)) * 111.32) / CELL;
    const cy = Math.floor(lat / CELL);
    const cx = Math.floor(lon / CELL);
    let best = Number.POSITIVE_INFINITY;
    for (let y = cy - Math.ceil(dLat); y <= cy + Math.ceil(dLat); y++) {
      for (let x = cx - Math.ceil(dLon); x <= cx + Math.ceil(dLon); x++) {
        for (const seg of this.#cells.get(`${y}:${x}`) ?? []) best = Math.min(best, toSegmentKm(lat, lon, seg));
      }
    }
    return best <= reachKm ? best : Number.POSITIVE_INFINITY;
  }
}

/** Km from a point to an edge, in a local plane centred on the point. */
function toSegmentKm(lat: number, lon: number, seg: number[]): number {
  const a = toPlane(seg[0]!, seg[1]!, lon, lat);
  const b = toPlane(seg[2]!, seg[3]!, lon, lat);
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = dx * dx + dy * dy;
  const t = len === 0 ? 0 : Math.max(0, Math.min(1, -(a.x * dx + a.y * dy) / len));
  const px = a.x + t * dx;
  const py = a.y + t * dy;
  // Planar is exact enough at tens of km; the great circle checks the far ends.
  return len === 0 ? distanceKm(lat, lon, seg[1]!, seg[0]!) : Math.hypot(px, py);
}
