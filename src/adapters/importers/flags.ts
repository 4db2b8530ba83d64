/**
 * Flags: one record per ISO 3166-1 country or territory, with the ITU Maritime
 * Identification Digits (MIDs) that identify its ship stations and the ITF
 * flag-of-convenience history. datasets/flags/README.md describes the sources.
 *
 * MID rules:
 * - The ITU table (2023) is the authority on which MIDs exist; mid_to_iso3166
 *   (2021) only supplies the ISO code for the ITU's administration names.
 * - An ITU row naming a territory ("Denmark - Faroe Islands",
 *   "Netherlands (Kingdom of the) - Sint Maarten (Dutch part)") goes to that
 *   territory's ISO code when the name identifies one. That is how MID 306,
 *   which ITU lists three times, reaches BQ, CW and SX, where the mapping only
 *   knew "Antilles" -> CW.
 * - Otherwise the mapping decides, and subdivision MIDs map to their country:
 *   204 Azores and 255 Madeira to PT, 303 Alaska to US, Adelie Land and the
 *   French southern islands to FR, 608 Ascension to GB (the subdivision is kept
 *   on the allocation).
 * - MIDs in ITU but missing from the mapping (334 Honduras, 471 United Arab
 *   Emirates, 550 Timor-Leste) are resolved from the ITU name.
 * - MIDs only in the mapping (335 "Honduras") are not ITU allocations and are
 *   left out: a 335 MMSI is not a Honduran station, whatever old tables said.
 */
import { join } from "node:path";
import { readCsv } from "./csv-reader.ts";
import { readSource } from "./read-source.ts";

export type MidAllocation = {
  mid: number;
  /** ITU administration name, e.g. "Portugal - Azores". */
  allocatedTo: string;
  /** The part of the country the MID is for, when the mapping names one (e.g. "PT-20"). */
  subdivision: string | null;
  subdivisionName: string | null;
  /**
   * "mapping" when mid_to_iso3166 gives this country; "itu-name" when only the ITU
   * administration name does (the mapping lacks the MID or, for 306, names another part).
   */
  basis: "itu-name" | "mapping";
};

export type FlagOfConvenienceEvent = {
  event: "listed" | "added" | "removed";
  /** ISO date, or null where the source gave none (the file is in chronological order). */
  date: string | null;
  /** The register as the ITF names it, e.g. "German International Ship Register (GIS)". */
  registry: string;
  sourceUrl: string;
  note: string | null;
};

export type FlagOfConvenience = {
  /** The flag as a whole is on the reconstructed list after the last event. */
  listed: boolean;
  /**
   * Registers of this flag on the reconstructed list after the last event. For a
   * second register (FR: FIS, DE: GIS, FO: FAS, TZ: Zanzibar) the register is
   * listed while `listed` stays false: most ships under that flag are not on it.
   */
  registers: string[];
  events: FlagOfConvenienceEvent[];
  /** Always present: the list is a reconstruction, not the ITF's own data. */
  note: string;
};

export type FlagRecord = {
  iso2: string;
  iso3: string;
  /** ISO 3166-1 numeric, three digits ("004"). */
  numeric: string;
  /** English short name (ISO/UN), e.g. "Netherlands", "Republic of Korea". */
  name: string;
  /** CLDR display name, e.g. "South Korea", "UK". */
  commonName: string;
  /** UN formal name without the article ("Kingdom of the Netherlands"), else the short name. */
  officialName: string;
  region: string | null;
  subRegion: string | null;
  intermediateRegion: string | null;
  independent: boolean;
  /** For dependent territories, e.g. "Part of NL", "Territory of GB"; null for independent states. */
  sovereignty: string | null;
  /** ITU country code (e.g. "HOL"), from the ISO table. */
  ituCode: string | null;
  mids: number[];
  /** Distinct ITU administration names of those MIDs. */
  midAllocatedTo: string[];
  midAllocations: MidAllocation[];
  flagOfConvenience: FlagOfConvenience;
};

export type FlagsInput = {
  /** datasets/country-codes "country-codes.csv". */
  iso3166: Buffer;
  /** ITU MID table: MID, Allocated_to. */
  ituMids: Buffer;
  /** MID to ISO 3166: mid, iso3166_alpha2, iso3166_alpha3, iso3166_2_subdivision, name. */
  midToIso: Buffer;
  /** ITF flag-of-convenience events: registry, iso3166_alpha2, event, event_date, source_url, note. */
  focEvents?: Buffer;
};

export const BUNDLED_FLAG_FILES = {
  iso3166: "flags/iso3166_country-codes.csv",
  ituMids: "flags/itu_mid_table.csv",
  midToIso: "flags/mid_to_iso3166.csv",
  focEvents: "flags/itf_foc_list_events.csv",
} as const;

export const FLAG_OF_CONVENIENCE_NOTE =
  "Reconstructed by hand from press coverage of the ITF flags-of-convenience list " +
  "(2013 snapshot, 2021 additions, later undated changes). NOT authoritative and known to be " +
  "incomplete: at least three additions are missing. Check " +
  "https://www.itfglobal.org/en/sector/seafarers/flags-of-convenience before relying on it.";

