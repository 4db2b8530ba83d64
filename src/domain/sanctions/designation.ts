/**
 * One vessel designation on one official sanctions list, normalised across the
 * five lists we ingest. Only ships are modelled: persons, companies and the
 * IMO-like numbers companies carry never become designations.
 */
import { z } from "zod";
import { isValidImo, parseMmsi } from "../identifiers.ts";
import { flagToIso2 } from "./flags.ts";
import { celexToAct, deriveMeasures, MeasureSchema, readMeasures } from "./measures.ts";

export const SANCTIONS_LISTS = ["ofac", "uk", "eu", "canada", "new-zealand"] as const;
export type SanctionsListKey = (typeof SANCTIONS_LISTS)[number];

export const SANCTIONS_LIST_NAMES: Record<SanctionsListKey, string> = {
  ofac: "OFAC Specially Designated Nationals and Blocked Persons List (SDN)",
  uk: "UK Sanctions List (FCDO)",
  eu: "EU restrictive measures (Council Regulations 833/2014 Annex XLII, 2017/1509 vessel annexes, consolidated financial sanctions list)",
  canada: "Consolidated Canadian Autonomous Sanctions List (SEMA/JVCFOA)",
  "new-zealand": "New Zealand Russia Sanctions Register (MFAT), Ships",
};

/**
 * The list a designation is on, as designations name it (`ofac_sdn`, spec 2.7). The family
 * keys above name where the service reads them from (the path of /sanctions/{list}, the
 * `lists=` filter of screening, the rights' source ids); a family can publish several lists.
 */
export const SANCTIONS_LIST_IDS: Record<Exclude<SanctionsListKey, "eu">, string> = {
  ofac: "ofac_sdn",
  uk: "uk_sanctions_list",
  canada: "canada_sema",
  "new-zealand": "nz_russia_sanctions_register",
};

/** The EU consolidated financial sanctions list, for the few ships it holds. */
export const EU_FSF_LIST_ID = "eu_fsf";

/**
 * The list one designation is on, and that list's name. The EU's vessel lists are the annexes
 * of its regulations: an annex entry (record id `<CELEX>/<annex>/<entry>`) is on
 * `eu_<celex>_annex_<annex>` (lower case, dots as underscores), e.g. `eu_32014r0833_annex_xlii`
 * "Regulation (EU) No 833/2014, Annex XLII"; an FSF entry (`FSF/...`) on `eu_fsf`.
 */
export function designationList(d: { list: SanctionsListKey; recordId: string }): { list: string; listName: string } {
  if (d.list !== "eu") return { list: SANCTIONS_LIST_IDS[d.list], listName: SANCTIONS_LIST_NAMES[d.list] };
  if (d.recordId.startsWith("FSF/")) return { list: EU_FSF_LIST_ID, listName: "EU Consolidated Financial Sanctions List (FSF)" };
  const [celex = "", annex = ""] = d.recordId.split("/");
  if (!/^3\d{4}[RLD]\d{4}$/.test(celex)) return { list: "eu", listName: SANCTIONS_LIST_NAMES.eu };
  const id = ["eu", celex, ...(annex ? ["annex", annex] : [])].join("_").toLowerCase().replace(/[^a-z0-9_]+/g, "_");
  return { list: id, listName: annex ? `${celexToAct(celex)}, Annex ${annex}` : celexToAct(celex) };
}

export function isSanctionsListKey(value: string): value is SanctionsListKey {
  return (SANCTIONS_LISTS as readonly string[]).includes(value);
}

/** An identifier the list publishes that is neither a valid IMO nor an MMSI (UN reference, registry number...). */
export const ExternalIdSchema = z.object({ type: z.string(), value: z.string() });
export type ExternalId = z.infer<typeof ExternalIdSchema>;

