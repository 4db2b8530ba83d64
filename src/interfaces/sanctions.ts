import type { Designation, SanctionsListKey } from "../domain/sanctions/designation.ts";
import type { Measure } from "../domain/sanctions/measures.ts";
import type { DelistingGuardOptions } from "../domain/sanctions/diff.ts";
import type { SanctionsVersion, VersionCounts } from "../domain/sanctions/version.ts";

/** One parsed version of a list, ready to be stored as the list's next version. */
export interface SanctionsVersionInput {
  list: SanctionsListKey;
  designations: readonly Designation[];
  /** The day this version stands for (yyyy-mm-dd): first-seen and delisting dates come from it. */
  asOf: string;
  /** The files or URLs read. */
  origin: string;
  checksum: string;
  bytes: number;
  /** When the import ran (epoch ms). */
  importedAt: number;
  guard?: DelistingGuardOptions;
  /** A dated extract of the list (the demo's samples), not the list as published. */
  extract?: boolean;
}

export interface SanctionsImportResult extends Pick<SanctionsVersion, "asOf" | "baseline" | "guard">, VersionCounts {
  versionId: number;
  list: SanctionsListKey;
  /** Listing and delisting events written to the outbox. */
  events: number;
  /**
   * The publication was the one already stored (same checksum, same kind): no version was
   * written and no designation touched; only the list's as-of date and last import moved on.
   */
  samePublication: boolean;
}

/** How a fetch of a list ended: a new version, the stored publication again, or an error. */
export type SanctionsFetchOutcome = "imported" | "unchanged" | "failed";

/** One fetch of a list, as recorded by `serve`'s refresh and `mds import sanctions`. */
export interface SanctionsFetchAttempt {
  list: SanctionsListKey;
  /** When the fetch started (epoch ms). */
  attemptedAt: number;
  outcome: SanctionsFetchOutcome;
  /** Why it failed (outcome `failed`). */
  error: string | null;
  /** The files or URLs read. */
  source: string;
}

/** The last fetch of a list and its last success; nulls when never fetched. */
export interface SanctionsFetchState {
  list: SanctionsListKey;
  attemptedAt: number | null;
  outcome: SanctionsFetchOutcome | null;
  error: string | null;
  source: string | null;
  succeededAt: number | null;
  succeededSource: string | null;
}

/** The latest version of a list, or nulls when the list was never imported. */
export interface SanctionsListState {
  list: SanctionsListKey;
  versionId: number | null;
  asOf: string | null;
  importedAt: number | null;
  active: number;
  /** The latest version is a dated extract, not the list as published. */
  extract: boolean;
}

export interface SanctionsVersionRow extends Pick<SanctionsVersion, "asOf" | "importedAt" | "origin" | "checksum" | "records" | "active" | "listed" | "delisted" | "changed" | "baseline"> {
  id: number;
  list: SanctionsListKey;
}

/** A designation spell: a record id from the version it appeared in to the one it left. */
export interface StoredDesignation {
  id: number;
  list: SanctionsListKey;
  recordId: string;
  active: boolean;
  name: string;
  program: string | null;
  /** The list's own designation date, or null when it publishes none. */
  listedAt: string | null;
  /** as_of of the version where the record first appeared. */
  firstSeen: string;
  /** When this service first saw the designation: the import time (epoch ms) of that version. */
  firstSeenAt: number;
  delistedAt: string | null;
  sourceUrl: string;
  /** Every IMO / MMSI the record carried while designated, current and former. */
  allImos: number[];
  allMmsis: number[];
  /** The measures of its latest record, each with its legal basis. */
  measures: Measure[];
}

/** A designation found by one of its identifiers. */
export interface IdentifierHit extends StoredDesignation {
  kind: "imo" | "mmsi";
  value: number;
  /** False when the record no longer carries the identifier (an IMO fixed, an MMSI changed on reflagging). */
  current: boolean;
}

export interface SanctionsEvent {
  id: number;
  versionId: number;
  list: SanctionsListKey;
  recordId: string;
  action: "listed" | "delisted";
  name: string;
  imos: number[];
  mmsis: number[];
  program: string | null;
  /** The measures of the designation's record (as stored now), each with its legal basis. */
  measures: Measure[];
  date: string;
  dateSource: "list" | "first_seen" | "absent";
  sourceId: string;
  sourceUrl: string;
  baseline: boolean;
  createdAt: number;
}

