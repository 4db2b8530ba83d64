import { z } from "zod";
import { sourced } from "../../domain/rights/sourced.ts";
import { LISTED_NAME_ROLES, listedNames, type ListedNameRole } from "../../domain/sanctions/listed-facts.ts";
import { normalizeName } from "../../domain/vessels/names.ts";
import type { ListedVesselFacts } from "../../interfaces/sanctions.ts";
import type { NameGroup } from "./vessel-names.ts";

/**
 * A sanctions list's facts about a ship on the vessel answer: the names, MMSIs, call sign,
 * flag and type its records give, each a fact of that list (its source id) and dated by the
 * listing. None of these dates is a sighting: `firstSeen`/`lastSeen` stay the registry's and
 * the stations'; a list says when it listed the ship and in which versions it said so.
 */

/** What a list's statement is dated by, on every row that carries one. */
export const LISTING_FIELDS = {
  /** The list's source id (as in `sources`). */
  source: z.string(),
  /** The list's own id of the record. */
  recordId: z.string(),
  /** Whether the record is on the list's latest version. */
  active: z.boolean(),
  /** The list's own designation date (yyyy-mm-dd), or null where it publishes none. */
  listedAt: z.string().nullable(),
  /** The date (as-of) of the first version of the list this service holds with the record. */
  firstInVersionOf: z.string(),
  /** The date of the latest version that carried it: the list's current version while active. */
  lastInVersionOf: z.string(),
  /** The date of the version it left the list in, or the list's own deletion date; null while listed. */
  delistedAt: z.string().nullable(),
};

export const NameListingSchema = z.object({ ...LISTING_FIELDS, as: z.enum(LISTED_NAME_ROLES) });
export const MmsiListingSchema = z.object({ ...LISTING_FIELDS, current: z.boolean() });

/** A name row: dates of sightings (null when only lists give the name) and the lists that give it. */
export const NameRowSchema = z.object({
  name: z.string(),
  firstSeen: z.string().nullable(),
  lastSeen: z.string().nullable(),
  sources: z.array(z.string()),
  listed: z.array(NameListingSchema),
});

export const MmsiRowSchema = z.object({
  mmsi: z.number().int(),
  firstSeen: z.string().nullable(),
  lastSeen: z.string().nullable(),
  sources: z.array(z.string()),
  listed: z.array(MmsiListingSchema),
});

/** What one list record gives as the ship's identity. */
export const ListedIdentitySchema = z.object({ ...LISTING_FIELDS, name: z.string(), callSign: z.string().nullable() });

/** What one list record gives as the ship's particulars. */
export const ListedParticularsSchema = z.object({
  ...LISTING_FIELDS,
  vesselType: z.string().nullable(),
  flag: z.string().nullable(),
  flagIso2: z.string().nullable(),
  formerFlags: z.array(z.string()),
  tonnage: z.number().nullable(),
  grossTonnage: z.number().nullable(),
  yearBuilt: z.number().int().nullable(),
});

type Listing = { source: string; recordId: string; active: boolean; listedAt: string | null; firstInVersionOf: string; lastInVersionOf: string; delistedAt: string | null };

export interface NameRow {
  name: string;
  sources: string[];
  firstSeen: number | null;
  lastSeen: number | null;
  listed: (Listing & { as: ListedNameRole })[];
}

export interface MmsiRow {
  mmsi: number;
  sources: string[];
  firstSeen: number | null;
  lastSeen: number | null;
  listed: (Listing & { current: boolean })[];
}

function listing(f: ListedVesselFacts): Listing {
  return {
    source: f.list,
    recordId: f.recordId,
    active: f.active,
    listedAt: f.listedAt,
    firstInVersionOf: f.firstListedIn,
    lastInVersionOf: f.lastListedIn,
    delistedAt: f.delistedAt,
  };
}

const day = (d: string) => Date.parse(d);

/**
 * Until when a list gives a name, for ordering only (never shown as a date): the name it lists
 * the ship under until its latest version (or its delisting), other and former names until just
 * before the listing. The registry orders a list's links the same way, so the vessel answer and
 * a search hit make a ship's page address from the same name.
 */
function attestedUntil(f: ListedVesselFacts, as: ListedNameRole): number {
  const from = day(f.listedAt ?? f.firstListedIn);
  if (as !== "name") return from - 1;
  return Math.max(from, day(f.active ? f.lastListedIn : (f.delistedAt ?? f.lastListedIn)));
}

