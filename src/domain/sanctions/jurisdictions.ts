/**
 * Comprehensively sanctioned jurisdictions (config/sanctioned-jurisdictions.json): whole
 * countries by ISO code and regions by their UN/LOCODEs, each with the dates its program was
 * in force and the basis it rests on. A port call is in one when its port's code is, and it
 * arrived while the program was in force. Pure: the table is passed in.
 */
import { z } from "zod";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a date yyyy-mm-dd");

const JurisdictionSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  /** ISO 3166 alpha-2 codes: every UN/LOCODE starting with one is in the jurisdiction. */
  countries: z.array(z.string().regex(/^[A-Z]{2}$/)),
  /** Single UN/LOCODEs of a region that a country code cannot tell apart. */
  codes: z.array(z.string().regex(/^[A-Z]{2}[A-Z2-9]{3}$/)).default([]),
  /** The first day the program was in force (UTC). */
  from: day,
  /** The first day it no longer was; null while it is. */
  until: day.nullable(),
  basis: z.string().min(1),
});

export const SanctionedJurisdictionsSchema = z.object({
  version: z.string(),
  jurisdictions: z.array(JurisdictionSchema).min(1),
  notTold: z.string(),
});

export type SanctionedJurisdictions = z.infer<typeof SanctionedJurisdictionsSchema>;
export type SanctionedJurisdiction = SanctionedJurisdictions["jurisdictions"][number];

export function parseJurisdictions(json: unknown): SanctionedJurisdictions {
  return SanctionedJurisdictionsSchema.parse(json);
}

/** The country codes and single codes any jurisdiction names: what a store narrows port calls to. */
export function jurisdictionCodes(table: SanctionedJurisdictions): { countries: string[]; codes: string[] } {
  return {
    countries: [...new Set(table.jurisdictions.flatMap((j) => j.countries))].sort(),
    codes: [...new Set(table.jurisdictions.flatMap((j) => j.codes))].sort(),
  };
}

const dayStart = (d: string) => Date.parse(`${d}T00:00:00Z`);

/** The jurisdiction a call at this port arriving at this time (epoch ms) was in, or null. */
export function jurisdictionOfCall(table: SanctionedJurisdictions, unlocode: string, arrival: number): SanctionedJurisdiction | null {
  const code = unlocode.toUpperCase();
  for (const j of table.jurisdictions) {
    if (!j.codes.includes(code) && !j.countries.includes(code.slice(0, 2))) continue;
    if (arrival < dayStart(j.from)) continue;
    if (j.until !== null && arrival >= dayStart(j.until)) continue;
    return j;
  }
  return null;
}