// ITF names for listed *second* registers: the parenthesis names the register,
// not a sovereign ("Bermuda (UK)" is the whole Bermudan flag).
const SECOND_REGISTER = /\((FIS|GIS|FAS|Zanzibar)\)\s*$/;

export async function loadBundledFlags(datasetsDir: string): Promise<FlagRecord[]> {
  const [iso3166, ituMids, midToIso, focEvents] = await Promise.all([
    readSource(join(datasetsDir, BUNDLED_FLAG_FILES.iso3166)),
    readSource(join(datasetsDir, BUNDLED_FLAG_FILES.ituMids)),
    readSource(join(datasetsDir, BUNDLED_FLAG_FILES.midToIso)),
    readSource(join(datasetsDir, BUNDLED_FLAG_FILES.focEvents)),
  ]);
  return parseFlags({ iso3166, ituMids, midToIso, focEvents });
}

export function parseFlags(input: FlagsInput): FlagRecord[] {
  const { records, names } = readIso(input.iso3166);
  const byIso2 = new Map(records.map((r) => [r.iso2, r]));
  const mapping = readMapping(input.midToIso, byIso2);
  const itu = readItu(input.ituMids);

  const unresolved: string[] = [];
  for (const { mid, allocatedTo } of itu) {
    const mapped = mapping.get(mid);
    const territory = allocatedTo.includes(" - ") ? allocatedTo.slice(allocatedTo.indexOf(" - ") + 3) : null;
    const iso2 = (territory ? resolveName(names, territory) : null) ?? mapped?.iso2 ?? resolveName(names, allocatedTo);
    const basis: MidAllocation["basis"] = mapped && mapped.iso2 === iso2 ? "mapping" : "itu-name";
    const record = iso2 ? byIso2.get(iso2) : undefined;
    if (!record) {
      unresolved.push(`${mid} "${allocatedTo}"`);
      continue;
    }
    const sub = basis === "mapping" && mapped?.subdivision ? mapped : null;
    record.midAllocations.push({
      mid,
      allocatedTo,
      subdivision: sub?.subdivision ?? null,
      subdivisionName: sub?.name ?? null,
      basis,
    });
  }
  if (unresolved.length > 0) {
    throw new Error(`ITU MID table: no ISO 3166 country found for ${unresolved.join(", ")}; extend mid_to_iso3166.csv`);
  }

  const focByIso2 = input.focEvents === undefined ? new Map<string, FlagOfConvenienceEvent[]>() : readFoc(input.focEvents);
  for (const record of records) {
    record.midAllocations.sort((a, b) => a.mid - b.mid);
    record.mids = [...new Set(record.midAllocations.map((a) => a.mid))];
    record.midAllocatedTo = [...new Set(record.midAllocations.map((a) => a.allocatedTo))];
    record.flagOfConvenience = foldFoc(focByIso2.get(record.iso2) ?? []);
  }
  return records;
}

// ---------------------------------------------------------------- ISO 3166

const ISO_COLUMNS = [
  "ISO3166-1-Alpha-2",
  "ISO3166-1-Alpha-3",
  "ISO3166-1-numeric",
  "official_name_en",
  "CLDR display name",
  "UNTERM English Formal",
  "Region Name",
  "Sub-region Name",
  "Intermediate Region Name",
  "is_independent",
  "ITU",
] as const;

function readIso(bytes: Buffer): { records: FlagRecord[]; names: Map<string, string> } {
  const label = "ISO 3166 country codes";
  const { rows, column: col } = readCsv(bytes, { label, columns: ISO_COLUMNS, relaxColumnCount: true });
  const records: FlagRecord[] = [];
  // Every English name the table gives a code, normalised, to resolve ITU administration names.
  const names = new Map<string, string>();
  for (const r of rows) {
    const iso2 = get(r, col["ISO3166-1-Alpha-2"]);
    const iso3 = get(r, col["ISO3166-1-Alpha-3"]);
    const numeric = get(r, col["ISO3166-1-numeric"]);
    if (!/^[A-Z]{2}$/.test(iso2) || !/^[A-Z]{3}$/.test(iso3) || !/^\d{1,3}$/.test(numeric)) continue;
    const name = get(r, col.official_name_en);
    const formal = get(r, col["UNTERM English Formal"])
      .replace(/^the\s+/i, "")
      .replace(/\s*\*$/, ""); // UNTERM marks non-member states with " *"
    const independence = get(r, col.is_independent);
    for (const n of [name, get(r, col["CLDR display name"]), formal]) {
      for (const key of [normalise(n), normalise(withoutParentheses(n))]) {
        if (key && !names.has(key)) names.set(key, iso2);
      }
    }
    records.push({
      iso2,
      iso3,
      numeric: numeric.padStart(3, "0"),
      name,
      commonName: get(r, col["CLDR display name"]) || name,
      officialName: formal || name,
      region: get(r, col["Region Name"]) || null,
      subRegion: get(r, col["Sub-region Name"]) || null,
      intermediateRegion: get(r, col["Intermediate Region Name"]) || null,
      independent: independence === "Yes",
      sovereignty: independence === "Yes" || independence === "" ? null : independence,
      ituCode: get(r, col.ITU) || null,
      mids: [],
      midAllocatedTo: [],
      midAllocations: [],
      flagOfConvenience: foldFoc([]),
    });
  }
  if (records.length < 200) {
    throw new Error(`${label}: only ${records.length} valid country rows; expected about 249 (wrong or truncated file?)`);
  }
  return { records, names };
}

