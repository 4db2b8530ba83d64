/**
 * AIS data received by users' own stations: position history, each station's latest
 * fix and latest identity per vessel, and per-station ingest counters.
 *
 * Privacy is by station: every read names the stations it may see, and the callers
 * (operations) pass only the stations the principal owns. The store never widens that.
 */
import type { PositionFix } from "../domain/positions/position-fix.ts";
import type { VesselIdentity, VesselIdentityFields } from "../domain/vessels/vessel-identity.ts";

export type { PositionFix, VesselIdentity };

/**
 * What static reports (types 5, 19, 24 A/B) tell about a vessel, as heard by one station.
 * Fields a report does not carry are undefined in an update and keep their stored value.
 */
export type VesselIdentityUpdate = Pick<VesselIdentity, "stationId" | "mmsi" | "updatedAt"> & VesselIdentityFields;

/** Additive per-station counters (`lines`, `messages`, `type:1`, `reason:bad_checksum`, ...). */
export interface CounterDelta {
  stationId: number;
  counter: string;
  delta: number;
}

/** Everything one flush of the ingest pipeline writes, in one transaction. */
export interface IngestBatch {
  positions: PositionFix[];
  /** At most one per (station, mmsi): the newest fix of the batch. */
  latest: PositionFix[];
  /** At most one per (station, mmsi): the merged static reports of the batch. */
  identities: VesselIdentityUpdate[];
  counters: CounterDelta[];
  /** Last time each station was heard from (epoch ms). */
  heard: { stationId: number; at: number }[];
}

/** A station as the ingest side needs it: owner, and the digest its secret is checked against. */
export interface IngestStation {
  id: number;
  accountId: string;
  name: string;
  shared: boolean;
  /** SHA-256 hex of the station secret. */
  secretHash: string;
  /**
   * The UDP signing key (64 hex digits) as stored: sealed (secret-box). Null for a station
   * created before migration 0018 until its secret is rotated: its datagrams are refused.
   */
  udpKey?: string | null;
  /** CIDRs the station accepts data from (`--allow-from`); null: any address. */
  allowFrom: string[] | null;
}

export interface StationCounters {
  stationId: number;
  counters: Record<string, number>;
  lastHeardAt: number | null;
}

export interface PositionStore {
  /** Writes a batch atomically; returns how many position rows were new (duplicates of a stored key are skipped). */
  writeBatch(batch: IngestBatch): Promise<{ inserted: number }>;
  /** The latest fix per (station, vessel) of these stations at or after `since`, newest first. */
  latest(stationIds: readonly number[], since: number): Promise<PositionFix[]>;
  /** The identities these stations hold for these vessels. */
  identities(stationIds: readonly number[], mmsis: readonly number[]): Promise<VesselIdentity[]>;
  /** Fixes of one vessel in [from, to) from these stations, oldest first. */
  track(mmsi: number, from: number, to: number, stationIds: readonly number[]): Promise<PositionFix[]>;
  /** Number of stored fixes of one station (operators, tests, benchmarks). */
  countPositions(stationId: number): Promise<number>;
  counters(stationIds: readonly number[]): Promise<StationCounters[]>;
  stationBySecretHash(hash: string): Promise<IngestStation | null>;
  stationById(id: number): Promise<IngestStation | null>;
}
