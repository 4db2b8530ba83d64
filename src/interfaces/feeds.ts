import type { FeedKind } from "../domain/feeds/kinds.ts";

/**
 * Public AIS feeds the operator turned on (`mds feeds add`). Each has a station of its own,
 * owned by the service's feeds account, whose data every caller may see: positions are
 * tagged by that station like any other, and the station's source is the feed's entry in
 * the sources file.
 */
export interface Feed {
  name: string;
  kind: FeedKind;
  url: string;
  stationId: number;
  /** True when a key (API key, member username) is stored, sealed. */
  hasKey: boolean;
  createdAt: number;
}

/** What the process running a feed last reported about it. */
export interface FeedStatus {
  /** `connecting`, `connected`, `waiting` (backing off), `stopped`. */
  state: "connecting" | "connected" | "waiting" | "stopped";
  /** Epoch ms of the last message, null before the first. */
  lastMessageAt: number | null;
  /** Messages per second over the last minute. */
  ratePerSecond: number;
  /**
   * `silent`: connected, yet no message for the feed's threshold (an outage upstream, never
   * a quiet sea); `down`: not connected for that long. null while messages flow.
   */
  alarm: "silent" | "down" | null;
  /** Since when the alarm is raised. */
  alarmSince: number | null;
  /** The last failure (refused, closed, HTTP status, the feed's own error), for the operator. */
  lastError: string | null;
  /** When this status was written: a status older than a few intervals means no process runs the feed. */
  reportedAt: number;
}

export interface FeedWithStatus extends Feed {
  status: FeedStatus | null;
}

export interface NewFeed {
  name: string;
  kind: FeedKind;
  url: string;
  key: string | null;
}

export interface FeedStore {
  /** Creates the feed and its station; throws FeedExistsError for a taken name. */
  add(feed: NewFeed): Promise<Feed>;
  list(): Promise<FeedWithStatus[]>;
  /** Removes the feed; its station and the positions it stored stay (history keeps its source). */
  remove(name: string): Promise<boolean>;
  /** The feed's key, opened; null when none is stored. */
  key(name: string): Promise<string | null>;
  writeStatus(name: string, status: FeedStatus): Promise<void>;
  /** Every station that carries a feed (removed feeds included), with the source that governs it. */
  stations(): Promise<{ stationId: number; sourceId: string }[]>;
}

export class FeedExistsError extends Error {
  constructor(name: string) {
    super(`a feed named ${name} exists already; remove it first or pick another name`);
    this.name = "FeedExistsError";
  }
}
