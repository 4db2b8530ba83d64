import type { VesselDerivedState } from "../domain/derived/derive.ts";
import type { DerivedFix } from "../domain/derived/fix.ts";
import type { PortCall } from "../domain/derived/port-call-detector.ts";
import type { GateCrossing } from "../domain/derived/transit-detector.ts";
import type { VesselEvent, VesselEventType } from "../domain/derived/vessel-event.ts";
import type { BBox } from "../domain/alerts/geometry.ts";
import type { Waterway } from "../domain/derived/waterway.ts";
import type { LastHeard } from "../domain/derived/gap-detector.ts";
import type { NewAlert } from "./webhooks.ts";
import type { VisibleStations } from "./vessels.ts";

/**
 * Derived facts (port calls, chokepoint gate crossings) and the durable queue and state
 * behind them. Every read names the stations the caller may see.
 */

/**
 * Every kind of fact live derivation writes, with the table that holds it and the columns
 * that are bookkeeping rather than fact (when a row was written). A recompute over the same
 * positions must give the same rows: the equivalence test (test/adapters/derived/
 * live-equals-recompute.test.ts) asks a scenario of every kind listed here.
 */
export const DERIVED_FACT_KINDS = {
  port_call: { table: "port_calls", bookkeeping: ["updated_at"] },
  gate_crossing: { table: "gate_crossings", bookkeeping: [] },
  gate_coverage: { table: "gate_coverage", bookkeeping: [] },
  encounter: { table: "vessel_events", type: "encounter", bookkeeping: ["updated_at"] },
  loitering: { table: "vessel_events", type: "loitering", bookkeeping: ["updated_at"] },
  ais_gap: { table: "vessel_events", type: "ais_gap", bookkeeping: ["updated_at"] },
} as const satisfies Record<string, { table: string; type?: string; bookkeeping: readonly string[] }>;

export type DerivedFactKind = keyof typeof DERIVED_FACT_KINDS;

export interface QueuedDerivedFix {
  id: number;
  fix: DerivedFix;
}

export interface DerivedCommit {
  /** The page read: ids `first`..`last`, `count` of them (0 for a recompute). */
  first: number;
  last: number;
  count: number;
  states: { stationId: number; mmsi: number; state: VesselDerivedState }[];
  /**
   * What each state was when the page was applied (derivedStateTime; null: none stored). The
   * commit is refused, as a page taken, when a stored state differs: another process moved it
   * on, and the page must be applied again from the stored state. Absent: no check (a
   * recompute replaces the states it starts afresh).
   */
  basis?: { stationId: number; mmsi: number; time: number | null }[];
  calls: PortCall[];
  crossings: GateCrossing[];
  coverage: { gateId: string; hour: number; stationId: number }[];
  /** Behaviour events, each the latest version of its row (an open event grows until it ends). */
  events: VesselEvent[];
  /** Slow episodes that may hold an encounter, for vessels judged later at the same station. */
  episodes: StoredEpisode[];
  /** Hours and cells each station heard a vessel in (the coverage behind AIS gaps). */
  heard: { stationId: number; hour: number; cell: number }[];
  /** Ids of the gaps whose silence the page ended (gap-detector.ts `gapId`): recorded open, they are withdrawn before `events` are written. */
  silencesEnded?: string[];
  alerts: NewAlert[];
}

/** A slow episode as encounters are judged from it: who, where and when. */
export interface StoredEpisode {
  stationId: number;
  mmsi: number;
  start: number;
  last: number;
  lat: number;
  lon: number;
}

/**
 * What behaviour detection asks of stored data while it derives: the station's coverage,
 * other vessels' slow episodes, and fixes. Live derivation and `mds derive` ask the same.
 */
export interface BehaviourLookups {
  /** Which of `hours` have the station hearing some vessel in one of `cells`. */
  heardHours(stationId: number, cells: readonly number[], hours: readonly number[]): Promise<Set<number>>;
  /** Episodes of the station overlapping [from, to] whose centre is within the box. */
  episodesNear(stationId: number, from: number, to: number, box: { minLat: number; maxLat: number; minLon: number; maxLon: number }): Promise<StoredEpisode[]>;
  /** One station's fixes of one vessel in [from, to], oldest first. */
  fixes(stationId: number, mmsi: number, from: number, to: number): Promise<DerivedFix[]>;
}

export interface StoredPortCall extends PortCall {
  version: string;
  updatedAt: number;
}

export interface StoredCrossing {
  gateId: string;
  mmsi: number;
  stationId: number;
  time: number;
  direction: string;
  gapMs: number;
  observed: boolean;
}

/** A port with what its call-detection area is drawn from. */
export interface PortPlace {
  unlocode: string;
  name: string;
  lat: number;
  lon: number;
  harbourSize: string | null;
}

export interface PortCallQuery {
  visible: VisibleStations;
  from: number;
  to: number;
  /** Keyset: calls with (arrival, id) after this, in arrival order. */
  after: { arrival: number; id: string } | null;
  limit: number;
  /** Newest first instead (and `after` unused): the latest calls of a summary. */
  newestFirst?: boolean;
}

export interface StoredVesselEvent extends VesselEvent {
  updatedAt: number;
}

export interface VesselEventQuery {
  visible: VisibleStations;
  /** Events starting in [from, to). */
  from: number;
  to: number;
  /** The types asked for; none: nothing is read. */
  types: readonly VesselEventType[];
  /** Keyset: events with (start, id) after this, in start order. */
  after: { start: number; id: string } | null;
  limit: number;
  /** Newest first instead (and `after` unused): the latest events of a summary. */
  newestFirst?: boolean;
}

