import { join } from "node:path";
import { readCsv } from "./csv-reader.ts";
import { readSource } from "./read-source.ts";

/**
 * IMF PortWatch chokepoints: 28 representative points (an export of the PortWatch
 * ArcGIS layer). Attribution: "IMF PortWatch". See datasets/chokepoints/PROVENANCE.md.
 *
 * These are points only. Counting AIS transits needs a gate line (or polygon) per
 * chokepoint, which this layer does not publish; none is made up here.
 */

const DATASET = "IMF PortWatch chokepoints CSV";

const REQUIRED_COLUMNS = ["portid", "portname", "fullname", "lat", "lon"] as const;

/** Derived from the name's generic term; "other" when it has none of these. */
export type ChokepointKind = "canal" | "strait" | "channel" | "passage" | "cape" | "other";

export type ChokepointRecord = {
  /** PortWatch id, e.g. "chokepoint1". */
  id: string;
  /** e.g. "suez-canal". */
  slug: string;
  name: string;
  fullName: string;
  lat: number;
  lon: number;
  kind: ChokepointKind;
};

const KIND_WORDS: [RegExp, ChokepointKind][] = [
  [/\bcanal\b/i, "canal"],
  [/\b(strait|straits|bosporus|bosphorus|dardanelles)\b/i, "strait"],
  [/\bchannel\b/i, "channel"],
  [/\bpassage\b/i, "passage"],
  [/\bcape\b/i, "cape"],
];

export function chokepointKind(name: string): ChokepointKind {
  for (const [pattern, kind] of KIND_WORDS) if (pattern.test(name)) return kind;
  return "other";
}

function slugify(value: string): string {
  return value
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

function fail(problem: string): never {
  throw new Error(`${DATASET}: ${problem}`);
}

/**
 * Parses the PortWatch chokepoints CSV. Every row must have an id of the form
 * `chokepointN`, a name and a valid position; otherwise this throws naming the row,
 * since 28 curated rows with a defect mean the export changed.
 */
export function parseChokepoints(bytes: Buffer): ChokepointRecord[] {
  const { rows, column } = readCsv(bytes, { label: DATASET, columns: REQUIRED_COLUMNS });
  const seen = new Set<string>();
  const slugs = new Set<string>();
  return rows.map((row, i) => {
    const field = (name: (typeof REQUIRED_COLUMNS)[number]): string => (row[column[name]] ?? "").trim();
    const id = field("portid");
    const where = `data row ${i + 1} (portid ${JSON.stringify(id)})`;
    if (!/^chokepoint\d+$/.test(id)) fail(`${where}: portid is not of the form chokepointN`);
    if (seen.has(id)) fail(`${where}: portid occurs twice`);
    seen.add(id);
    const name = field("portname").replace(/\s+/g, " ");
    if (name === "") fail(`${where}: portname is blank`);
    const slug = slugify(name);
    if (slug === "" || slugs.has(slug)) fail(`${where}: name ${JSON.stringify(name)} gives an empty or repeated slug`);
    slugs.add(slug);
    const lat = Number(field("lat"));
    const lon = Number(field("lon"));
    if (field("lat") === "" || field("lon") === "" || !(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) {
      fail(`${where}: no valid position (lat ${field("lat")}, lon ${field("lon")})`);
    }
    return {
      id,
      slug,
      name,
      fullName: field("fullname").replace(/\s+/g, " ") || name,
      lat,
      lon,
      kind: chokepointKind(name),
    };
  });
}

export const BUNDLED_CHOKEPOINTS_FILE = join("chokepoints", "portwatch_chokepoints_database.csv");

/** Reads and parses the PortWatch file bundled under `<datasetsDir>/chokepoints/`. */
export async function loadBundledChokepoints(datasetsDir: string): Promise<ChokepointRecord[]> {
  return parseChokepoints(await readSource(join(datasetsDir, BUNDLED_CHOKEPOINTS_FILE)));
}
