import { distanceKm } from "./geo.ts";

/**
 * A port's area for call detection: a circle around its coordinates whose radius follows
 * the World Port Index harbour size, an exit circle 1 km wider (hysteresis, so a vessel
 * sitting on the edge does not enter and leave over and over), and an anchorage ring
 * beyond it where a vessel stopped outside the port is waiting, not calling.
 */
export interface PortArea {
  unlocode: string;
  name: string;
  lat: number;
  lon: number;
  /** Inside this distance a vessel is in port. */
  radiusKm: number;
  /** A vessel in port leaves it only beyond this distance. */
  exitKm: number;
  /** A vessel stopped between `radiusKm` and this distance waits at the port's anchorage. */
  anchorageKm: number;
  /** How the area was drawn, for `inputs.geometry`. */
  geometry: "wpi_radius" | "default_radius";
}

/** Radius by WPI "Harbor Size": a very small harbour is a quay or two, a large one spreads over many kilometres of basins. */
const RADIUS_KM: Record<string, number> = { "Very Small": 2, Small: 3, Medium: 5, Large: 8 };
/** Ports the WPI does not describe (UN/LOCODE coordinates only). */
const DEFAULT_RADIUS_KM = 3;
const EXIT_MARGIN_KM = 1;
const ANCHORAGE_MARGIN_KM = 10;

export function portArea(p: { unlocode: string; name: string; lat: number; lon: number; harbourSize: string | null }): PortArea {
  const sized = p.harbourSize ? RADIUS_KM[p.harbourSize.trim()] : undefined;
  const radiusKm = sized ?? DEFAULT_RADIUS_KM;
  return {
    unlocode: p.unlocode,
    name: p.name,
    lat: p.lat,
    lon: p.lon,
    radiusKm,
    exitKm: radiusKm + EXIT_MARGIN_KM,
    anchorageKm: radiusKm + ANCHORAGE_MARGIN_KM,
    geometry: sized === undefined ? "default_radius" : "wpi_radius",
  };
}

/** Grid cell size in degrees; the widest anchorage ring (18 km) fits in one cell either side. */
const CELL = 0.5;

/** Port areas by grid cell, so a fix looks at the few ports near it and not at thousands. */
export class PortAreaIndex {
  readonly #cells = new Map<string, PortArea[]>();
  readonly #byCode = new Map<string, PortArea>();

  constructor(areas: Iterable<PortArea>) {
    for (const a of areas) {
      this.#byCode.set(a.unlocode, a);
      const key = cellKey(a.lat, a.lon);
      const list = this.#cells.get(key);
      if (list) list.push(a);
      else this.#cells.set(key, [a]);
    }
  }

  get size(): number {
    return this.#byCode.size;
  }

  get(unlocode: string): PortArea | undefined {
    return this.#byCode.get(unlocode);
  }

  /** Distance outside the nearest anchorage ring (negative inside one); Infinity when no port is within a cell. */
  clearanceKm(lat: number, lon: number): number {
    const cy = Math.floor(lat / CELL);
    const cx = Math.floor(lon / CELL);
    let best = Number.POSITIVE_INFINITY;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        for (const a of this.#cells.get(`${cy + dy}:${wrapCell(cx + dx)}`) ?? []) best = Math.min(best, distanceKm(lat, lon, a.lat, a.lon) - a.anchorageKm);
      }
    }
    return best;
  }

  /** The port whose centre is nearest, among those whose anchorage ring holds the point. */
  nearest(lat: number, lon: number): { area: PortArea; km: number } | null {
    const cy = Math.floor(lat / CELL);
    const cx = Math.floor(lon / CELL);
    let best: { area: PortArea; km: number } | null = null;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const list = this.#cells.get(`${cy + dy}:${wrapCell(cx + dx)}`);
        if (!list) continue;
        for (const a of list) {
          const km = distanceKm(lat, lon, a.lat, a.lon);
          if (km > a.anchorageKm) continue;
          // The port whose own area holds the point wins over a bigger neighbour's ring.
          const rank = km / a.radiusKm;
          if (!best || rank < best.km / best.area.radiusKm) best = { area: a, km };
        }
      }
    }
    return best;
  }
}

const CELLS_AROUND = Math.round(360 / CELL);

function wrapCell(cx: number): number {
  return ((cx % CELLS_AROUND) + CELLS_AROUND) % CELLS_AROUND;
}

function cellKey(lat: number, lon: number): string {
  return `${Math.floor(lat / CELL)}:${wrapCell(Math.floor(lon / CELL))}`;
}