/** How many events (port calls as `port_call`) one visible station holds of a vessel, per type. */
export interface EventCount {
  stationId: number;
  type: string;
  count: number;
}

/**
 * What the vessel answer's risk indicators count, of visible stations, grouped in storage so
 * the answer reads a few rows whatever the ship's history (docs/vessel-events.md#risk-indicators).
 */
export interface RiskFacts {
  /** Per station and type, events starting in the window and the latest start; identity conflicts apart, as `identity_conflict`. */
  events: { stationId: number; type: string; count: number; latest: number }[];
  /** Encounters per station and counterpart MMSI. */
  encounters: { stationId: number; counterpartMmsi: number; count: number; latest: number }[];
  /** Port calls arriving in the window at ports of the given countries or codes, one row each. */
  calls: { stationId: number; unlocode: string; arrival: number }[];
}

export interface RiskFactsQuery {
  visible: VisibleStations;
  from: number;
  to: number;
  /** Port calls are read only at ports whose UN/LOCODE starts with one of these countries or is one of these codes. */
  callCountries: readonly string[];
  callCodes: readonly string[];
}

/** At most this many port calls in the named places are read for one answer. */
export const RISK_CALLS_LIMIT = 5_000;

export interface DerivedStore extends BehaviourLookups {
  /** The oldest queued fixes, in id order. */
  queued(limit: number): Promise<QueuedDerivedFix[]>;
  /** Saved detector states of these vessels (absent when never seen). */
  states(keys: readonly { stationId: number; mmsi: number }[]): Promise<Map<string, VesselDerivedState>>;
  /**
   * Removes the page from the queue and records its facts, states and alerts in one
   * transaction; `consumed` false (nothing written) when the page changed under it.
   */
  commit(page: DerivedCommit, now: number): Promise<{ consumed: boolean; deliveries: number }>;
  /** Where each (station, vessel) whose last fix lies in [heardFrom, heardTo] was last heard, oldest first: the candidates for an open AIS gap, with their state's time (`derivedStateTime`). */
  silentVessels(heardFrom: number, heardTo: number, limit: number): Promise<(LastHeard & { stateTime: number })[]>;
  /** Ids of AIS gaps still open that started at or after `since`. */
  openGapIds(since: number): Promise<Set<string>>;
  /** Identity changes ingest recorded whose alerts are not raised yet, oldest first. */
  queuedIdentityEvents(limit: number): Promise<VesselEvent[]>;
  /** Records their alerts and takes them off the queue, in one transaction. */
  commitIdentityAlerts(eventIds: readonly string[], alerts: readonly NewAlert[], now: number): Promise<{ deliveries: number }>;
  /** Every port with coordinates, for the port areas. */
  portPlaces(): Promise<PortPlace[]>;
  /** Port calls of these MMSIs arriving in [from, to), oldest first. */
  vesselCalls(mmsis: readonly number[], q: PortCallQuery): Promise<StoredPortCall[]>;
  /** Port calls at one port arriving in [from, to), oldest first. */
  portCalls(unlocode: string, q: PortCallQuery): Promise<StoredPortCall[]>;
  /** Behaviour events of these MMSIs starting in [from, to), of visible stations, oldest first (keyset paged). */
  vesselEvents(mmsis: readonly number[], q: VesselEventQuery): Promise<StoredVesselEvent[]>;
  /** Behaviour events whose position lies in the box, starting in [from, to), of visible stations, oldest first. */
  areaEvents(bbox: BBox, q: VesselEventQuery): Promise<StoredVesselEvent[]>;
  /** Port calls at ports whose coordinates lie in the box, arriving in [from, to), of visible stations, oldest first. */
  areaCalls(bbox: BBox, q: PortCallQuery): Promise<StoredPortCall[]>;
  /** Per visible station and type, the events and port calls of these MMSIs starting in [from, to). */
  vesselEventCounts(mmsis: readonly number[], q: { visible: VisibleStations; from: number; to: number }): Promise<EventCount[]>;
  /** What the risk indicators of these MMSIs count: events grouped per station and type, encounters per counterpart, calls in the named places. */
  vesselRiskFacts(mmsis: readonly number[], q: RiskFactsQuery): Promise<RiskFacts>;
  /** Crossings of visible stations at or after `since` (all gates, or one). */
  crossings(visible: VisibleStations, since: number, gateId?: string): Promise<StoredCrossing[]>;
  /** Per gate: distinct hours at or after `since` in which a visible station heard a vessel near it. */
  coveredHours(visible: VisibleStations, since: number): Promise<Map<string, number>>;
  /** Which visible stations contributed crossings or coverage at or after `since`, per gate. */
  gateStations(visible: VisibleStations, since: number): Promise<Map<string, number[]>>;
  /** Every (station, vessel) with stored positions in [from, to): what a recompute walks. */
  vesselsHeard(from: number, to: number): Promise<{ stationId: number; mmsi: number }[]>;
  /** Removes the facts of [from, to) and, when `states`, every saved state: a recompute starts clean. */
  clear(from: number, to: number, states: boolean): Promise<void>;
}

/** The waterways on the chokepoint monitor, with their gates, and the gate file's version. */
export interface WaterwayCatalog {
  waterways: readonly Waterway[];
  version: string;
}
