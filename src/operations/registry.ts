import { webhooksCreate } from "./account.webhooks.create.ts";
import { webhooksList } from "./account.webhooks.list.ts";
import { webhooksGet } from "./account.webhooks.get.ts";
import { webhooksUpdate } from "./account.webhooks.update.ts";
import { webhooksDelete } from "./account.webhooks.delete.ts";
import { webhooksTest } from "./account.webhooks.test.ts";
import { webhooksRotate } from "./account.webhooks.rotate.ts";
import { webhooksEnable } from "./account.webhooks.enable.ts";
import { webhooksDisable } from "./account.webhooks.disable.ts";
import { webhooksDeliveries } from "./account.webhooks.deliveries.ts";
import { deliveriesRetry } from "./account.deliveries.retry.ts";
import { zonesCreate } from "./account.zones.create.ts";
import { zonesList } from "./account.zones.list.ts";
import { zonesDelete } from "./account.zones.delete.ts";
import { followsCreate } from "./account.follows.create.ts";
import { followsList } from "./account.follows.list.ts";
import { followsDelete } from "./account.follows.delete.ts";
import { watchlistsCreate } from "./account.watchlists.create.ts";
import { watchlistsList } from "./account.watchlists.list.ts";
import { watchlistsGet } from "./account.watchlists.get.ts";
import { watchlistsUpdate } from "./account.watchlists.update.ts";
import { watchlistsDelete } from "./account.watchlists.delete.ts";
import { watchlistsScreen } from "./account.watchlists.screen.ts";
import { savedSearchesCreate } from "./account.saved-searches.create.ts";
import { savedSearchesList } from "./account.saved-searches.list.ts";
import { savedSearchesDelete } from "./account.saved-searches.delete.ts";
import { companiesGet } from "./companies.get.ts";
import { flagsGet } from "./flags.get.ts";
import { meFeed } from "./me.feed.ts";
import { meStations } from "./me.stations.ts";
import type { Operation } from "./operation.ts";
import { portsGet } from "./ports.get.ts";
import { portsList } from "./ports.list.ts";
import { sanctionsList } from "./sanctions.list.ts";
import { sanctionsChanges } from "./sanctions.changes.ts";
import { screen } from "./screen.ts";
import { screeningsGet } from "./screenings.get.ts";
import { search } from "./search.ts";
import { sourcesList } from "./sources.list.ts";
import { usageGet } from "./usage.get.ts";
import { vesselsGet } from "./vessels.get.ts";
import { vesselsTrack } from "./vessels.track.ts";
import { wrecksGet } from "./wrecks.get.ts";
import { vesselsPortCalls } from "./vessels.port-calls.ts";
import { portsCalls } from "./ports.calls.ts";
import { portCallsList } from "./port-calls.list.ts";
import { waterwaysList } from "./waterways.list.ts";
import { waterwaysTransits } from "./waterways.transits.ts";
import { vesselsEvents } from "./vessels.events.ts";
import { eventsList } from "./events.list.ts";

/** The single list of operations: REST routes, OpenAPI and MCP tools are generated from it. */
export const OPERATIONS: readonly Operation[] = [
  portsList,
  portsGet,
  flagsGet,
  wrecksGet,
  companiesGet,
  usageGet,
  meFeed,
  meStations,
  sanctionsChanges,
  sanctionsList,
  screen,
  screeningsGet,
  vesselsGet,
  vesselsTrack,
  search,
  webhooksCreate,
  webhooksList,
  webhooksGet,
  webhooksUpdate,
  webhooksDelete,
  webhooksTest,
  webhooksRotate,
  webhooksEnable,
  webhooksDisable,
  webhooksDeliveries,
  deliveriesRetry,
  zonesCreate,
  zonesList,
  zonesDelete,
  followsCreate,
  followsList,
  followsDelete,
  savedSearchesCreate,
  savedSearchesList,
  savedSearchesDelete,
  watchlistsCreate,
  watchlistsList,
  watchlistsGet,
  watchlistsUpdate,
  watchlistsDelete,
  watchlistsScreen,
  sourcesList,
  vesselsPortCalls,
  portsCalls,
  portCallsList,
  waterwaysList,
  waterwaysTransits,
  vesselsEvents,
  eventsList,
];
