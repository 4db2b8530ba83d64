import type { BBox, Polygon } from "../domain/alerts/geometry.ts";
import type { Watcher } from "../domain/alerts/watcher.ts";
import type { VesselZoneState } from "../domain/alerts/zone-tracker.ts";
import type { PositionFix } from "./positions.ts";
import type { NewAlert } from "./webhooks.ts";

/**
 * Alert subjects an account keeps: followed vessels and ports, named zones, saved
 * searches. Every read and delete names the account, so one account's objects are never
 * another's (the operations turn a miss into a plain 404).
 */

export interface Follow {
  id: number;
  accountId: string;
  kind: "vessel" | "port";
  imo: number | null;
  mmsi: number | null;
  unlocode: string | null;
  createdAt: number;
}

export interface Zone {
  id: number;
  accountId: string;
  name: string;
  geometry: Polygon;
  bbox: BBox;
  createdAt: number;
}

export interface SavedSearch {
  id: number;
  accountId: string;
  name: string;
  q: string;
  kind: string | null;
  createdAt: number;
}

/** An insert that may be refused because the account is at its plan's limit, or already has the same thing. */
export type LimitedInsert<T> = { ok: true; value: T } | { ok: false; reason: "limit"; limit: number } | { ok: false; reason: "duplicate"; existing: T };

export interface AlertStore {
  /** Adds a follow unless the account has `limit` already (atomic under concurrency) or follows the same identifier. */
  addFollow(accountId: string, follow: Pick<Follow, "kind" | "imo" | "mmsi" | "unlocode">, limit: number, now: number): Promise<LimitedInsert<Follow>>;
  listFollows(accountId: string): Promise<Follow[]>;
  deleteFollow(accountId: string, id: number): Promise<boolean>;
  /** Vessel follows of any account matching one of the IMOs or MMSIs. */
  vesselFollowers(imos: readonly number[], mmsis: readonly number[]): Promise<Follow[]>;
  /** Port follows of any account naming one of these UN/LOCODEs. */
  portFollowers(unlocodes: readonly string[]): Promise<Follow[]>;

  addZone(accountId: string, zone: Pick<Zone, "name" | "geometry" | "bbox">, limit: number, now: number): Promise<LimitedInsert<Zone>>;
  listZones(accountId: string): Promise<Zone[]>;
  getZone(accountId: string, id: number): Promise<Zone | null>;
  deleteZone(accountId: string, id: number): Promise<boolean>;
  /** Every zone of every account, for the zone index of the ingest path. */
  allZones(): Promise<Zone[]>;

  addSavedSearch(accountId: string, search: Pick<SavedSearch, "name" | "q" | "kind">, limit: number, now: number): Promise<LimitedInsert<SavedSearch>>;
  listSavedSearches(accountId: string): Promise<SavedSearch[]>;
  deleteSavedSearch(accountId: string, id: number): Promise<boolean>;
  /** Every saved search of every account, for matching new listings. */
  allSavedSearches(): Promise<SavedSearch[]>;

  /** A named position in an outbox the alert engine reads (the sanctions events), 0 when never set. */
  cursor(name: string): Promise<number>;
}

/**
 * The watchers of vessels carrying any of these identifiers: follows today, watchlist
 * memberships beside them. One read per kind of watcher for a whole page of sanctions
 * changes, however many rows and watchers it has.
 */
export interface VesselWatchers {
  watchersOf(imos: readonly number[], mmsis: readonly number[]): Promise<Watcher[]>;
}

/** A fix committed by ingest and waiting for zone evaluation, with its place in the queue. */
export interface QueuedFix {
  id: number;
  fix: PositionFix;
}

/** A viewer's saved zone state of one vessel. */
export interface ZonePresence extends VesselZoneState {
  accountId: string;
}

/** One evaluated page of the zone queue: all of it commits, or none. */
export interface ZoneCommit {
  /** The page read: ids `first`..`last`, `count` of them. */
  first: number;
  last: number;
  count: number;
  alerts: NewAlert[];
  save: ZonePresence[];
  forget: { accountId: string; mmsi: number }[];
  /**
   * The state version the evaluation started from (`stateVersion()` read before
   * `presence()`). The commit is refused when another process committed since: its trackers
   * were stale, and an entry it missed could be raised again from a later fix.
   */
  version: number;
}

/**
 * The durable side of zone alerts: the queue of fixes ingest committed (written with the
 * positions) and the evaluator's per-account vessel state.
 */
export interface ZoneStateStore {
  /** The oldest queued fixes, in id order. */
  queued(limit: number): Promise<QueuedFix[]>;
  /** Every saved vessel state. */
  presence(): Promise<ZonePresence[]>;
  /** A number every consumed commit raises by one: read it before `presence()`. */
  stateVersion(): Promise<number>;
  /**
   * Removes the page from the queue and records its alerts and state changes in one
   * transaction. `consumed` is false, and nothing is written, when the page is no longer
   * what was read (another process took it, or a slower ingest transaction committed a
   * fix inside its id range): the caller reloads its state and reads again.
   */
  commit(page: ZoneCommit, now: number): Promise<{ consumed: boolean; alerts: number; deliveries: number }>;
}

/** What operations tell the alert engine of this process. */
export interface AlertsRuntime {
  /** An account's zones changed: the zone index reloads them. */
  zonesChanged(accountId: string): void;
}
