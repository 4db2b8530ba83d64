import { ALERT_OPERATIONS } from "./account.alerts.ts";
import { WEBHOOK_OPERATIONS } from "./account.webhooks.ts";
import { flagsGet } from "./flags.get.ts";
import { meFeed } from "./me.feed.ts";
import { meStations } from "./me.stations.ts";
import type { Operation } from "./operation.ts";
import { portsGet } from "./ports.get.ts";
import { portsList } from "./ports.list.ts";
import { sanctionsList } from "./sanctions.list.ts";
import { screen } from "./screen.ts";
import { search } from "./search.ts";
import { usageGet } from "./usage.get.ts";
import { vesselsGet } from "./vessels.get.ts";
import { vesselsTrack } from "./vessels.track.ts";

/** The single list of operations: REST routes, OpenAPI and MCP tools are generated from it. */
export const OPERATIONS: readonly Operation[] = [portsList, portsGet, flagsGet, usageGet, meFeed, meStations, sanctionsList, screen, vesselsGet, vesselsTrack, search, ...WEBHOOK_OPERATIONS, ...ALERT_OPERATIONS] as unknown as readonly Operation[];
