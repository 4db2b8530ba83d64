import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ShoreIndex } from "../../domain/derived/shore.ts";

/** The land polygons the pages draw (public/geo/PROVENANCE.md): Natural Earth 1:50m, public domain. */
const LAND_FILE = resolve(import.meta.dirname, "../../../public/geo/land-50m.json");

let loaded: ShoreIndex | null = null;

/**
 * The coastline loitering is measured from, read once per process (the file is part of the
 * release, like the gates). A file that does not parse fails the start loudly.
 */
export function loadShore(): ShoreIndex {
  if (loaded) return loaded;
  const file = JSON.parse(readFileSync(LAND_FILE, "utf8")) as { features: { geometry: { type: string; coordinates: [number, number][][] } }[] };
  const rings: [number, number][][] = [];
  for (const f of file.features) if (f.geometry.type === "Polygon") rings.push(...f.geometry.coordinates);
  loaded = new ShoreIndex(rings);
  return loaded;
}
