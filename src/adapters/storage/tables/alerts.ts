import type { Generated } from "kysely";
import type { ArchivePoint } from "../../../domain/positions/position-fix.ts";
import type { WebhookEndpoint } from "../../../domain/webhooks/endpoint.ts";
import type { Columns } from "./columns.ts";

/** Alerts and webhooks (migrations 0006, 0012). */

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
export interface ZoneFeedTable extends Columns<ArchivePoint> {
  id: Generated<number>;
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

/** The domain's WebhookEndpoint (secrets sealed, see secret-box.ts), with its events as JSON. */
export interface WebhookEndpointsTable extends Columns<Omit<WebhookEndpoint, "id" | "events" | "status">> {
  id: Generated<number>;
  /** JSON array of event types, or null for all. */
  events: string | null;
  status: string;
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
