import type { Generated } from "kysely";

/** Watchlists and their members (migration 0027). */

export interface WatchlistsTable {
  id: Generated<number>;
  account_id: string;
  name: string;
  /** The number of rows in watchlist_members, written in the same transaction. */
  member_count: number;
  created_at: number;
  updated_at: number;
}

export interface WatchlistMembersTable {
  watchlist_id: number;
  /** The member's place in the list as given, from 1: pages are ranges of it. */
  position: number;
  imo: number | null;
  mmsi: number | null;
}