/**
 * The sighted names with every name the lists give joined to them (a name a list gives that
 * nobody sighted is a row of its own), newest first: the first row is the ship's name.
 */
export function namesWithListings(groups: readonly NameGroup[], facts: readonly ListedVesselFacts[]): NameRow[] {
  const rows: (NameRow & { until: number })[] = groups.map((g) => ({ name: g.name, sources: [...g.sources], firstSeen: g.firstSeen, lastSeen: g.lastSeen, listed: [], until: g.lastSeen }));
  const byNorm = new Map(rows.map((r) => [normalizeName(r.name), r]));
  for (const f of facts) {
    for (const n of listedNames(f.record)) {
      const key = normalizeName(n.name);
      let row = byNorm.get(key);
      if (!row) {
        row = { name: n.name, sources: [], firstSeen: null, lastSeen: null, listed: [], until: Number.NEGATIVE_INFINITY };
        byNorm.set(key, row);
        rows.push(row);
      }
      if (!row.sources.includes(f.list)) row.sources.push(f.list);
      row.listed.push({ ...listing(f), as: n.as });
      row.until = Math.max(row.until, attestedUntil(f, n.as));
    }
  }
  return rows
    .sort((a, b) => b.until - a.until || a.name.localeCompare(b.name))
    .map(({ until: _, ...r }) => ({ ...r, sources: r.sources.sort() }));
}

/** The sighted MMSIs (newest first) with the MMSIs the lists give joined to them, list-only ones after. */
export function mmsisWithListings(sighted: readonly { mmsi: number; firstSeen: number; lastSeen: number; sources: string[] }[], facts: readonly ListedVesselFacts[]): MmsiRow[] {
  const rows: MmsiRow[] = sighted.map((s) => ({ mmsi: s.mmsi, sources: [...s.sources], firstSeen: s.firstSeen, lastSeen: s.lastSeen, listed: [] }));
  const byMmsi = new Map(rows.map((r) => [r.mmsi, r]));
  for (const f of facts) {
    const current = new Set(f.record.mmsis);
    for (const mmsi of [...f.record.mmsis, ...f.allMmsis.filter((m) => !current.has(m))]) {
      let row = byMmsi.get(mmsi);
      if (!row) {
        row = { mmsi, sources: [], firstSeen: null, lastSeen: null, listed: [] };
        byMmsi.set(mmsi, row);
        rows.push(row);
      }
      if (row.listed.some((l) => l.source === f.list && l.recordId === f.recordId)) continue;
      if (!row.sources.includes(f.list)) row.sources.push(f.list);
      row.listed.push({ ...listing(f), current: current.has(mmsi) });
    }
  }
  for (const r of rows) r.sources.sort();
  return rows;
}

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

/** A name row as the answer gives it, shown only where every source of it may be. */
export function nameRowOut(section: string, r: NameRow) {
  return sourced(section, r.sources, { name: r.name, firstSeen: iso(r.firstSeen), lastSeen: iso(r.lastSeen), sources: r.sources, listed: r.listed }, { countRows: true, leaf: true });
}

export function mmsiRowOut(r: MmsiRow) {
  return sourced("identity.mmsiHistory", r.sources, { mmsi: r.mmsi, firstSeen: iso(r.firstSeen), lastSeen: iso(r.lastSeen), sources: r.sources, listed: r.listed }, { countRows: true, leaf: true });
}

/** Each record's identity facts (listed name, call sign), a fact of its list. */
export function listedIdentity(facts: readonly ListedVesselFacts[]) {
  return facts.map((f) => sourced("identity.listed", [f.list], { ...listing(f), name: f.record.name, callSign: f.record.callSign }, { countRows: true, leaf: true }));
}

/** Each record's particulars (type, flag, tonnage, build year), a fact of its list. */
export function listedParticulars(facts: readonly ListedVesselFacts[]) {
  return facts.map((f) =>
    sourced(
      "particulars.listed",
      [f.list],
      {
        ...listing(f),
        vesselType: f.record.vesselType,
        flag: f.record.flag,
        flagIso2: f.record.flagIso2,
        formerFlags: f.record.formerFlags,
        tonnage: f.record.tonnage,
        grossTonnage: f.record.grossTonnage,
        yearBuilt: f.record.yearBuilt,
      },
      { countRows: true, leaf: true },
    ),
  );
}
