import type { NameIndex } from "../domain/name-index.ts";
import type { VesselId } from "../domain/identifiers.ts";
import type { PositionFix } from "./positions.ts";
import type { EmissionReport } from "../domain/vessels/emission-report.ts";
import type { FleetEntry } from "../domain/vessels/fleet-entry.ts";

/**
 * The vessel registry: which identifiers were seen for one ship, by which source, and when.
 *
 * A ship is keyed by its IMO number when one with a valid check digit is known, else by
 * its MMSI. Identifiers are links, never overwrites: an MMSI change adds a link to the same
 * IMO (the old one keeps its first/last seen), a new name adds a name, and two IMOs never
 * merge. Links learned from a station carry that station, so reads can leave out stations
 * the caller may not see (a private station's data does not exist for anyone else).
 */

/** The stations a caller may see: its own account's and the shared ones. */
export type VisibleStations = readonly number[];

export interface VesselIdentifierLink {
  kind: "mmsi" | "callsign";
  value: string;
  /** `emsa_mrv`, `marad`, a sanctions list (`ofac`, ...), or `station:<id>`. */
  source: string;
  stationId: number | null;
  firstSeen: number;
  lastSeen: number;
}

export interface VesselNameLink {
  name: string;
  source: string;
  stationId: number | null;
  firstSeen: number;
  lastSeen: number;
}

/** One EU MRV report of a ship and year (columns the vessel page shows). */
export type EmissionRow = Omit<EmissionReport, "imo">;

/** A row of a fleet list (MARAD): particulars and the operating company. */
export type FleetRow = Omit<FleetEntry, "imo">;

/** What an EU MRV import hands the store per ship and year (the importer's records have more). */
export type EmissionImport = EmissionReport;

/** What a fleet-list import hands the store per ship. */
export type FleetImport = Omit<FleetEntry, "source">;

/** A registry entry with every link the caller may see. */
export interface VesselRecord {
  vesselId: number;
  imo: number | null;
  /** The MMSI that keys a ship without a known IMO. */
  mmsiKey: number | null;
  identifiers: VesselIdentifierLink[];
  names: VesselNameLink[];
  emissions: EmissionRow[];
  fleet: FleetRow[];
}

/** An MMSI of a ship: when the ship was last seen with it, and when another ship was (null: none later seen). */
export interface MmsiLink {
  mmsi: number;
  lastSeen: number;
  otherLastSeen: number | null;
}

/** What a track needs of a ship: its key and its MMSIs, read at once. */
export interface VesselMmsis {
  vesselId: number;
  imo: number | null;
  mmsiKey: number | null;
  mmsis: MmsiLink[];
}

export interface RegistryRefreshReport {
  /** AIS identity rows (per station and MMSI) that were new or changed. */
  aisIdentities: number;
  /** Sanctions designations linked (0 when no list changed since the last refresh). */
  sanctionsDesignations: number;
}

/** A name match of the search. */
export interface NameMatch {
  vesselId: number;
  imo: number | null;
  mmsiKey: number | null;
  name: string;
  source: string;
  /** 0: the name starts with the query; 1: a later word does; 2: the query is inside a word. */
  rank: 0 | 1 | 2;
}

export interface VesselStore {
  /** Station ids the account may see (its own and shared ones); only shared ones without an account. */
  visibleStations(accountId: string | null): Promise<number[]>;
  findByImo(imo: number, visible: VisibleStations): Promise<VesselRecord | null>;
  /** The ship that used this MMSI most recently, among the links the caller may see. */
  findByMmsi(mmsi: number, visible: VisibleStations): Promise<VesselRecord | null>;
  /** The ship an id names (as findByImo / findByMmsi) with only its MMSI links; null when the caller may see nothing of it. */
  findMmsis(id: VesselId, visible: VisibleStations): Promise<VesselMmsis | null>;
  /** For each MMSI, the ships that used it (among visible links) and when each was last seen with it. */
  /** `sources`: the sources of the links behind the pair (a dataset, a sanctions list, `station:<id>`). */
  mmsiUsers(mmsis: readonly number[], visible: VisibleStations): Promise<{ mmsi: number; vesselId: number; lastSeen: number; sources: string[] }[]>;
  /**
   * For each MMSI, the ships with an IMO number that used it (among visible links), when each
   * was last seen with it and the sources of those links: how an encounter's counterpart is
   * screened by its IMO (one read, whatever the number of MMSIs).
   */
  mmsiImos(mmsis: readonly number[], visible: VisibleStations): Promise<{ mmsi: number; imo: number; lastSeen: number; sources: string[] }[]>;
  /** The newest fix of each of these MMSIs per visible station, newest first. */
  latestFixes(mmsis: readonly number[], visible: VisibleStations): Promise<PositionFix[]>;
  /** Whether a visible station has ever heard this MMSI (ships not yet in the registry). */
  heardBy(mmsi: number, visible: VisibleStations): Promise<boolean>;
  /** Replaces the EU MRV reports and the registry's `emsa_mrv` links, all or nothing. */
  replaceEmissions(records: readonly EmissionImport[], onBatch?: (rows: number) => void): Promise<void>;
  /** Replaces a fleet list's rows and its links, all or nothing. */
  replaceFleet(source: string, records: readonly FleetImport[], seenAt: number): Promise<void>;
  /** Links what AIS static reports and the sanctions lists learned since the last refresh. */
  refresh(now: number): Promise<RegistryRefreshReport>;
  /** Links every sanctions list whose latest version is not yet linked; returns the designations linked. */
  linkSanctions(now: number): Promise<number>;
  /** Links at once what these stations' static reports said of these MMSIs (if it changed); returns the rows linked. */
  linkIdentities(keys: readonly { stationId: number; mmsi: number }[]): Promise<number>;
}

export interface SearchStore {
  /** Vessel names matching a normalised query, best ranks first, at most `limit` rows. */
  vesselNames(normalized: string, visible: VisibleStations, limit: number): Promise<NameMatch[]>;
  /** The current (most recently seen) MMSI of each vessel, among visible links. */
  currentMmsis(vesselIds: readonly number[], visible: VisibleStations): Promise<Map<number, number>>;
  /** Every name of each vessel among visible links: what its page address is made from. */
  namesOf(vesselIds: readonly number[], visible: VisibleStations): Promise<Map<number, VesselNameLink[]>>;
  /** Flag registries by ISO code and name, for matching in memory (a few hundred rows). */
  flags(): Promise<{ iso2: string; name: string }[]>;
  /** For each IMO, the registry datasets that give the ship a type (a fleet list's, EU MRV's `emsa_mrv`). */
  typeSources(imos: readonly number[]): Promise<Map<number, string[]>>;
  /** Every port's UN/LOCODE with its names normalised (name, ASCII name, bilingual names), for matching in memory. */
  portNames(): Promise<PortName[]>;
  /** Every named wreck, indexed by name for matching in memory. */
  wreckNames(): Promise<NameIndex<WreckName>>;
  /** Every port, indexed by each name it is listed under (portNames' norms). */
  portIndex(): Promise<NameIndex<PortName>>;
}

export interface WreckName {
  id: number;
  name: string;
  /** The name part of the page URL `/wreck/{id}-{slug}`. */
  slug: string;
  norm: string;
  source: string;
}

export interface PortName {
  unlocode: string;
  name: string;
  /** normalizeName() of each name the port is listed under, the main name first. */
  norms: string[];
  /** Whether the World Port Index describes the harbour: among equal matches the real harbour comes first. */
  harbour: boolean;
}
