import type { ColumnType, Generated } from "kysely";

/**
 * The tables of the main store, the same on SQLite and PostgreSQL. Times are integer
 * epoch milliseconds so queries stay portable; JSON values are stored as text.
 *
 * Longer than the 400 lines other storage files keep to: it holds only row types, one per
 * table, in the order and sections of the migrations that create them, and Kysely needs
 * them in one `Database` type. Split it when the migrations are split by area.
 */
export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  credit_usage: CreditUsageTable;
  key_usage: KeyUsageTable;
  stations: StationsTable;
  ports: PortsTable;
  flags: FlagsTable;
  wrecks: WrecksTable;
  company_records: CompanyRecordsTable;
  company_fleet: CompanyFleetTable;
  company_name_terms: CompanyNameTermsTable;
  inspections: InspectionsTable;
  datasets: DatasetsTable;
  positions: PositionsTable;
  latest_positions: LatestPositionsTable;
  vessel_identities: VesselIdentitiesTable;
  station_counters: StationCountersTable;
  sanctions_lists: SanctionsListsTable;
  sanctions_versions: SanctionsVersionsTable;
  sanctions_fetches: SanctionsFetchesTable;
  sanctions_designations: SanctionsDesignationsTable;
  sanctions_identifiers: SanctionsIdentifiersTable;
  sanctions_changes: SanctionsChangesTable;
  sanctions_events: SanctionsEventsTable;
  vessels: VesselsTable;
  vessel_identifiers: VesselIdentifiersTable;
  vessel_names: VesselNamesTable;
  vessel_name_terms: VesselNameTermsTable;
  vessel_emissions: VesselEmissionsTable;
  vessel_fleet: VesselFleetTable;
  vessel_ais_synced: VesselAisSyncedTable;
  vessel_registry_state: VesselRegistryStateTable;
  alert_follows: AlertFollowsTable;
  alert_zones: AlertZonesTable;
  alert_saved_searches: AlertSavedSearchesTable;
  alert_cursors: AlertCursorsTable;
  zone_feed: ZoneFeedTable;
  zone_presence: ZonePresenceTable;
  derived_feed: DerivedFeedTable;
  derived_state: DerivedStateTable;
  port_calls: PortCallsTable;
  gate_crossings: GateCrossingsTable;
  gate_coverage: GateCoverageTable;
  alerts: AlertsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  users: UsersTable;
  sessions: SessionsTable;
  oauth_clients: OAuthClientsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_codes: OAuthCodesTable;
  oauth_tokens: OAuthTokensTable;
  feeds: FeedsTable;
}

export interface AccountsTable {
  id: string;
  name: string;
  web_plan: string | null;
  api_plan: string | null;
  created_at: number;
  /** `mds accounts set` (migration 0020): the account's own monthly credits and rate in place of its plans', null: its plans'. */
  monthly_credits: number | null;
  rate_per_second: number | null;
  /** `mds accounts set --monthly-credits` (migration 0022): credits on top of the above, null: none. */
  extra_monthly_credits: number | null;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  /** SHA-256 hex of the whole key; the key itself is never stored. */
  hash: string;
  /** The first characters of the key, shown in listings so a user can tell keys apart. */
  start: string;
  name: string | null;
  created_at: number;
  revoked_at: number | null;
  /** When the key last authenticated a call, to the minute (written at most once a minute per key). */
  last_used_at: ColumnType<number | null, number | null | undefined, number | null>;
}

/** One row per account and calendar month (UTC): the credits that month has used. */
export interface CreditUsageTable {
  account_id: string;
  period: string;
  used: number;
}

/** Per-key tallies for reporting; the account row above is what limits. */
export interface KeyUsageTable {
  key_id: string;
  period: string;
  calls: number;
  credits: number;
}

export interface StationsTable {
  id: Generated<number>;
  account_id: string;
  name: string;
  secret_hash: string;
  /** UDP signing key, sealed (migration 0018); null for stations from before it until their secret is rotated. */
  udp_key: string | null;
  shared: number;
  created_at: number;
  /** Migration 0017: what the owner grants others when shared, and receiver settings. */
  share_redistribution: Generated<number>;
  share_commercial: Generated<number>;
  source_name: string | null;
  plain_port: number | null;
  allow_from: string | null;
  connect_to: string | null;
}

export interface PortsTable {
  unlocode: string;
  country: string;
  location: string;
  name: string;
  name_ascii: string;
  subdivision: string | null;
  subdivision_name: string | null;
  functions: string;
  function_names: string;
  status: string | null;
  iata: string | null;
  changed: string | null;
  edition: string;
  lat: number | null;
  lon: number | null;
  coord_source: string | null;
  wpi: string | null;
  /** Alternate names, remarks, caveats of the row, as JSON. */
  details: string;
}

/** One NOAA AWOIS record (migration 0010); `record` holds its facts as JSON. */
export interface WrecksTable {
  id: number;
  slug: string;
  name: string | null;
  lat: number;
  lon: number;
  source: string;
  record: string;
}

export interface FlagsTable {
  iso2: string;
  name: string;
  record: string;
}

