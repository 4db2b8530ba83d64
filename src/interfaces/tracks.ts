/**
 * Vessel tracks: the recent positions (the main store's `positions`, written by station
 * ingest) and the archive of positions older than 90 days at 10-minute resolution.
 * Every read names the stations it may see; callers pass only the principal's visible ones.
 */
import type { ArchivePoint, PositionFix, TrackPoint } from "../domain/positions/position-fix.ts";

export type { ArchivePoint, TrackPoint };

export interface BucketQuery {
  mmsi: number;
  /** Epoch ms, inclusive. */
  from: number;
  /** Epoch ms, exclusive. */
  to: number;
  /** Buckets start at `from` and are this long (the last one ends at `to`). */
  bucketMs: number;
  stationIds: readonly number[];
}

/** Buckets of one vessel's MMSIs, each MMSI read from `from` to its own end. */
export interface BucketCountQuery {
  /** Each MMSI with the end of its range (epoch ms, exclusive). */
  ranges: readonly { mmsi: number; to: number }[];
  /** Epoch ms, inclusive, for every range. */
  from: number;
  bucketMs: number;
  stationIds: readonly number[];
}

export interface TrackStore {
  /** The last fix of each bucket that holds one, among these stations, oldest first. */
  lastPerBucket(query: BucketQuery): Promise<TrackPoint[]>;
  /**
   * Per station, how many buckets hold one of its fixes in any of the ranges (a bucket held
   * by two MMSIs counts once): the points that station alone would give a track, counted
   * without reading them. Stations without a fix there are left out.
   */
  bucketCounts(query: BucketCountQuery): Promise<Map<number, number>>;
}

/** A recent fix with its vessel, as compaction reads them. */
export type StoredFix = Omit<PositionFix, "heading">;

/** What compaction needs of the recent positions: read the oldest per vessel, then delete what was archived. */
export interface RecentPositions {
  /** Every MMSI with recent positions, ascending. */
  mmsis(): Promise<number[]>;
  /** Up to `limit` fixes of the vessel before `before`, oldest first. */
  oldest(mmsi: number, before: number, limit: number): Promise<StoredFix[]>;
  /** Deletes the vessel's fixes up to and including (time, stationId); returns how many. */
  deleteThrough(mmsi: number, time: number, stationId: number): Promise<number>;
  /** Where positions are kept in time partitions (PostgreSQL): compaction archives and drops whole old ones. */
  readonly partitions?: TimePartitions | null;
}

/** One time partition of the recent positions: rows with `from <= time < to`. */
export interface TimePartition {
  name: string;
  from: number;
  to: number;
}

/** Recent positions split by time: whole partitions are read through and dropped instead of deleting rows. */
export interface TimePartitions {
  /** Partitions whose every row is older than `cutoff`, oldest first. */
  before(cutoff: number): Promise<TimePartition[]>;
  /** Up to `limit` rows after the key (mmsi, time, station), in that key order. */
  rows(partition: TimePartition, after: { mmsi: number; time: number; stationId: number } | null, limit: number): Promise<StoredFix[]>;
  drop(partition: TimePartition): Promise<void>;
}

export interface ArchiveRange {
  mmsi: number;
  from: number;
  to: number;
  stationIds: readonly number[];
}

/** The archive: one point per vessel, station and 10-minute slot, without navigational status. */
export interface ArchiveStore {
  /** Archived points of one vessel in [from, to), oldest first. Throws ArchiveUnavailableError when the archive cannot be reached. */
  read(range: ArchiveRange): Promise<TrackPoint[]>;
  /** Stores downsampled points; a slot already held keeps the later of the two points. */
  upsert(points: readonly ArchivePoint[]): Promise<void>;
  count(): Promise<number>;
  close(): Promise<void>;
}

/** The archive store cannot be reached (not open, closed, connection refused). */
export class ArchiveUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ArchiveUnavailableError";
  }
}
