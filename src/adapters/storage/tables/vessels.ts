import type { Generated } from "kysely";
import type { EmissionReport } from "../../../domain/vessels/emission-report.ts";
import type { FleetEntry } from "../../../domain/vessels/fleet-entry.ts";
import type { VesselIdentity } from "../../../domain/vessels/vessel-identity.ts";
import type { Columns } from "./columns.ts";

/** The vessel registry (migration 0004): ships, their identifiers and names, and what fleet lists and EU MRV say of them. */

/** A ship: keyed by IMO, or by MMSI when no valid IMO is known (exactly one is set). */
export interface VesselsTable {
  id: Generated<number>;
  imo: number | null;
  mmsi_key: number | null;
  created_at: number;
}

/** An MMSI or call sign a source linked to a ship; `station_id` set for links from a station. */
export interface VesselIdentifiersTable {
  vessel_id: number;
  kind: "mmsi" | "callsign";
  value: string;
  source: string;
  station_id: number | null;
  first_seen: number;
  last_seen: number;
}

/** A name a source gave a ship, with its normal form for search. */
export interface VesselNamesTable {
  id: Generated<number>;
  vessel_id: number;
  name: string;
  norm: string;
  source: string;
  station_id: number | null;
  first_seen: number;
  last_seen: number;
}

/** Search index: suffixes of normalised names (domain/vessels/names.ts), by match rank. */
export interface VesselNameTermsTable {
  rank: number;
  term: string;
  name_id: number;
}

/** EU MRV reports, one per ship and year. */
export type VesselEmissionsTable = Columns<EmissionReport>;

/** Rows of fleet lists (MARAD), per ship and source. */
export type VesselFleetTable = Columns<FleetEntry>;

/** The AIS identity rows the registry last linked, to find the ones that changed. */
export type VesselAisSyncedTable = Columns<Pick<VesselIdentity, "stationId" | "mmsi" | "imo" | "name" | "callsign" | "updatedAt">>;

export interface VesselRegistryStateTable {
  key: string;
  value: number;
}