/** What each bundled or imported dataset holds, so a first start knows what to import. */
export interface DatasetsTable {
  id: string;
  rows: number;
  origin: string;
  imported_at: number;
}

// --- AIS from users' stations (migration 0002) ---------------------------------------------

/** Every stored fix, keyed (mmsi, time, station_id); time is epoch ms. */
export interface PositionsTable {
  mmsi: number;
  time: number;
  station_id: number;
  lat: number;
  lon: number;
  sog: number | null;
  cog: number | null;
  heading: number | null;
  nav_status: number | null;
}

/** The newest fix of each vessel per station: what the private feed reads. */
export interface LatestPositionsTable {
  station_id: number;
  mmsi: number;
  time: number;
  lat: number;
  lon: number;
  sog: number | null;
  cog: number | null;
  heading: number | null;
  nav_status: number | null;
}

/** The latest identity of each vessel per station, merged from types 5, 19 and 24 A/B. */
export interface VesselIdentitiesTable {
  station_id: number;
  mmsi: number;
  imo: number | null;
  name: string | null;
  callsign: string | null;
  ship_type: number | null;
  to_bow: number | null;
  to_stern: number | null;
  to_port: number | null;
  to_starboard: number | null;
  draught: number | null;
  destination: string | null;
  eta: string | null;
  updated_at: number;
  /** Bit set of the fields ever broadcast (positions-store.ts IDENTITY_FIELDS). */
  fields: number;
}

/** Ingest counters per station, one row per counter name; `last_heard_at` holds a time, not a sum. */
export interface StationCountersTable {
  station_id: number;
  counter: string;
  value: number;
}

// --- Sanctions (migration 0003) ---------------------------------------------------------
// Dates of the lists (as_of, listed_at, first_seen, delisted_at, date) are ISO yyyy-mm-dd
// text: the lists publish days, not instants.

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

