import { sourced } from "../../domain/rights/sourced.ts";
import type { PortRow } from "../../interfaces/reference.ts";

/** A row's coordinates carry their own source: UN/LOCODE, the World Port Index, or a geocoder. */
export function coordinatesOf(p: PortRow, options: { countRows: boolean; whenWithheld: "omit" | "null" }) {
  if (p.lat === null || p.lon === null || p.coordSource === null) return null;
  return sourced("coordinates", [p.coordSource], { lat: p.lat, lon: p.lon, source: p.coordSource }, { ...options, leaf: true });
}