function resolveName(index: Map<string, string>, name: string): string | null {
  return index.get(normalise(name)) ?? index.get(normalise(withoutParentheses(name))) ?? null;
}

function withoutParentheses(name: string): string {
  return name.replace(/\([^)]*\)/g, " ");
}

function normalise(name: string): string {
  return name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/\*/g, " ")
    .replace(/^\s*the\s+/, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

// ---------------------------------------------------------------- MIDs

function readItu(bytes: Buffer): Array<{ mid: number; allocatedTo: string }> {
  const label = "ITU MID table";
  const { rows, column: col } = readCsv(bytes, { label, columns: ["MID", "Allocated_to"], relaxColumnCount: true });
  const out: Array<{ mid: number; allocatedTo: string }> = [];
  for (const r of rows) {
    const mid = parseMid(get(r, col.MID));
    const allocatedTo = get(r, col.Allocated_to);
    if (mid !== null && allocatedTo) out.push({ mid, allocatedTo });
  }
  if (out.length === 0) throw new Error(`${label}: no MID rows (MIDs are 201-775)`);
  return out;
}

type Mapped = { iso2: string; subdivision: string | null; name: string | null };

function readMapping(bytes: Buffer, countries: Map<string, FlagRecord>): Map<number, Mapped> {
  const label = "MID to ISO 3166 mapping";
  const columns = ["mid", "iso3166_alpha2", "iso3166_2_subdivision", "name"] as const;
  const { rows, column: col } = readCsv(bytes, { label, columns, relaxColumnCount: true });
  const out = new Map<number, Mapped>();
  for (const r of rows) {
    const mid = parseMid(get(r, col.mid));
    const iso2 = get(r, col.iso3166_alpha2);
    if (mid === null || !countries.has(iso2)) continue;
    out.set(mid, { iso2, subdivision: get(r, col.iso3166_2_subdivision) || null, name: get(r, col.name) || null });
  }
  if (out.size === 0) throw new Error(`${label}: no MID with a known ISO 3166 code`);
  return out;
}

// MIDs are three digits whose first is 2-7 (ITU-R M.585).
function parseMid(value: string): number | null {
  return /^[2-7]\d{2}$/.test(value) ? Number(value) : null;
}

// ---------------------------------------------------------------- flags of convenience

function readFoc(bytes: Buffer): Map<string, FlagOfConvenienceEvent[]> {
  const label = "ITF flag-of-convenience events";
  const columns = ["registry", "iso3166_alpha2", "event", "event_date", "source_url", "note"] as const;
  const { rows, column: col } = readCsv(bytes, { label, columns, relaxColumnCount: true });
  const out = new Map<string, FlagOfConvenienceEvent[]>();
  for (const r of rows) {
    const event = get(r, col.event);
    if (event !== "listed" && event !== "added" && event !== "removed") {
      throw new Error(`${label}: unknown event "${event}" (expected listed, added or removed)`);
    }
    const date = get(r, col.event_date);
    if (date && !/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`${label}: bad date "${date}"`);
    const iso2 = get(r, col.iso3166_alpha2);
    const list = out.get(iso2) ?? [];
    list.push({
      event,
      date: date || null,
      registry: get(r, col.registry),
      sourceUrl: get(r, col.source_url),
      note: get(r, col.note) || null,
    });
    out.set(iso2, list);
  }
  if (out.size === 0) throw new Error(`${label}: no events`);
  return out;
}

/** Replays the events in file order (the file is chronological; undated events come last). */
function foldFoc(events: FlagOfConvenienceEvent[]): FlagOfConvenience {
  const current = new Set<string>();
  for (const e of events) {
    // "Tonga removed" must cancel "Tonga listed" even if the ITF spelled the name
    // differently, so removal clears the whole flag's registers of that kind.
    const second = SECOND_REGISTER.test(e.registry);
    if (e.event === "removed") {
      for (const r of [...current]) if (SECOND_REGISTER.test(r) === second) current.delete(r);
    } else {
      current.add(e.registry);
    }
  }
  const registers = [...current];
  return {
    listed: registers.some((r) => !SECOND_REGISTER.test(r)),
    registers,
    events,
    note: FLAG_OF_CONVENIENCE_NOTE,
  };
}

// ---------------------------------------------------------------- cells

// The ISO table pads some names with no-break spaces.
function get(row: string[], index: number): string {
  return (row[index] ?? "").replace(/\u00a0/g, " ").trim();
}
