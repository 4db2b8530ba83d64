import type { VesselId } from "../domain/identifiers.ts";

/**
 * Watchlists: named lists of vessels an account screens as a whole (a fleet, a book of
 * business). Every read and write names the account, so one account's lists are never
 * another's (the operations turn a miss into a plain 404).
 */

export interface Watchlist {
  id: number;
  accountId: string;
  name: string;
  memberCount: number;
  createdAt: number;
  updatedAt: number;
}

/** A member as stored: exactly one of `imo` and `mmsi` is set (an `mmsi-` id has no IMO). */
export interface WatchlistMember {
  position: number;
  imo: number | null;
  mmsi: number | null;
}

/** A watchlist member carrying an IMO or MMSI a sanctions change names, with its list and owner. */
export interface WatchlistMemberMatch {
  /** The list's id as clients see it (`wl_12`). */
  watchlistId: string;
  accountId: string;
  watchlistName: string;
  imo: number | null;
  mmsi: number | null;
}

/** What a write may be refused for: one of the account's plan limits (lists, or members of all lists together). */
export type WatchlistWrite = { ok: true; value: Watchlist } | { ok: false; reason: "lists" | "members"; limit: number } | { ok: false; reason: "not_found" };

export interface WatchlistStore {
  /**
   * Creates a list with its members in one transaction, unless the account would then hold
   * more than `limits.lists` lists or `limits.members` members in all (atomic under concurrency).
   */
  createWatchlist(accountId: string, name: string, members: readonly VesselId[], limits: { lists: number; members: number }, now: number): Promise<WatchlistWrite>;
  /**
   * Renames a list and/or replaces its members, in one transaction; members beyond the
   * account's limit refuse the whole change.
   */
  updateWatchlist(accountId: string, id: number, change: { name?: string; members?: readonly VesselId[] }, membersLimit: number, now: number): Promise<WatchlistWrite>;
  listWatchlists(accountId: string): Promise<Watchlist[]>;
  getWatchlist(accountId: string, id: number): Promise<Watchlist | null>;
  /** Members in the order they were given, from `afterPosition` (exclusive), at most `limit`. */
  watchlistMembers(watchlistId: number, afterPosition: number, limit: number): Promise<WatchlistMember[]>;
  deleteWatchlist(accountId: string, id: number): Promise<boolean>;
  /** Members of any account's lists carrying one of the IMOs or MMSIs (what a sanctions change re-screens). */
  watchlistMembersMatching(imos: readonly number[], mmsis: readonly number[]): Promise<WatchlistMemberMatch[]>;
}
