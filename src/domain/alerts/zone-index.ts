import { type BBox, type Polygon, pointInPolygon } from "./geometry.ts";

export interface IndexedZone {
  id: number;
  accountId: string;
  name: string;
  polygon: Polygon;
  bbox: BBox;
}

/** Grid cell size in degrees: coarse enough that a zone covers few cells, fine enough that a cell holds few zones. */
export const CELL_DEG = 0.5;
const COLS = 360 / CELL_DEG;

function cellOf(lon: number, lat: number): number {
  // lon 180 / lat 90 fall into the last column / row rather than one past it.
  const col = Math.min(COLS - 1, Math.floor((lon + 180) / CELL_DEG));
  const row = Math.min(180 / CELL_DEG - 1, Math.floor((lat + 90) / CELL_DEG));
  return row * COLS + col;
}

/**
 * A uniform grid over lon/lat: each zone is listed in every cell its bounding box touches,
 * so a position is tested only against the zones of its own cell (then their bounding
 * boxes, then the polygon). Zones are at most 30 degrees across (geometry.ts), so a zone
 * sits in at most 3,600 cells; the typical harbour or strait in one to four.
 */
export class ZoneIndex {
  readonly #cells = new Map<number, IndexedZone[]>();
  readonly #zones = new Map<number, IndexedZone>();
  readonly #accounts = new Map<string, number>();

  get size(): number {
    return this.#zones.size;
  }

  /** Accounts that own at least one zone. */
  accounts(): IterableIterator<string> {
    return this.#accounts.keys();
  }

  hasAccount(accountId: string): boolean {
    return this.#accounts.has(accountId);
  }

  idsOf(accountId: string): number[] {
    const ids: number[] = [];
    for (const z of this.#zones.values()) if (z.accountId === accountId) ids.push(z.id);
    return ids;
  }

  get(id: number): IndexedZone | undefined {
    return this.#zones.get(id);
  }

  add(zone: IndexedZone): void {
    this.remove(zone.id);
    this.#zones.set(zone.id, zone);
    this.#accounts.set(zone.accountId, (this.#accounts.get(zone.accountId) ?? 0) + 1);
    for (const c of this.#cellsOf(zone.bbox)) {
      const list = this.#cells.get(c);
      if (list) list.push(zone);
      else this.#cells.set(c, [zone]);
    }
  }

  remove(id: number): void {
    const zone = this.#zones.get(id);
    if (!zone) return;
    this.#zones.delete(id);
    const n = (this.#accounts.get(zone.accountId) ?? 1) - 1;
    if (n === 0) this.#accounts.delete(zone.accountId);
    else this.#accounts.set(zone.accountId, n);
    for (const c of this.#cellsOf(zone.bbox)) {
      const list = this.#cells.get(c);
      if (!list) continue;
      const rest = list.filter((z) => z.id !== id);
      if (rest.length === 0) this.#cells.delete(c);
      else this.#cells.set(c, rest);
    }
  }

  /** Zones whose polygon contains the point. */
  containing(lon: number, lat: number): IndexedZone[] {
    const list = this.#cells.get(cellOf(lon, lat));
    if (!list) return EMPTY;
    let out: IndexedZone[] | null = null;
    for (const z of list) {
      const b = z.bbox;
      if (lon < b.minLon || lon > b.maxLon || lat < b.minLat || lat > b.maxLat) continue;
      if (pointInPolygon(lon, lat, z.polygon)) (out ??= []).push(z);
    }
    return out ?? EMPTY;
  }

  *#cellsOf(b: BBox): Generator<number> {
    const c0 = cellOf(b.minLon, b.minLat);
    const c1 = cellOf(b.maxLon, b.maxLat);
    const row0 = Math.floor(c0 / COLS);
    const row1 = Math.floor(c1 / COLS);
    const col0 = c0 % COLS;
    const col1 = c1 % COLS;
    for (let r = row0; r <= row1; r++) for (let c = col0; c <= col1; c++) yield r * COLS + c;
  }
}

const EMPTY: IndexedZone[] = [];