/** One record of a sanctions list as parsed: the one declaration of a designation. */
export const DesignationSchema = z.object({
  list: z.enum(SANCTIONS_LISTS),
  listName: z.string(),
  /** Programmes/regimes joined for display; null when the publication gives none. */
  program: z.string().nullable(),
  /** Programme tags or regime names as published, one per entry (OFAC tags, UK regime...). */
  programs: z.array(z.string()),
  /** The list's own record id, stable across versions of the list; the key of diffs. */
  recordId: z.string(),
  /** Name as published (for some lists the name at designation time). */
  name: z.string(),
  /** Other current names (a.k.a.). */
  aliases: z.array(z.string()),
  /** Former names (f.k.a., "formerly", "ex"). */
  formerNames: z.array(z.string()),
  /** Checksum-valid IMO numbers. A ship can carry several (UK, EU name reuse). */
  imos: z.array(z.number().int()),
  /**
   * Values published as the ship's IMO that fail the check digit or are not 7 digits,
   * kept verbatim: the list is the authority, so they may only ever be matched exactly.
   */
  invalidImos: z.array(z.string()),
  mmsis: z.array(z.number().int()),
  callSign: z.string().nullable(),
  /** Current flag as published. */
  flag: z.string().nullable(),
  /** ISO 3166-1 alpha-2 of the flag when the published text names a known country. */
  flagIso2: z.string().nullable(),
  formerFlags: z.array(z.string()),
  vesselType: z.string().nullable(),
  /** Tonnage as published in the list's tonnage field (OFAC "Tonnage", UK "Tonnage of ship"). */
  tonnage: z.number().nullable(),
  /** Gross registered tonnage where published separately (OFAC "GRT"). */
  grossTonnage: z.number().nullable(),
  yearBuilt: z.number().int().nullable(),
  /** Current owners, operators or controlling parties (OFAC "Linked To", UK owner/operator). */
  owners: z.array(z.string()),
  previousOwners: z.array(z.string()),
  /**
   * Measures imposed, each with its legal basis (UK "Sanctions Imposed", EU measure, NZ ban
   * flags, OFAC blocking and remarks): see measures.ts. Stored records from before measures
   * were objects hold plain texts; readStoredDesignation upgrades them.
   */
  measures: z.array(MeasureSchema),
  /** Grounds or statement of reasons. */
  reason: z.string().nullable(),
  /** Other published information that does not fit a field above. */
  remarks: z.string().nullable(),
  externalIds: z.array(ExternalIdSchema),
  /** Date of designation/listing (ISO yyyy-mm-dd), or null when the publication has none (OFAC CSV). */
  listedAt: z.string().nullable(),
  /** Which field of the publication listedAt came from; lists disagree on what "listed" means. */
  listedAtField: z.string().nullable(),
  /** The list's own "last updated" date for the record, where given. */
  updatedAt: z.string().nullable(),
  /** "deleted" only for lists that keep de-listed records in the file (New Zealand). */
  status: z.enum(["active", "deleted"]),
  deletedAt: z.string().nullable(),
  deletionReason: z.string().nullable(),
  /** Link to the record, or to the publication when the list has no per-record page. */
  sourceUrl: z.string(),
});

export type Designation = z.infer<typeof DesignationSchema>;

/** A parse failure of an official publication, naming the list and what was wrong. */
export class SanctionsParseError extends Error {
  readonly list: SanctionsListKey;

  constructor(list: SanctionsListKey, message: string, options?: { cause?: unknown }) {
    super(`${list} sanctions list: ${message}`, options);
    this.name = "SanctionsParseError";
    this.list = list;
  }
}

export type DesignationInput = Partial<Omit<Designation, "list" | "listName" | "recordId" | "name" | "sourceUrl" | "measures">> & {
  /** The measure texts the publication gives, in its own words; makeDesignation derives the measures from them. */
  measures?: readonly string[];
  list: SanctionsListKey;
  recordId: string;
  name: string;
  sourceUrl: string;
  /** Raw values published as IMO numbers; split into imos/invalidImos. */
  imoValues?: readonly string[];
  /** Raw values published as MMSIs; values that are not 9 digits are dropped. */
  mmsiValues?: readonly string[];
};

/**
 * Builds a designation with every field present, trimmed and de-duplicated, so
 * two parses of equal content compare equal field by field in diffs.
 */
export function makeDesignation(input: DesignationInput): Designation {
  const { imoValues, mmsiValues, ...fields } = input;
  const imos = new Set<number>(fields.imos ?? []);
  const invalidImos = new Set<string>(fields.invalidImos ?? []);
  for (const raw of imoValues ?? []) {
    const parsed = splitImoValue(raw);
    for (const imo of parsed.imos) imos.add(imo);
    for (const bad of parsed.invalid) invalidImos.add(bad);
  }
  const mmsis = new Set<number>(fields.mmsis ?? []);
  for (const raw of mmsiValues ?? []) {
    const mmsi = parseMmsi(raw.replace(/\s+/g, ""));
    if (mmsi !== null) mmsis.add(mmsi);
  }
  const name = clean(fields.name) ?? "";
  const programs = uniqueStrings(fields.programs ?? []);
  const flag = clean(fields.flag);
  const aliases = uniqueStrings(fields.aliases ?? []).filter((a) => a.toLowerCase() !== name.toLowerCase());
  const formerNames = uniqueStrings(fields.formerNames ?? []).filter((a) => a.toLowerCase() !== name.toLowerCase());
  const recordId = fields.recordId.trim();
  return {
    list: fields.list,
    listName: SANCTIONS_LIST_NAMES[fields.list],
    program: fields.program !== undefined ? clean(fields.program) : programs.length > 0 ? programs.join("; ") : null,
    programs,
    recordId,
    name,
    aliases,
    formerNames,
    imos: [...imos],
    invalidImos: [...invalidImos],
    mmsis: [...mmsis],
    callSign: clean(fields.callSign),
    flag,
    flagIso2: fields.flagIso2 ?? flagToIso2(flag),
    formerFlags: uniqueStrings(fields.formerFlags ?? []),
    vesselType: clean(fields.vesselType),
    tonnage: fields.tonnage ?? null,
    grossTonnage: fields.grossTonnage ?? null,
    yearBuilt: fields.yearBuilt ?? null,
    owners: uniqueStrings(fields.owners ?? []),
    previousOwners: uniqueStrings(fields.previousOwners ?? []),
    measures: deriveMeasures({ list: fields.list, recordId, programs }, uniqueStrings(fields.measures ?? [])),
    reason: clean(fields.reason),
    remarks: clean(fields.remarks),
    externalIds: uniqueExternalIds(fields.externalIds ?? []),
    listedAt: fields.listedAt ?? null,
    listedAtField: fields.listedAt ? (fields.listedAtField ?? null) : null,
    updatedAt: fields.updatedAt ?? null,
    status: fields.status ?? "active",
    deletedAt: fields.deletedAt ?? null,
    deletionReason: clean(fields.deletionReason),
    sourceUrl: fields.sourceUrl,
  };
}

