import { SqlStore } from "../sql-store.ts";
import type { Transaction } from "kysely";
import type { EventType } from "../../../domain/alerts/payload.ts";
import type { NewAlert, Trigger } from "../../../interfaces/webhooks.ts";
import type { SqlDialect } from "../dialect/dialect.ts";
import type { Database } from "../schema.ts";
import type { EndpointRow } from "./webhook-endpoints.ts";

/** Whether an endpoint's filter takes an event type (null: every type). */
function takes(events: string | null, type: string): boolean {
  return events === null || (JSON.parse(events) as string[]).includes(type);
}

/**
 * Events raised for accounts and their deliveries, written in the transaction that records
 * what raised them (an alert, an owner's test), so a crash loses none and none is sent twice.
 */
export class SqlWebhookOutbox extends SqlStore {

  async emitAlerts(alerts: readonly NewAlert[], now: number, cursor?: { name: string; value: number }): Promise<{ alerts: number; deliveries: number }> {
    if (alerts.length === 0 && !cursor) return { alerts: 0, deliveries: 0 };
    return this.db.transaction().execute(async (trx) => {
      const r = await writeAlerts(trx, this.dialect, alerts, now);
      if (cursor) {
        await trx
          .insertInto("alert_cursors")
          .values({ name: cursor.name, value: cursor.value })
          .onConflict((oc) => oc.column("name").doUpdateSet({ value: cursor.value }))
          .execute();
      }
      return r;
    });
  }

  async createSingleDelivery(accountId: string, endpointId: number, type: EventType, body: (eventId: number, created: number) => string, trigger: Trigger, now: number): Promise<number | null> {
    return this.db.transaction().execute(async (trx) => {
      // Locked, so a delete racing this test event waits for it or is seen here as not found.
      const owned = await this.dialect
        .lockRows(trx.selectFrom("webhook_endpoints").select("id").where("account_id", "=", accountId).where("id", "=", endpointId))
        .executeTakeFirst();
      if (!owned) return null;
      const event = await trx.insertInto("webhook_events").values({ account_id: accountId, alert_id: null, type, body: "", created_at: now }).returning("id").executeTakeFirstOrThrow();
      await trx.updateTable("webhook_events").set({ body: body(event.id, now) }).where("id", "=", event.id).execute();
      // No next_attempt_at: the caller claims it by id; workers' due query never picks it up.
      const d = await trx
        .insertInto("webhook_deliveries")
        .values({
          event_id: event.id,
          endpoint_id: endpointId,
          account_id: accountId,
          status: "pending",
          trigger,
          resume_status: null,
          attempts: 0,
          tries: 0,
          next_attempt_at: null,
          lease_token: null,
          lease_until: null,
          created_at: now,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return d.id;
    });
  }
}

/**
 * Records alerts with their events and deliveries inside the caller's transaction, so
 * whatever raised them (a cursor move, derived state) commits with them or not at all.
 * An alert whose dedupe key is already stored is skipped.
 */
export async function writeAlerts(trx: Transaction<Database>, dialect: SqlDialect, alerts: readonly NewAlert[], now: number): Promise<{ alerts: number; deliveries: number }> {
  let created = 0;
  let deliveries = 0;
  // Every endpoint the batch fans out to, locked at once in id order (the order a delete takes
  // them in, whatever the accounts' order here), so none is deleted between this read and
  // the deliveries written for it, and two batches never wait on each other in a circle.
  const endpointsOf = new Map<string, EndpointRow[]>();
  const accounts = [...new Set(alerts.map((a) => a.accountId))];
  if (accounts.length > 0) {
    const all = await dialect.lockRows(trx.selectFrom("webhook_endpoints").selectAll().where("account_id", "in", accounts).orderBy("id")).execute();
    for (const e of all) endpointsOf.set(e.account_id, [...(endpointsOf.get(e.account_id) ?? []), e]);
  }
  for (const a of alerts) {
    const alert = await trx
      .insertInto("alerts")
      .values({ account_id: a.accountId, type: a.type, occurred_at: a.occurredAt, dedupe_key: a.dedupeKey, detail: JSON.stringify(a.detail), created_at: now })
      .onConflict((oc) => oc.column("dedupe_key").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!alert) continue;
    created++;
    const type = `alert.${a.type}`;
    const event = await trx.insertInto("webhook_events").values({ account_id: a.accountId, alert_id: alert.id, type, body: "", created_at: now }).returning("id").executeTakeFirstOrThrow();
    await trx
      .updateTable("webhook_events")
      .set({ body: a.body({ alertId: alert.id, eventId: event.id, created: now }) })
      .where("id", "=", event.id)
      .execute();
    const rows = (endpointsOf.get(a.accountId) ?? [])
      .filter((e) => takes(e.events, type))
      .map((e) => {
        const active = e.status === "active";
        return {
          event_id: event.id,
          endpoint_id: e.id,
          account_id: a.accountId,
          // A turned-off endpoint gets a visible `skipped` row its owner can retry after turning it on.
          status: active ? "pending" : "skipped",
          trigger: "auto",
          resume_status: null,
          attempts: 0,
          tries: 0,
          next_attempt_at: active ? now : null,
          lease_token: null,
          lease_until: null,
          created_at: now,
          updated_at: now,
        };
      });
    if (rows.length > 0) {
      await trx.insertInto("webhook_deliveries").values(rows).onConflict((oc) => oc.columns(["event_id", "endpoint_id"]).doNothing()).execute();
      deliveries += rows.filter((r) => r.status === "pending").length;
    }
  }
  return { alerts: created, deliveries };
}
