import { SqlStore } from "../sql-store.ts";
import { eventSummary } from "../../../domain/alerts/event-summary.ts";
import { canExist } from "../../../domain/ids.ts";
import type { Delivery, DeliveryAttempt, DeliveryFilter, DeliveryStatus, RetryOutcome, Trigger } from "../../../interfaces/webhooks.ts";
import type { WebhookAttemptsTable, WebhookDeliveriesTable } from "../schema.ts";

type DeliveryRow = Omit<WebhookDeliveriesTable, "id"> & { id: number };

function toAttempt(r: WebhookAttemptsTable): DeliveryAttempt {
  return {
    attempt: r.attempt,
    deliveryUuid: r.delivery_uuid,
    trigger: r.trigger as Trigger,
    outcome: r.outcome as DeliveryAttempt["outcome"],
    startedAt: r.started_at,
    durationMs: r.duration_ms,
    statusCode: r.status_code,
    errorClass: r.error_class as DeliveryAttempt["errorClass"],
    error: r.error,
    responseSnippet: r.response_snippet,
  };
}

function toDelivery(r: DeliveryRow & { type: string; body: string }, log: DeliveryAttempt[]): Delivery {
  return {
    id: r.id,
    eventId: r.event_id,
    eventType: r.type,
    ...eventSummary(r.body),
    endpointId: r.endpoint_id,
    status: r.status as DeliveryStatus,
    attempts: r.attempts,
    tries: r.tries,
    nextAttemptAt: r.next_attempt_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    log,
  };
}

/** Deliveries with their attempts as their owners see them, and owners' retries of one. */
export class SqlDeliveryLog extends SqlStore {

  async listDeliveries(accountId: string, endpointId: number, filter: DeliveryFilter): Promise<Delivery[]> {
    let q = this.db
      .selectFrom("webhook_deliveries as d")
      .innerJoin("webhook_events as ev", "ev.id", "d.event_id")
      .selectAll("d")
      .select(["ev.type", "ev.body"])
      .where("d.account_id", "=", accountId)
      .where("d.endpoint_id", "=", endpointId);
    if (filter.eventId !== undefined) q = q.where("d.event_id", "=", filter.eventId);
    if (filter.status !== undefined) q = q.where("d.status", "=", filter.status);
    if (filter.from !== undefined) q = q.where("d.created_at", ">=", filter.from);
    if (filter.to !== undefined) q = q.where("d.created_at", "<", filter.to);
    // A cursor is the client's text: one beyond any row id (which PostgreSQL would refuse as out of range) is before every row.
    if (filter.beforeId !== undefined && canExist(filter.beforeId)) q = q.where("d.id", "<", filter.beforeId);
    const rows = await q.orderBy("d.id", "desc").limit(filter.limit).execute();
    return this.#withLogs(rows);
  }

  async getDelivery(accountId: string, deliveryId: number): Promise<Delivery | null> {
    const rows = await this.db
      .selectFrom("webhook_deliveries as d")
      .innerJoin("webhook_events as ev", "ev.id", "d.event_id")
      .selectAll("d")
      .select(["ev.type", "ev.body"])
      .where("d.account_id", "=", accountId)
      .where("d.id", "=", deliveryId)
      .execute();
    return (await this.#withLogs(rows))[0] ?? null;
  }

  async #withLogs(rows: (DeliveryRow & { type: string; body: string })[]): Promise<Delivery[]> {
    if (rows.length === 0) return [];
    const attempts = await this.db
      .selectFrom("webhook_attempts")
      .selectAll()
      .where("delivery_id", "in", rows.map((r) => r.id))
      .orderBy("delivery_id")
      .orderBy("attempt")
      .execute();
    const byDelivery = new Map<number, DeliveryAttempt[]>();
    for (const a of attempts) {
      const list = byDelivery.get(a.delivery_id) ?? [];
      list.push(toAttempt(a));
      byDelivery.set(a.delivery_id, list);
    }
    return rows.map((r) => toDelivery(r, byDelivery.get(r.id) ?? []));
  }

  async retryDelivery(accountId: string, deliveryId: number, now: number): Promise<RetryOutcome> {
    const outcome = await this.db.transaction().execute(async (trx): Promise<RetryOutcome | "ok"> => {
      const q = trx
        .selectFrom("webhook_deliveries as d")
        .innerJoin("webhook_endpoints as e", "e.id", "d.endpoint_id")
        .select(["d.status", "d.lease_until", "d.lease_token", "e.status as endpointStatus"])
        .where("d.account_id", "=", accountId)
        .where("d.id", "=", deliveryId);
      const d = await this.dialect.lockRows(q, { of: "d" }).executeTakeFirst();
      if (!d) return { ok: false, reason: "not_found" };
      if (d.endpointStatus !== "active") return { ok: false, reason: "endpoint_disabled" };
      if (d.lease_token !== null && d.lease_until !== null && d.lease_until > now) return { ok: false, reason: "in_flight" };
      if (d.status === "pending" || d.status === "retrying") {
        // Already scheduled: bring the next attempt forward; it stays one of the schedule's.
        await trx.updateTable("webhook_deliveries").set({ next_attempt_at: now, updated_at: now }).where("id", "=", deliveryId).execute();
      } else if (d.status === "skipped") {
        // Never sent because the endpoint was off: it takes up its schedule where it stopped.
        await trx.updateTable("webhook_deliveries").set({ status: "pending", trigger: "auto", next_attempt_at: now, updated_at: now }).where("id", "=", deliveryId).execute();
      } else {
        // Delivered, given up, failed test: one extra attempt; afterwards it is back in its final state unless it succeeds.
        await trx
          .updateTable("webhook_deliveries")
          .set({ status: "pending", trigger: "manual", resume_status: d.status === "delivered" ? "delivered" : d.status, next_attempt_at: now, updated_at: now })
          .where("id", "=", deliveryId)
          .execute();
      }
      return "ok";
    });
    if (outcome !== "ok") return outcome;
    // Its endpoint may have been deleted since the commit: then the delivery is gone, as if it never was.
    const delivery = await this.getDelivery(accountId, deliveryId);
    return delivery ? { ok: true, delivery } : { ok: false, reason: "not_found" };
  }
}
