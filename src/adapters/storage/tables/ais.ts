import type { Generated } from "kysely";
import type { DerivedFix } from "../../../domain/derived/fix.ts";
import type { PositionFix } from "../../../domain/positions/position-fix.ts";
import type { VesselIdentity } from "../../../domain/vessels/vessel-identity.ts";
import type { Columns } from "./columns.ts";

/**
 * AIS from users' stations and public feeds (migrations 0002, 0016) and the facts derived
 * from it (0019). The fix columns are the domain's PositionFix in snake case.
 */

/** Every stored fix, keyed (mmsi, time, station_id); time is epoch ms. */
export type PositionsTable = Columns<PositionFix>;

/** The newest fix of each vessel per station: what the private feed reads. Same columns as positions. */
export type LatestPositionsTable = Columns<PositionFix>;

/** The latest identity of each vessel per station, merged from types 5, 19 and 24 A/B. */
export interface VesselIdentitiesTable extends Columns<VesselIdentity> {
  /** Bit set of the fields ever broadcast (positions-store.ts IDENTITY_FIELDS). */
  fields: number;
}

/** Ingest counters per station, one row per counter name; `last_heard_at` holds a time, not a sum. */
export interface StationCountersTable {
  station_id: number;
  counter: string;
  value: number;
}

export interface FeedsTable {
  station_id: number;
  name: string;
  kind: string;
  url: string;
  key_sealed: string | null;
  created_at: number;
  removed_at: number | null;
  state: string | null;
  last_message_at: number | null;
  rate: number | null;
  alarm: string | null;
  alarm_since: number | null;
  last_error: string | null;
  reported_at: number | null;
}

/** Fixes queued for the derived-fact detectors (migration 0019). */
export interface DerivedFeedTable extends Columns<DerivedFix> {
  id: Generated<number>;
}

export interface DerivedStateTable {
  station_id: number;
  mmsi: number;
  last_time: number;
  state: string;
}

export interface PortCallsTable {
  id: string;
  station_id: number;
  mmsi: number;
  unlocode: string;
  arrival: number;
  departure: number | null;
  confidence: number;
  version: string;
  detail: string;
  updated_at: number;
}

export interface GateCrossingsTable {
  gate_id: string;
  mmsi: number;
  station_id: number;
  time: number;
  direction: string;
  gap_ms: number;
  observed: number;
}

export interface GateCoverageTable {
  gate_id: string;
  hour: number;
  station_id: number;
}

/** One behaviour event of one vessel (domain/derived/vessel-event.ts); `detail` is JSON of `{details, inputs}`. */
export interface VesselEventsTable {
  id: string;
  type: string;
  station_id: number;
  mmsi: number;
  start: number;
  end: number | null;
  lat: number | null;
  lon: number | null;
  counterpart_mmsi: number | null;
  detail: string;
  method: string;
  version: string;
  confidence: number;
  updated_at: number;
}

/** A slow episode judged for encounters (domain/derived/slow-episode.ts). */
export interface SlowEpisodesTable {
  station_id: number;
  mmsi: number;
  start: number;
  last: number;
  lat: number;
  lon: number;
}

/** An hour and cell in which a station heard a vessel (domain/derived/gap-detector.ts heardCell). */
export interface StationHeardTable {
  station_id: number;
  hour: number;
  cell: number;
}

/** An identity change recorded at ingest whose alerts are not raised yet. */
export interface IdentityEventFeedTable {
  event_id: string;
}
