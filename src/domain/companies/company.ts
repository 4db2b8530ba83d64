/**
 * A company as one source states it: a legal-entity record (names, identifiers, its own
 * designations) and the ships the source ties to it (fleet links), each with the role the
 * source gives and the source's own words as evidence. Records of several sources that
 * share a strong identifier (company IMO number, LEI) are one company (see entity-id.ts).
 */

/** What a company is to a ship. `linked` is a tie whose kind the source does not say (OFAC "Linked To:"). */
export const FLEET_ROLES = ["registered_owner", "operator", "manager", "linked"] as const;
export type FleetRole = (typeof FLEET_ROLES)[number];

/** A designation of the company itself on a sanctions list. */
export interface CompanyDesignation {
  list: string;
  /** The list's own record id. */
  recordId: string;
  /** The name as listed. */
  name: string;
  programs: string[];
  listedAt: string | null;
  sourceUrl: string | null;
}

/** One ship a source ties to the company. A ship is named by IMO number, else by MMSI. */
export interface FleetLink {
  imo: number | null;
  mmsi: number | null;
  /** The ship's name as this source writes it, when it gives one. */
  vesselName: string | null;
  role: FleetRole;
  /** The source field the link comes from, quoted: `Linked To: NATIONAL IRANIAN TANKER COMPANY`. */
  evidence: string;
}

export interface CompanyRecord {
  /** The source id (config/sources.json) every fact of the record rests on. */
  source: string;
  /** The record's id within its source; with the source, the key of re-imports. */
  key: string;
  /** The entity id this record answers to on its own (see entity-id.ts). */
  entityId: string;
  name: string;
  aliases: string[];
  /** The IMO Unique Company and Registered Owner Identification Number, where the source carries it. */
  companyImo: string | null;
  /** ISO 17442 Legal Entity Identifier, where the source carries it. */
  lei: string | null;
  country: string | null;
  address: string | null;
  designations: CompanyDesignation[];
  fleet: FleetLink[];
}
