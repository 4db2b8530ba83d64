import type { CompanyRecord, FleetLink } from "../domain/companies/company.ts";
import type { EntityRef } from "../domain/companies/entity-id.ts";

/** A ship's company as a vessel page shows it: the link and the record it belongs to. */
export interface VesselCompany {
  source: string;
  /** The company's id (its strongest identifier). */
  entityId: string;
  name: string;
  link: FleetLink;
}

/** A company name matching a search, with how well it matched. */
export interface CompanyNameMatch {
  entityId: string;
  name: string;
  source: string;
  /** 1: the whole name; 2: the start of the name; 3: the start of a later word. */
  tier: 1 | 2 | 3;
}

export interface CompanyStore {
  /** Replaces every record of one source, all or nothing. */
  replaceSource(source: string, records: readonly CompanyRecord[]): Promise<void>;
  /** The records of the company an id names, joined on company IMO number and LEI; empty when none. */
  resolve(ref: EntityRef): Promise<CompanyRecord[]>;
  /** The companies tied to a ship, by its IMO number or any of its MMSIs. */
  forVessel(imo: number | null, mmsis: readonly number[]): Promise<VesselCompany[]>;
  /** Company names matching a normalised query, best first, at most `limit`. */
  searchNames(normalized: string, limit: number): Promise<CompanyNameMatch[]>;
  /** Number of records per source. */
  counts(): Promise<Record<string, number>>;
  /** Number of records per source that carry a designation of the company itself (a list's entity records). */
  designatedCounts(): Promise<Record<string, number>>;
}