/** One row per import of a list. */
export interface SanctionsVersionsTable {
  id: Generated<number>;
  list: string;
  as_of: string;
  imported_at: number;
  /** The files or URLs read, comma-separated. */
  origin: string;
  /** 1 for a dated extract (the demo's samples), not the list as published. */
  extract: Generated<number>;
  /** SHA-256 hex over the input files (name and bytes, in name order). */
  checksum: string;
  bytes: number;
  records: number;
  active: number;
  listed: number;
  delisted: number;
  changed: number;
  unchanged: number;
  /** 1 for the first version of a list: its listings were not observed as changes. */
  baseline: number;
  /** The delisting guard's verdict. */
  guard: string;
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

// --- Vessel registry (migration 0004) -----------------------------------------------------

/** A ship: keyed by IMO, or by MMSI when no valid IMO is known (exactly one is set). */
export interface VesselsTable {
  id: Generated<number>;
  imo: number | null;
  mmsi_key: number | null;
  created_at: number;
}

/** An MMSI or call sign a source linked to a ship; `station_id` set for links from a station. */
export interface VesselIdentifiersTable {
  vessel_id: number;
  kind: "mmsi" | "callsign";
  value: string;
  source: string;
  station_id: number | null;
  first_seen: number;
  last_seen: number;
}

/** A name a source gave a ship, with its normal form for search. */
export interface VesselNamesTable {
  id: Generated<number>;
  vessel_id: number;
  name: string;
  norm: string;
  source: string;
  station_id: number | null;
  first_seen: number;
  last_seen: number;
}

/** Search index: suffixes of normalised names (domain/vessels/names.ts), by match rank. */
export interface VesselNameTermsTable {
  rank: number;
  term: string;
  name_id: number;
}

/** EU MRV reports, one per ship and year. */
export interface VesselEmissionsTable {
  imo: number;
  year: number;
  name: string;
  ship_type: string | null;
  port_of_registry: string | null;
  co2_t: number | null;
  fuel_t: number | null;
  time_at_sea_h: number | null;
}

/** Rows of fleet lists (MARAD), per ship and source. */
export interface VesselFleetTable {
  imo: number;
  source: string;
  name: string;
  ship_type: string | null;
  gross_tons: number | null;
  deadweight_tons: number | null;
  year_built: number | null;
  operator: string | null;
}

/** The AIS identity rows the registry last linked, to find the ones that changed. */
export interface VesselAisSyncedTable {
  station_id: number;
  mmsi: number;
  imo: number | null;
  name: string | null;
  callsign: string | null;
  updated_at: number;
}

export interface VesselRegistryStateTable {
  key: string;
  value: number;
}

// --- Alerts and webhooks (migration 0006) ----------------------------------------------

export interface AlertFollowsTable {
  id: Generated<number>;
  account_id: string;
  kind: "vessel" | "port";
  imo: number | null;
  mmsi: number | null;
  unlocode: string | null;
  /** `imo:<n>`, `mmsi:<n>` or `unlocode:<code>`: unique per account. */
  ref: string;
  created_at: number;
}

export interface AlertZonesTable {
  id: Generated<number>;
  account_id: string;
  name: string;
  /** GeoJSON Polygon as validated (domain/alerts/geometry.ts). */
  geometry: string;
  min_lon: number;
  min_lat: number;
  max_lon: number;
  max_lat: number;
  created_at: number;
}

export interface AlertSavedSearchesTable {
  id: Generated<number>;
  account_id: string;
  name: string;
  q: string;
  kind: string | null;
  created_at: number;
}

export interface AlertCursorsTable {
  name: string;
  value: number;
}

/** Fixes committed by ingest, waiting for the zone evaluator (0012-zone-state.ts). */
export interface ZoneFeedTable {
  id: Generated<number>;
  mmsi: number;
  time: number;
  station_id: number;
  lat: number;
  lon: number;
  sog: number | null;
  cog: number | null;
}

/** The zone evaluator's state per account and vessel. */
export interface ZonePresenceTable {
  account_id: string;
  mmsi: number;
  last_time: number;
  last_seen: number;
  /** JSON [[zoneId, state], ...] or null. */
  zones: string | null;
}

export interface AlertsTable {
  id: Generated<number>;
  account_id: string;
  type: string;
  occurred_at: number;
  dedupe_key: string;
  /** JSON: zone, follow, vessel of the alert. */
  detail: string;
  created_at: number;
}

export interface WebhookEndpointsTable {
  id: Generated<number>;
  account_id: string;
  url: string;
  description: string | null;
  /** JSON array of event types, or null for all. */
  events: string | null;
  status: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  failure_streak: number;
  streak_started_at: number | null;
  disabled_at: number | null;
  disabled_reason: string | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookEventsTable {
  id: Generated<number>;
  account_id: string;
  alert_id: number | null;
  type: string;
  body: string;
  created_at: number;
}

/** One row per event and endpoint: the delivery log and the work queue. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  event_id: number;
  endpoint_id: number;
  account_id: string;
  status: string;
  trigger: string;
  resume_status: string | null;
  attempts: number;
  tries: number;
  next_attempt_at: number | null;
  lease_token: string | null;
  lease_until: number | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookAttemptsTable {
  delivery_id: number;
  attempt: number;
  delivery_uuid: string;
  trigger: string;
  outcome: string;
  started_at: number;
  duration_ms: number | null;
  status_code: number | null;
  error_class: string | null;
  error: string | null;
  response_snippet: string | null;
}

/** People who sign in to the web pages; `email` is stored normalised (lower-case), so unique is case-insensitive. */
export interface UsersTable {
  id: string;
  account_id: string;
  email: string;
  /** PHC string: `$argon2id$v=19$m=...,t=...,p=...$salt$hash`. */
  password_hash: string;
  created_at: number;
  updated_at: number;
}

/** Server-side sessions, keyed by the SHA-256 of the cookie value. */
export interface SessionsTable {
  id_hash: string;
  user_id: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  ip: string | null;
  user_agent: string | null;
}

/** OAuth clients: a self-registration (dcr) or a fetched metadata document (cimd, cached until expires_at). */
export interface OAuthClientsTable {
  client_id: string;
  kind: string;
  metadata_json: string;
  fetched_at: number;
  expires_at: number | null;
}

/** One per account, user and client: a "connected app". Scopes space-separated. */
export interface OAuthGrantsTable {
  id: string;
  account_id: string;
  user_id: string;
  client_id: string;
  redirect_uri: string;
  scopes: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** Authorization codes by SHA-256 hex; single use. */
export interface OAuthCodesTable {
  hash: string;
  grant_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  family_id: string;
  expires_at: number;
  used_at: number | null;
}

/** Access and refresh tokens by SHA-256 hex; a family is one code's chain of rotations. */
export interface OAuthTokensTable {
  hash: string;
  grant_id: string;
  kind: string;
  family_id: string;
  resource: string;
  expires_at: number;
  revoked_at: number | null;
  used_at: number | null;
}

// --- Public AIS feeds (migration 0016) -------------------------------------------------------

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
export interface DerivedFeedTable {
  id: Generated<number>;
  mmsi: number;
  time: number;
  station_id: number;
  lat: number;
  lon: number;
  sog: number | null;
  nav_status: number | null;
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

// --- Companies (migration 0013) ----------------------------------------------------------

/** One company record as one source states it; `record` holds aliases, country, address and designations as JSON. */
export interface CompanyRecordsTable {
  source: string;
  key: string;
  entity_id: string;
  name: string;
  norm: string;
  company_imo: string | null;
  lei: string | null;
  record: string;
}

/** Search terms of a company record's names: the normalised name from each word's start; rank 0 the name's start. */
export interface CompanyNameTermsTable {
  term: string;
  rank: number;
  source: string;
  key: string;
}

/** A ship one company record ties to the company, with the role and the quoted source field. */
export interface CompanyFleetTable {
  source: string;
  key: string;
  imo: number | null;
  mmsi: number | null;
  vessel_name: string | null;
  role: string;
  evidence: string;
}

// --- Inspections (migration 0014) --------------------------------------------------------

/** One inspection of a ship from an operator's import. */
export interface InspectionsTable {
  source: string;
  imo: number;
  date: string;
  type: string;
  port: string;
  authority: string;
  origin: string;
}
