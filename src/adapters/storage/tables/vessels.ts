import type { Generated } from "kysely";

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
export interface VesselEmissionsTable {
  imo: number;
  year: number;
  name: string;
  ship_type: string | null;
  port_of_registry: string | null;
  co2_t: number | null;
  fuel_t: number | null;
  time_at_sea_h: number | null;
}

/** Rows of fleet lists (MARAD), per ship and source. */
export interface VesselFleetTable {
  imo: number;
  source: string;
  name: string;
  ship_type: string | null;
  gross_tons: number | null;
  deadweight_tons: number | null;
  year_built: number | null;
  operator: string | null;
}

/** The AIS identity rows the registry last linked, to find the ones that changed. */
export interface VesselAisSyncedTable {
  station_id: number;
  mmsi: number;
  imo: number | null;
  name: string | null;
  callsign: string | null;
  updated_at: number;
}

export interface VesselRegistryStateTable {
  key: string;
  value: number;
}
