import type { LatLon } from "./unlocode-coordinates.ts";
import { parseUnlocodeCoordinates } from "./unlocode-coordinates.ts";
import { distanceKm } from "../../../domain/geo/distance.ts";
import { namesMatch, namesSimilar } from "./place-names.ts";
import type { Row2024 } from "./unlocode-2024.ts";


/**
 * Whether a 2024 row describes the same place as the 2018-1 entry of its code (UNECE
 * has reused withdrawn codes for other places: see parse-ports.ts). `reference` is the 2018-1 position, else the WPI port's.
 */
export function samePlace(names2018: string[], reference: LatLon | null, row: Row2024): boolean {
  const name = row.asciiBroken || !row.nameAscii ? row.name : row.nameAscii;
  if (names2018.some((n) => namesMatch(n, name))) return true;
  const position = row.coordSource === "unece" ? parseUnlocodeCoordinates(row.unece) : null;
  if (reference && position) return distanceKm(reference, position) <= 100;
  return names2018.some((n) => namesSimilar(n, name));
}

export { distanceKm };
