import type { Migration } from "kysely";
import { foundation } from "./0001-foundation.ts";
import { ais } from "./0002-ais.ts";
import { sanctions } from "./0003-sanctions.ts";
import { vessels } from "./0004-vessels.ts";
import { alertsWebhooks } from "./0006-alerts-webhooks.ts";
import { people } from "./0007-people.ts";
import { oauth } from "./0008-oauth.ts";
import { wrecks } from "./0010-wrecks.ts";
import { sanctionsExtracts } from "./0011-sanctions-extracts.ts";
import { zoneState } from "./0012-zone-state.ts";
import { companies } from "./0013-companies.ts";
import { inspections } from "./0014-inspections.ts";
import { sanctionsFetches } from "./0015-sanctions-fetches.ts";
import { feeds } from "./0016-feeds.ts";
import { stationReceivers } from "./0017-station-receivers.ts";
import { stationUdpKey } from "./0018-station-udp-key.ts";
import { derivedFacts } from "./0019-derived-facts.ts";
import { scale } from "./0020-scale.ts";
import { accountExtraCredits } from "./0022-account-extra-credits.ts";
import { creditBatches } from "./0023-credit-batches.ts";
import { vesselEvents } from "./0024-vessel-events.ts";
import { sanctionsFeedOrder } from "./0025-sanctions-feed-order.ts";
import { screeningReceipts } from "./0026-screening-receipts.ts";
import { watchlists } from "./0027-watchlists.ts";
import { sanctionsAlertsByVersion } from "./0028-sanctions-alerts-by-version.ts";
import { stationDeletion } from "./0030-station-deletion.ts";
import { openGaps } from "./0031-open-gaps.ts";
import { chargeCalls } from "./0032-charge-calls.ts";
import { webhookDueOrder } from "./0033-webhook-due-order.ts";
import { mcpTasks } from "./0034-mcp-tasks.ts";
import { keyChangeNotices } from "./0035-key-change-notices.ts";
import type { ColumnTypes } from "./column-types.ts";

/**
 * Every migration, in order, by name. Each lives in a file of its own; add a line here.
 * Names sort in the order they must run.
 */
export function allMigrations(types: ColumnTypes): Record<string, Migration> {
  return {
    "0001_foundation": foundation(types),
    "0002_ais": ais(types),
    "0003_sanctions": sanctions(types),
    "0004_vessels": vessels(types),
    "0006_alerts_webhooks": alertsWebhooks(types),
    "0007_people": people(types),
    "0008_oauth": oauth(types),
    "0010_wrecks": wrecks(types),
    "0011_sanctions_extracts": sanctionsExtracts(),
    "0012_zone_state": zoneState(types),
    "0013_companies": companies(types),
    "0014_inspections": inspections(),
    "0015_sanctions_fetches": sanctionsFetches(types),
    "0016_feeds": feeds(types),
    "0017_station_receivers": stationReceivers(),
    "0018_station_udp_key": stationUdpKey(),
    "0019_derived_facts": derivedFacts(types),
    "0020_scale": scale(types),
    "0022_account_extra_credits": accountExtraCredits(),
    "0023_credit_batches": creditBatches(types),
    "0024_vessel_events": vesselEvents(types),
    "0025_sanctions_feed_order": sanctionsFeedOrder(),
    "0026_screening_receipts": screeningReceipts(types),
    "0027_watchlists": watchlists(types),
    "0028_sanctions_alerts_by_version": sanctionsAlertsByVersion(),
    "0030_station_deletion": stationDeletion(types),
    "0031_open_gaps": openGaps(),
    "0032_charge_calls": chargeCalls(types),
    "0033_webhook_due_order": webhookDueOrder(),
    "0034_mcp_tasks": mcpTasks(types),
    "0035_key_change_notices": keyChangeNotices(types),
  };
}
