import type { AccountsTable, ApiKeysTable, CreditBatchesTable, CreditUsageTable, KeyUsageTable, OAuthClientsTable, OAuthCodesTable, OAuthGrantsTable, OAuthTokensTable, SessionsTable, StationsTable, UsersTable } from "./tables/accounts.ts";
import type { DerivedFeedTable, DerivedStateTable, FeedsTable, GateCoverageTable, GateCrossingsTable, LatestPositionsTable, PortCallsTable, PositionsTable, SlowEpisodesTable, IdentityEventFeedTable, StationCountersTable, StationHeardTable, VesselEventsTable, VesselIdentitiesTable } from "./tables/ais.ts";
import type { AlertCursorsTable, AlertFollowsTable, AlertSavedSearchesTable, AlertZonesTable, AlertsTable, WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable, WebhookEventsTable, ZoneFeedTable, ZonePresenceTable } from "./tables/alerts.ts";
import type { CompanyFleetTable, CompanyNameTermsTable, CompanyRecordsTable, DatasetsTable, FlagsTable, InspectionsTable, PortsTable, WrecksTable } from "./tables/reference.ts";
import type { SanctionsChangesTable, SanctionsDesignationsTable, SanctionsEventsTable, SanctionsFetchesTable, SanctionsIdentifiersTable, SanctionsListsTable, SanctionsVersionsTable } from "./tables/sanctions.ts";
import type { WatchlistMembersTable, WatchlistsTable } from "./tables/watchlists.ts";
import type { ScreeningKeysTable, ScreeningReceiptsTable } from "./tables/screenings.ts";
import type { McpTaskPagesTable, McpTasksTable } from "./tables/mcp-tasks.ts";
import type { VesselAisSyncedTable, VesselEmissionsTable, VesselFleetTable, VesselIdentifiersTable, VesselNameTermsTable, VesselNamesTable, VesselRegistryStateTable, VesselsTable } from "./tables/vessels.ts";

export type * from "./tables/accounts.ts";
export type * from "./tables/ais.ts";
export type * from "./tables/alerts.ts";
export type * from "./tables/reference.ts";
export type * from "./tables/sanctions.ts";
export type * from "./tables/screenings.ts";
export type * from "./tables/mcp-tasks.ts";
export type * from "./tables/vessels.ts";
export type * from "./tables/watchlists.ts";

/**
 * The tables of the main store, the same on SQLite and PostgreSQL. Times are integer
 * epoch milliseconds so queries stay portable; JSON values are stored as text. Each
 * table's row type is declared in tables/, by area, in the order of the migrations.
 */
export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  credit_usage: CreditUsageTable;
  credit_batches: CreditBatchesTable;
  vessel_events: VesselEventsTable;
  slow_episodes: SlowEpisodesTable;
  station_heard: StationHeardTable;
  identity_event_feed: IdentityEventFeedTable;
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
  watchlists: WatchlistsTable;
  watchlist_members: WatchlistMembersTable;
  screening_receipts: ScreeningReceiptsTable;
  mcp_tasks: McpTasksTable;
  mcp_task_pages: McpTaskPagesTable;
  screening_keys: ScreeningKeysTable;
}
