import type { Generated } from "kysely";
import type { SanctionsVersion } from "../../../domain/sanctions/version.ts";
import type { Columns } from "./columns.ts";

/**
 * Sanctions lists (migration 0003). Dates of the lists (as_of, listed_at, first_seen,
 * delisted_at, date) are ISO yyyy-mm-dd text: the lists publish days, not instants.
 */

/** The latest accepted version of each list; imports lock this row first. */
export interface SanctionsListsTable {
  list: string;
  version_id: number | null;
  as_of: string | null;
  imported_at: number | null;
  active: number;
  locked_at: number | null;
  /** 1 when the latest version is a dated extract, not the list as published. */
  extract: Generated<number>;
}

/** The last fetch of a list (0015): tried, outcome, error, and the last success. */
export interface SanctionsFetchesTable {
  list: string;
  attempted_at: number;
  /** `imported` (a new version), `unchanged` (the stored publication again) or `failed`. */
  outcome: string;
  error: string | null;
  /** The files or URLs the attempt read. */
  source: string;
  succeeded_at: number | null;
  succeeded_source: string | null;
}

/** One row per import of a list: the domain's SanctionsVersion, flags as 0/1. */
export interface SanctionsVersionsTable extends Columns<Omit<SanctionsVersion, "list" | "extract" | "baseline">> {
  id: Generated<number>;
  list: string;
  extract: Generated<number>;
  baseline: number;
}

/** A designation spell: from the version where a record id appeared to the one where it went. */
export interface SanctionsDesignationsTable {
  id: Generated<number>;
  list: string;
  record_id: string;
  /** 1 while present in the latest version of its list. */
  active: number;
  name: string;
  program: string | null;
  /** The list's own designation date, when it publishes one. */
  listed_at: string | null;
  /** as_of of the version where the record first appeared. */
  first_seen: string;
  delisted_at: string | null;
  /** `list` when the list gave the deletion date (NZ), `absent` when the record vanished. */
  delisted_source: string | null;
  first_version_id: number;
  last_version_id: number;
  delisted_version_id: number | null;
  source_url: string;
  /** JSON arrays of every IMO / MMSI the record ever carried, for screening without joins. */
  all_imos: string;
  all_mmsis: string;
  /** JSON of the latest Designation as parsed. */
  record: string;
}

/** Every IMO and MMSI a designation carried, with the versions it carried it in. */
export interface SanctionsIdentifiersTable {
  designation_id: number;
  kind: "imo" | "mmsi";
  value: number;
  /** 1 while the latest version of the record carries it. */
  current: number;
  first_version_id: number;
  last_version_id: number;
}

/** Tracked-field changes of a record between two versions. */
export interface SanctionsChangesTable {
  id: Generated<number>;
  version_id: number;
  designation_id: number;
  /** JSON array of TrackedField names. */
  fields: string;
  /** JSON objects of the changed fields' values. */
  before: string;
  after: string;
}

/** Outbox of listings and delistings, read by webhooks in id order. */
export interface SanctionsEventsTable {
  id: Generated<number>;
  version_id: number;
  designation_id: number;
  list: string;
  record_id: string;
  action: "listed" | "delisted";
  name: string;
  imos: string;
  mmsis: string;
  program: string | null;
  date: string;
  /** `list` (the list's own date), `first_seen` (version date) or `absent` (version where it vanished). */
  date_source: string;
  source_id: string;
  source_url: string;
  /** 1 when from a list's first import (a starting state, not a change). */
  baseline: number;
  created_at: number;
}
