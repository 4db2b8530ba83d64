/**
 * Natural Earth 1:10m ports (public domain): 1,081 named points without a UN/LOCODE or a
 * country. They place ports that UN/LOCODE and the World Port Index leave without
 * coordinates (or with only geocoded ones), and only when the match is unambiguous:
 *
 * - the names are the same after normalisation (one of Natural Earth's "/" parts, and
 *   the port's name without words such as "Pt");
 * - same country: the port with trusted coordinates nearest to the point lies in the
 *   port's country, within 150 km (Natural Earth carries no country of its own);
 * - distance: when the port has a geocoded position, the point is within 50 km of it;
 * - exactly one point passes.
 */
import { stripDiacritics } from "./place-names.ts";
import type { PortRecord } from "./port-record.ts";
import { distanceKm } from "./same-place.ts";
import { type LatLon, validLatLon } from "./unlocode-coordinates.ts";

export type NaturalEarthPort = LatLon & { name: string; keys: string[] };

const GENERIC_WORDS = new Set(["pt", "port", "harbour", "harbor", "terminal", "city"]);
const SAME_COUNTRY_KM = 150;
const NEAR_GEOCODED_KM = 50;

function key(name: string): string {
  return stripDiacritics(name)
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "" && !GENERIC_WORDS.has(w))
    .join(" ");
}

export function readNaturalEarthPorts(bytes: Buffer): NaturalEarthPort[] {
  const label = "Natural Earth ports GeoJSON";
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString("utf8"));
  } catch (e) {
    throw new Error(`${label}: not JSON (${(e as Error).message})`);
  }
  const features = (doc as { features?: unknown }).features;
  if (!Array.isArray(features)) throw new Error(`${label}: no "features" array`);
  const out: NaturalEarthPort[] = [];
  for (const f of features as { properties?: { name?: unknown }; geometry?: { type?: unknown; coordinates?: unknown } }[]) {
    const name = f.properties?.name;
    const c = f.geometry?.coordinates;
    if (typeof name !== "string" || f.geometry?.type !== "Point" || !Array.isArray(c)) continue;
    const at = validLatLon(Number(c[1]), Number(c[0]));
    if (!at) continue;
    out.push({ ...at, name, keys: name.split("/").map(key).filter(Boolean) });
  }
  if (out.length === 0) throw new Error(`${label}: no named Point features`);
  return out;
}

/** Sets `natural_earth` coordinates on ports that have none or only geocoded ones; returns how many. */
export function placeWithNaturalEarth(records: PortRecord[], points: NaturalEarthPort[]): number {
  const trusted = records.filter((r) => r.lat !== null && r.lon !== null && (r.coordSource === "unlocode" || r.coordSource === "wpi"));
  const countryCache = new Map<NaturalEarthPort, string | null>();
  const countryOf = (p: NaturalEarthPort): string | null => {
    if (!countryCache.has(p)) {
      let best: { country: string; km: number } | null = null;
      for (const r of trusted) {
        const km = distanceKm(p, { lat: r.lat!, lon: r.lon! });
        if (!best || km < best.km) best = { country: r.country, km };
      }
      countryCache.set(p, best && best.km <= SAME_COUNTRY_KM ? best.country : null);
    }
    return countryCache.get(p) ?? null;
  };
  const byKey = new Map<string, NaturalEarthPort[]>();
  for (const p of points) for (const k of p.keys) byKey.set(k, [...(byKey.get(k) ?? []), p]);

  let placed = 0;
  for (const r of records) {
    if (r.coordSource !== null && r.coordSource !== "geoapify") continue;
    const keys = new Set([r.name, r.nameAscii, ...r.alternateNames].map(key).filter(Boolean));
    const candidates = new Set([...keys].flatMap((k) => byKey.get(k) ?? []));
    const geocoded = r.coordSource === "geoapify" && r.lat !== null && r.lon !== null ? { lat: r.lat, lon: r.lon } : null;
    const fits = [...candidates].filter((p) => countryOf(p) === r.country && (!geocoded || distanceKm(p, geocoded) <= NEAR_GEOCODED_KM));
    if (fits.length !== 1) continue;
    const p = fits[0]!;
    if (geocoded) r.notes.push(`coordinates from Natural Earth ("${p.name}") in place of the geocoded ones`);
    r.lat = Math.round(p.lat * 1e6) / 1e6;
    r.lon = Math.round(p.lon * 1e6) / 1e6;
    r.coordSource = "natural_earth";
    r.coordEdition = null;
    placed++;
  }
  return placed;
}