export interface SanctionsChange {
  versionId: number;
  asOf: string;
  fields: string[];
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

/** Where a page of the change feed starts: after this row of the feed order. */
export interface SanctionsFeedKey {
  versionId: number;
  /** 0: a listing or delisting (sanctions_events), 1: a change (sanctions_changes); events come first within a version. */
  kind: 0 | 1;
  id: number;
}

export interface SanctionsFeedQuery {
  lists: readonly SanctionsListKey[];
  actions: readonly ("listed" | "delisted" | "changed")[];
  /** Inclusive bounds on the version's as-of date (yyyy-mm-dd). */
  since: string | null;
  until: string | null;
  after: SanctionsFeedKey | null;
  /** Only versions up to this id (inclusive): a reader that takes whole versions at a time. */
  throughVersion?: number;
  limit: number;
}

/** One row of the change feed: a listing, delisting or change of a designation in one version. */
export interface SanctionsFeedRow {
  key: SanctionsFeedKey;
  action: "listed" | "delisted" | "changed";
  list: SanctionsListKey;
  versionId: number;
  /** The version's as-of date. */
  asOf: string;
  designationId: number;
  recordId: string;
  name: string;
  imos: number[];
  mmsis: number[];
  program: string | null;
  /** Listings and delistings: the event's date and where it came from; a change: the version's date. */
  date: string;
  dateSource: "list" | "first_seen" | "absent" | "version";
  /** A listing of a list's first import: its starting state, not a change. */
  baseline: boolean;
  sourceUrl: string;
  /** Changes only: the tracked fields that changed, with their values before and after. */
  fields: string[] | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export interface FindByIdentifiers {
  imos: readonly number[];
  mmsis: readonly number[];
  lists: readonly SanctionsListKey[];
  states?: readonly SanctionsListState[];
}

export interface SanctionsStore {
  /** Days after its last successful import that a list counts as stale. */
  readonly staleAfterDays: number;
  /**
   * Stores a version all or nothing: diff against the list's active designations,
   * the delisting guard, the new spells, delistings, identifier history and events in one
   * transaction. Throws DelistingGuardError or SanctionsImportError and changes nothing.
   */
  importVersion(input: SanctionsVersionInput): Promise<SanctionsImportResult>;
  /** Records a fetch of a list (kept: the last attempt, and the last success). */
  recordFetch(attempt: SanctionsFetchAttempt): Promise<void>;
  /** The last fetch of every list, including lists never fetched. */
  fetchStates(): Promise<SanctionsFetchState[]>;
  /** Latest version of every list, including lists never imported. */
  listStates(): Promise<SanctionsListState[]>;
  versions(list: SanctionsListKey): Promise<SanctionsVersionRow[]>;
  /** Versions of every list with id > afterId, in id order (the order they were committed in). */
  versionsAfter(afterId: number, limit: number): Promise<SanctionsVersionRow[]>;
  /** Active designations of a list in id order after `afterId`, with their latest parsed record. */
  listActive(list: SanctionsListKey, afterId: number, limit: number): Promise<{ designation: StoredDesignation; record: Designation }[]>;
  /**
   * Designations (active and past) carrying any of the IMOs or MMSIs, current or former, of the
   * given lists. `states` (from listStates) pins the versions to answer from, saving a read.
   */
  findByIdentifiers(query: FindByIdentifiers): Promise<IdentifierHit[]>;
  /** Outbox read: events with id > afterId in id order. */
  events(afterId: number, limit: number): Promise<SanctionsEvent[]>;
  changes(designationId: number): Promise<SanctionsChange[]>;
  /**
   * The change feed: listings, delistings (events) and changes of the given lists in feed
   * order (version id, events before changes, row id), after `after`. Versions are numbered
   * as imported, so a later import only ever adds rows at the end.
   */
  feed(query: SanctionsFeedQuery): Promise<SanctionsFeedRow[]>;
  /** What the records of these designations say of their ships, with the versions that carried them (the vessel answer's list facts). */
  listedFacts(designationIds: readonly number[]): Promise<ListedVesselFacts[]>;
}

/**
 * A designation's record as the list last published it, with the dates that say what the
 * list's facts are: when the list dates the designation, and which versions of the list
 * carried the record. None of them is a sighting of the ship.
 */
export interface ListedVesselFacts {
  designationId: number;
  list: SanctionsListKey;
  recordId: string;
  active: boolean;
  /** The latest record as parsed: names, former names, flag, type, call sign, MMSIs. */
  record: Designation;
  /** Every MMSI the record carried while designated, current and former. */
  allMmsis: number[];
  /** The list's own designation date, or null when it publishes none. */
  listedAt: string | null;
  /** as_of of the first version of the list that carried the record. */
  firstListedIn: string;
  /** as_of of the latest version that carried it: the list's current one while active. */
  lastListedIn: string;
  delistedAt: string | null;
}

/** An import refused for a reason other than the delisting guard; nothing was changed. */
export class SanctionsImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SanctionsImportError";
  }
}
