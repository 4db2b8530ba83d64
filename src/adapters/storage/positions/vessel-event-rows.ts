import type { Transaction } from "kysely";
import type { VesselEvent } from "../../../domain/derived/vessel-event.ts";
import type { BulkRow, SqlDialect } from "../dialect/dialect.ts";
import type { Database } from "../schema.ts";

/** A row written again (an open event that grew, a recompute) takes the new version. */
const EVENT_CONFLICT = `ON CONFLICT (id) DO UPDATE SET "end" = excluded."end", lat = excluded.lat, lon = excluded.lon, detail = excluded.detail, method = excluded.method, version = excluded.version, confidence = excluded.confidence, updated_at = excluded.updated_at`;

/**
 * Writes vessel events in the caller's transaction: derivation's page commit, and ingest's
 * for identity changes. Of several versions of one event, the last wins.
 */
export async function writeVesselEvents(trx: Transaction<Database>, dialect: SqlDialect, events: readonly VesselEvent[], now: number): Promise<void> {
  const latest = new Map(events.map((e) => [e.id, e]));
  await dialect.bulkInsert(trx, {
    table: "vessel_events",
    columns: ["id", "type", "station_id", "mmsi", "start", "end", "lat", "lon", "counterpart_mmsi", "detail", "method", "version", "confidence", "updated_at"],
    types: ["text", "text", "int4", "int4", "int8", "int8", "float8", "float8", "int4", "text", "text", "text", "float8", "int8"],
    rows: [...latest.values()].map((e): BulkRow => [e.id, e.type, e.stationId, e.mmsi, e.start, e.end, e.lat, e.lon, e.counterpartMmsi, JSON.stringify({ details: e.details, inputs: e.inputs }), e.method, e.version, e.confidence, now]),
    tail: EVENT_CONFLICT,
  });
}
