import { allowFromMatcher } from "../../domain/stations/allow-from.ts";
import type { IngestStation } from "../../interfaces/positions.ts";

const MAX_LISTS = 1_000;
const matchers = new Map<string, (address: string) => boolean>();

/**
 * Whether a station accepts data from this sender address (`--allow-from`; any when it has
 * no list). Matchers are built once per distinct list: the check runs per datagram.
 */
export function stationAllows(station: IngestStation, address: string): boolean {
  if (station.allowFrom === null) return true;
  const key = station.allowFrom.join(",");
  let m = matchers.get(key);
  if (!m) {
    if (matchers.size >= MAX_LISTS) matchers.clear();
    m = allowFromMatcher(station.allowFrom);
    matchers.set(key, m);
  }
  return m(address);
}