/**
 * A designation as stored (the JSON of its latest record). Records stored before measures
 * were objects carry their measure texts; they are derived as an import derives them, so the
 * record reads, and diffs, as a fresh import of the same publication would.
 */
export function readStoredDesignation(json: string): Designation {
  const raw = JSON.parse(json) as Designation;
  return { ...raw, measures: readMeasures(raw, raw.measures as unknown) };
}

/**
 * Splits one published "IMO" value into valid IMO numbers and rejected raw tokens.
 * Accepts "IMO 9187629", "IMO9562233", "9562233", "IMO  8730455 (Russia)" and
 * several numbers in one cell.
 */
export function splitImoValue(raw: string): { imos: number[]; invalid: string[] } {
  const imos: number[] = [];
  const invalid: string[] = [];
  const text = raw.replace(/\u00a0/g, " ").trim();
  if (text === "") return { imos, invalid };
  // Text without any digit ("Does not exist" in the EU DPRK annex, Persian names in
  // Canada's IMO element) says there is no number; it is not an invalid IMO.
  const runs = text.match(/\d+/g) ?? [];
  for (const run of runs) {
    if (run.length === 7 && isValidImo(run)) imos.push(Number(run));
    else invalid.push(run);
  }
  return { imos, invalid };
}

/** Trims, folds inner whitespace and NBSP, and maps empty strings to null. */
export function clean(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const s = String(value).replace(/[\u00a0\s]+/g, " ").trim();
  return s === "" ? null : s;
}

export function uniqueStrings(values: readonly (string | null | undefined)[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const v of values) {
    const s = clean(v);
    if (s === null) continue;
    const key = s.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(s);
  }
  return out;
}

function uniqueExternalIds(ids: readonly ExternalId[]): ExternalId[] {
  const seen = new Set<string>();
  const out: ExternalId[] = [];
  for (const id of ids) {
    const value = clean(id.value);
    const type = clean(id.type);
    if (value === null || type === null) continue;
    const key = `${type}\u0000${value}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ type, value });
  }
  return out;
}

/** Parses a tonnage as published ("99,144", "7078", "7,078 GT"); null when there is no number. */
export function parseTonnage(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isFinite(value) && value > 0 ? value : null;
  const m = /\d[\d,.\s]*/.exec(value);
  if (!m) return null;
  const digits = m[0].replace(/[,\s]/g, "").replace(/\.(?=\d{3}\b)/g, "");
  const n = Number(digits);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** A plausible build year (OFAC "Vessel Year of Build 1999", Canada "1980" or an ISO date). */
export function parseYear(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const m = /\b(1[89]\d\d|20\d\d)\b/.exec(String(value));
  return m ? Number(m[1]) : null;
}

/** A valid calendar date as ISO yyyy-mm-dd, or null. */
export function isoDate(year: number, month: number, day: number): string | null {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null;
  if (year < 1900 || year > 2999 || month < 1 || month > 12 || day < 1) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return null;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/**
 * Day-first dates as the UK (03/10/2017) and the EU (25.6.2024) write them, and
 * ISO dates (Canada). Ambiguity is resolved day-first because none of these lists
 * writes month-first.
 */
export function parseDayFirstDate(value: string | null | undefined): string | null {
  const s = clean(value);
  if (s === null) return null;
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(s);
  if (m) return isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/.exec(s);
  if (m) return isoDate(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /^(\d{1,2})[\s-]([A-Za-z]{3,9})[\s-](\d{4})$/.exec(s);
  if (m) {
    const month = MONTHS.indexOf(m[2]!.slice(0, 3).toLowerCase()) + 1;
    return month > 0 ? isoDate(Number(m[3]), month, Number(m[1])) : null;
  }
  return null;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/**
 * An Excel serial day number (1900 date system) as an ISO date. Serial 60 is
 * Excel's fictitious 29 Feb 1900, which is why the epoch is 1899-12-30.
 */
export function excelSerialToIsoDate(serial: number): string | null {
  if (!Number.isFinite(serial) || serial < 61 || serial > 2958465) return null;
  const ms = Date.UTC(1899, 11, 30) + Math.floor(serial) * 86_400_000;
  return new Date(ms).toISOString().slice(0, 10);
}
