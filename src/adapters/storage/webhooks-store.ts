import { randomUUID } from "node:crypto";
import { type Kysely, sql, type Transaction } from "kysely";
import type { EventType } from "../../domain/alerts/payload.ts";
import { DISABLE_AFTER_FAILURES, DISABLE_SPAN_MS, MAX_ATTEMPTS, nextAttemptAt } from "../../domain/webhooks/schedule.ts";
import type {
  AttemptResult,
  ClaimedDelivery,
  CreateEndpointResult,
  Delivery,
  DeliveryAttempt,
  DeliveryFilter,
  DeliveryStatus,
  NewAlert,
  RetryOutcome,
  Trigger,
  WebhookEndpoint,
  WebhookStore,
} from "../../ports/webhooks.ts";
import { insertWithinLimit } from "./alerts-store.ts";
import type { Engine } from "./database.ts";
import type { Database, WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable } from "./schema.ts";

type EndpointRow = Omit<WebhookEndpointsTable, "id"> & { id: number };
type DeliveryRow = Omit<WebhookDeliveriesTable, "id"> & { id: number };

export const DISABLED_REASON = `${DISABLE_AFTER_FAILURES} consecutive failed deliveries over at least 24 hours`;

function toEndpoint(r: EndpointRow): WebhookEndpoint {
  return {
    id: r.id,
    accountId: r.account_id,
    url: r.url,
    description: r.description,
    events: r.events === null ? null : (JSON.parse(r.events) as string[]),
    status: r.status === "disabled" ? "disabled" : "active",
    secret: r.secret,
    previousSecret: r.previous_secret,
    previousSecretExpiresAt: r.previous_secret_expires_at,
    failureStreak: r.failure_streak,
    streakStartedAt: r.streak_started_at,
    disabledAt: r.disabled_at,
    disabledReason: r.disabled_reason,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

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

function toDelivery(r: DeliveryRow & { type: string }, log: DeliveryAttempt[]): Delivery {
  return {
    id: r.id,
    eventId: r.event_id,
    eventType: r.type,
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

/** Whether an endpoint's filter takes an event type (null: every type). */
function takes(events: string | null, type: string): boolean {
  return events === null || (JSON.parse(events) as string[]).includes(type);
}

const ACTIVE_STATES = ["pending", "retrying"] as const;

/** What an attempt's outcome makes of its delivery (spec 3), from what the claim read. */
function nextState(claim: ClaimedDelivery, result: AttemptResult, now: number): { status: DeliveryStatus; tries: number; next: number | null } {
  if (result.success) return { status: "delivered", tries: claim.tries, next: null };
  if (claim.trigger === "test") return { status: "failed", tries: claim.tries, next: null };
  if (claim.trigger === "manual") return { status: claim.resumeStatus ?? "given_up", tries: claim.tries, next: null };
  const tries = claim.tries + 1;
  const next = nextAttemptAt(tries, now);
  return next === null || tries >= MAX_ATTEMPTS ? { status: "given_up", tries, next: null } : { status: "retrying", tries, next };
}

/**
 * Webhook endpoints, events and deliveries on Kysely (SQLite or PostgreSQL).
 *
 * The deliveries table is the queue. Claiming is one transaction: pick due rows of active
 * endpoints whose lease is free or expired (PostgreSQL: FOR UPDATE SKIP LOCKED, so workers
 * pass each other by), set a new lease token, number the attempt and log it `in_flight`.
 * Completing is conditional on that token, so a worker whose lease was taken over cannot
 * overwrite the newer attempt. All times are parameters from the injected clock; SQL never
 * reads its own clock, so tests can drive the whole schedule.
 */
export class SqlWebhookStore implements WebhookStore {
  readonly #db: Kysely<Database>;
  readonly #engine: Engine;

  constructor(db: Kysely<Database>, engine: Engine) {
    this.#db = db;
    this.#engine = engine;
  }

  async createEndpoint(accountId: string, input: { url: string; description: string | null; events: string[] | null }, secret: string, limit: number, now: number): Promise<CreateEndpointResult> {
    const r = await insertWithinLimit(this.#db, this.#engine, "webhook_endpoints", accountId, limit, (trx) =>
      trx
        .insertInto("webhook_endpoints")
        .values({
          account_id: accountId,
          url: input.url,
          description: input.description,
          events: input.events === null ? null : JSON.stringify(input.events),
          status: "active",
          secret,
          previous_secret: null,
          previous_secret_expires_at: null,
          failure_streak: 0,
          streak_started_at: null,
          disabled_at: null,
          disabled_reason: null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return r.ok ? { ok: true, endpoint: toEndpoint(r.value) } : { ok: false, limit: r.limit };
  }

  async listEndpoints(accountId: string): Promise<WebhookEndpoint[]> {
    return (await this.#db.selectFrom("webhook_endpoints").selectAll().where("account_id", "=", accountId).orderBy("id").execute()).map(toEndpoint);
  }

  async getEndpoint(accountId: string, id: number): Promise<WebhookEndpoint | null> {
    const r = await this.#db.selectFrom("webhook_endpoints").selectAll().where("account_id", "=", accountId).where("id", "=", id).executeTakeFirst();
    return r ? toEndpoint(r) : null;
  }

  async updateEndpoint(accountId: string, id: number, patch: { url?: string; description?: string | null; events?: string[] | null }, now: number): Promise<WebhookEndpoint | null> {
    const set: Partial<EndpointRow> = { updated_at: now };
    if (patch.url !== undefined) set.url = patch.url;
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.events !== undefined) set.events = patch.events === null ? null : JSON.stringify(patch.events);
    const r = await this.#db.updateTable("webhook_endpoints").set(set).where("account_id", "=", accountId).where("id", "=", id).returningAll().executeTakeFirst();
    return r ? toEndpoint(r) : null;
  }

  async deleteEndpoint(accountId: string, id: number): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      const owned = await trx.selectFrom("webhook_endpoints").select("id").where("account_id", "=", accountId).where("id", "=", id).executeTakeFirst();
      if (!owned) return false;
      await trx
        .deleteFrom("webhook_attempts")
        .where("delivery_id", "in", (eb) => eb.selectFrom("webhook_deliveries").select("id").where("endpoint_id", "=", id))
        .execute();
      await trx.deleteFrom("webhook_deliveries").where("endpoint_id", "=", id).execute();
      await trx.deleteFrom("webhook_endpoints").where("id", "=", id).execute();
      return true;
    });
  }

  async rotateSecret(accountId: string, id: number, secret: string, previousUntil: number, now: number): Promise<WebhookEndpoint | null> {
    const keep = previousUntil > now;
    const r = await this.#db
      .updateTable("webhook_endpoints")
      .set((eb) => ({
        previous_secret: keep ? eb.ref("secret") : null,
        previous_secret_expires_at: keep ? previousUntil : null,
        secret,
        updated_at: now,
      }))
      .where("account_id", "=", accountId)
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
    return r ? toEndpoint(r) : null;
  }

  async enableEndpoint(accountId: string, id: number, now: number): Promise<WebhookEndpoint | null> {
    const r = await this.#db
      .updateTable("webhook_endpoints")
      .set({ status: "active", failure_streak: 0, streak_started_at: null, disabled_at: null, disabled_reason: null, updated_at: now })
      .where("account_id", "=", accountId)
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
    return r ? toEndpoint(r) : null;
  }

  async emitAlerts(alerts: readonly NewAlert[], now: number, cursor?: { name: string; value: number }): Promise<{ alerts: number; deliveries: number }> {
    if (alerts.length === 0 && !cursor) return { alerts: 0, deliveries: 0 };
    return this.#db.transaction().execute(async (trx) => {
      let created = 0;
      let deliveries = 0;
      const endpointsOf = new Map<string, EndpointRow[]>();
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
        let endpoints = endpointsOf.get(a.accountId);
        if (!endpoints) {
          endpoints = await trx.selectFrom("webhook_endpoints").selectAll().where("account_id", "=", a.accountId).orderBy("id").execute();
          endpointsOf.set(a.accountId, endpoints);
        }
        const rows = endpoints
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
      if (cursor) {
        await trx
          .insertInto("alert_cursors")
          .values({ name: cursor.name, value: cursor.value })
          .onConflict((oc) => oc.column("name").doUpdateSet({ value: cursor.value }))
          .execute();
      }
      return { alerts: created, deliveries };
    });
  }

  async createSingleDelivery(accountId: string, endpointId: number, type: EventType, body: (eventId: number, created: number) => string, trigger: Trigger, now: number): Promise<number | null> {
    return this.#db.transaction().execute(async (trx) => {
      const owned = await trx.selectFrom("webhook_endpoints").select("id").where("account_id", "=", accountId).where("id", "=", endpointId).executeTakeFirst();
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

  async claimDue(now: number, leaseMs: number, limit: number, onlyDeliveryId?: number): Promise<ClaimedDelivery[]> {
    const token = randomUUID();
    return this.#db.transaction().execute(async (trx) => {
      let pick = trx
        .selectFrom("webhook_deliveries as d")
        .innerJoin("webhook_endpoints as e", "e.id", "d.endpoint_id")
        .select(["d.id"])
        .where("d.status", "in", ACTIVE_STATES)
        .where((eb) => eb.or([eb("d.lease_until", "is", null), eb("d.lease_until", "<=", now)]));
      if (onlyDeliveryId !== undefined) pick = pick.where("d.id", "=", onlyDeliveryId);
      else pick = pick.where("d.next_attempt_at", "<=", now).where("e.status", "=", "active").orderBy("d.next_attempt_at").orderBy("d.id");
      pick = pick.limit(limit);
      if (this.#engine === "postgres") pick = pick.forUpdate("d").skipLocked();
      const ids = (await pick.execute()).map((r) => r.id);
      if (ids.length === 0) return [];

      // Attempts whose worker died before finishing: closed as interrupted, numbered as they were.
      await trx
        .updateTable("webhook_attempts")
        .set({ outcome: "interrupted", error_class: "interrupted", error: "the worker holding this attempt stopped before recording an answer; the lease expired" })
        .where("delivery_id", "in", ids)
        .where("outcome", "=", "in_flight")
        .execute();

      const claimed = await trx
        .updateTable("webhook_deliveries")
        .set((eb) => ({ attempts: eb("attempts", "+", 1), lease_token: token, lease_until: now + leaseMs, updated_at: now }))
        .where("id", "in", ids)
        .where("status", "in", ACTIVE_STATES)
        .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", now)]))
        .returning(["id", "attempts", "tries", "resume_status", "trigger", "event_id", "endpoint_id", "account_id"])
        .execute();
      if (claimed.length === 0) return [];

      const events = new Map(
        (
          await trx
            .selectFrom("webhook_events")
            .select(["id", "type", "body"])
            .where("id", "in", claimed.map((c) => c.event_id))
            .execute()
        ).map((e) => [e.id, e]),
      );
      const endpoints = new Map(
        (
          await trx
            .selectFrom("webhook_endpoints")
            .select(["id", "url", "secret", "previous_secret", "previous_secret_expires_at"])
            .where("id", "in", [...new Set(claimed.map((c) => c.endpoint_id))])
            .execute()
        ).map((e) => [e.id, e]),
      );
      const out: ClaimedDelivery[] = [];
      for (const c of claimed) {
        const ev = events.get(c.event_id)!;
        const ep = endpoints.get(c.endpoint_id)!;
        const secrets = [ep.secret];
        if (ep.previous_secret !== null && ep.previous_secret_expires_at !== null && ep.previous_secret_expires_at > now) secrets.push(ep.previous_secret);
        out.push({
          deliveryId: c.id,
          attempt: c.attempts,
          deliveryUuid: randomUUID(),
          leaseToken: token,
          trigger: c.trigger as Trigger,
          tries: c.tries,
          resumeStatus: c.resume_status as DeliveryStatus | null,
          eventId: c.event_id,
          eventType: ev.type,
          body: ev.body,
          endpointId: c.endpoint_id,
          accountId: c.account_id,
          url: ep.url,
          secrets,
        });
      }
      await trx
        .insertInto("webhook_attempts")
        .values(
          out.map((c) => ({
            delivery_id: c.deliveryId,
            attempt: c.attempt,
            delivery_uuid: c.deliveryUuid,
            trigger: c.trigger,
            outcome: "in_flight",
            started_at: now,
            duration_ms: null,
            status_code: null,
            error_class: null,
            error: null,
            response_snippet: null,
          })),
        )
        .execute();
      return out;
    });
  }

  async completeAttempt(claim: ClaimedDelivery, result: AttemptResult, now: number): Promise<{ applied: boolean; endpointDisabled: boolean }> {
    return (await this.completeAttempts([{ claim, result }], now))[0]!;
  }

  /**
   * Records a batch of outcomes in one transaction with a handful of statements, however
   * large the batch: the deliveries' next states grouped by lease and state, the log rows in
   * one upsert, one streak update per endpoint. The next state is computed from what the
   * claim read (tries, the state a one-off retry falls back to): while the lease is held,
   * nothing else changes the row, and a taken-over lease makes the update match nothing.
   */
  async completeAttempts(items: readonly { claim: ClaimedDelivery; result: AttemptResult }[], now: number): Promise<{ applied: boolean; endpointDisabled: boolean }[]> {
    if (items.length === 0) return [];
    return this.#db.transaction().execute(async (trx) => {
      const plans = items.map(({ claim, result }) => ({ claim, result, ...nextState(claim, result, now) }));

      const applied = new Set<number>();
      const groups = new Map<string, typeof plans>();
      for (const p of plans) {
        const k = `${p.claim.leaseToken}|${p.status}|${p.tries}|${p.next}`;
        const g = groups.get(k);
        if (g) g.push(p);
        else groups.set(k, [p]);
      }
      for (const g of groups.values()) {
        const { status, tries, next, claim } = g[0]!;
        const rows = await trx
          .updateTable("webhook_deliveries")
          .set({ status, tries, next_attempt_at: next, lease_token: null, lease_until: null, trigger: "auto", resume_status: null, updated_at: now })
          .where("id", "in", g.map((p) => p.claim.deliveryId))
          .where("lease_token", "=", claim.leaseToken)
          .returning("id")
          .execute();
        for (const r of rows) applied.add(r.id);
      }
      const done = plans.filter((p) => applied.has(p.claim.deliveryId));
      if (done.length > 0) {
        await trx
          .insertInto("webhook_attempts")
          .values(
            done.map(({ claim, result }) => ({
              delivery_id: claim.deliveryId,
              attempt: claim.attempt,
              delivery_uuid: claim.deliveryUuid,
              trigger: claim.trigger,
              outcome: result.success ? "succeeded" : "failed",
              started_at: now,
              duration_ms: Math.round(result.durationMs),
              status_code: result.statusCode,
              error_class: result.errorClass,
              error: result.error,
              response_snippet: result.responseSnippet,
            })),
          )
          .onConflict((oc) =>
            oc
              .columns(["delivery_id", "attempt"])
              .doUpdateSet((eb) => ({
                outcome: eb.ref("excluded.outcome"),
                duration_ms: eb.ref("excluded.duration_ms"),
                status_code: eb.ref("excluded.status_code"),
                error_class: eb.ref("excluded.error_class"),
                error: eb.ref("excluded.error"),
                response_snippet: eb.ref("excluded.response_snippet"),
              }))
              .where("webhook_attempts.outcome", "=", "in_flight"),
          )
          .execute();
      }

      // Only the schedule's own attempts move the streak: an owner's test or retry says nothing about the endpoint's health over time.
      const byEndpoint = new Map<number, boolean[]>();
      for (const p of done) {
        if (p.claim.trigger !== "auto") continue;
        const seq = byEndpoint.get(p.claim.endpointId) ?? [];
        seq.push(p.result.success);
        byEndpoint.set(p.claim.endpointId, seq);
      }
      const disabledNow = new Set<number>();
      for (const [endpointId, seq] of byEndpoint) {
        const r = await this.#streak(trx, endpointId, seq, now);
        if (r.justDisabled) disabledNow.add(endpointId);
        if (r.status !== "active") {
          // Nothing more goes to a turned-off endpoint: its queued deliveries stay in the log as skipped.
          await trx
            .updateTable("webhook_deliveries")
            .set({ status: "skipped", next_attempt_at: null, updated_at: now })
            .where("endpoint_id", "=", endpointId)
            .where("status", "in", ACTIVE_STATES)
            .where("lease_token", "is", null)
            .execute();
        }
      }
      return plans.map((p) => {
        const first = applied.has(p.claim.deliveryId) && !p.result.success && disabledNow.delete(p.claim.endpointId);
        return { applied: applied.has(p.claim.deliveryId), endpointDisabled: first };
      });
    });
  }

  /**
   * Applies a batch's outcomes for one endpoint, in order, to its failure streak in one
   * statement. After a success in the batch the streak is the failures that followed it;
   * otherwise it grows by the batch's failures. The row is locked first (PostgreSQL), so
   * concurrent batches queue and each sees the other's count: no lost updates, and exactly
   * one batch sees the endpoint go from active to turned off.
   */
  async #streak(trx: Transaction<Database>, endpointId: number, outcomes: readonly boolean[], now: number): Promise<{ status: string; justDisabled: boolean }> {
    let before = trx.selectFrom("webhook_endpoints").select("status").where("id", "=", endpointId);
    if (this.#engine === "postgres") before = before.forUpdate();
    const was = (await before.executeTakeFirst())?.status;
    if (was === undefined) return { status: "deleted", justDisabled: false };
    const lastSuccess = outcomes.lastIndexOf(true);
    const failuresAfter = outcomes.length - 1 - lastSuccess;
    if (lastSuccess >= 0) {
      // Fewer than 15 failures all at one instant can never span 24 h: no turn-off to check.
      await trx
        .updateTable("webhook_endpoints")
        .set({ failure_streak: failuresAfter, streak_started_at: failuresAfter > 0 ? now : null })
        .where("id", "=", endpointId)
        .execute();
      return { status: was, justDisabled: false };
    }
    const n = sql<number>`CAST(${now} AS bigint)`;
    const turnOff = sql<boolean>`status = 'active' AND failure_streak + ${failuresAfter} >= ${DISABLE_AFTER_FAILURES} AND ${n} - COALESCE(streak_started_at, ${n}) >= ${DISABLE_SPAN_MS}`;
    const r = await trx
      .updateTable("webhook_endpoints")
      .set({
        failure_streak: sql`failure_streak + ${failuresAfter}`,
        streak_started_at: sql`COALESCE(streak_started_at, ${n})`,
        status: sql`CASE WHEN ${turnOff} THEN 'disabled' ELSE status END`,
        disabled_at: sql`CASE WHEN ${turnOff} THEN ${n} ELSE disabled_at END`,
        disabled_reason: sql`CASE WHEN ${turnOff} THEN ${DISABLED_REASON} ELSE disabled_reason END`,
        updated_at: sql`CASE WHEN ${turnOff} THEN ${n} ELSE updated_at END`,
      })
      .where("id", "=", endpointId)
      .returning("status")
      .executeTakeFirstOrThrow();
    return { status: r.status, justDisabled: was === "active" && r.status === "disabled" };
  }

  async listDeliveries(accountId: string, endpointId: number, filter: DeliveryFilter): Promise<Delivery[]> {
    let q = this.#db
      .selectFrom("webhook_deliveries as d")
      .innerJoin("webhook_events as ev", "ev.id", "d.event_id")
      .selectAll("d")
      .select("ev.type")
      .where("d.account_id", "=", accountId)
      .where("d.endpoint_id", "=", endpointId);
    if (filter.eventId !== undefined) q = q.where("d.event_id", "=", filter.eventId);
    if (filter.status !== undefined) q = q.where("d.status", "=", filter.status);
    if (filter.from !== undefined) q = q.where("d.created_at", ">=", filter.from);
    if (filter.to !== undefined) q = q.where("d.created_at", "<", filter.to);
    if (filter.beforeId !== undefined) q = q.where("d.id", "<", filter.beforeId);
    const rows = await q.orderBy("d.id", "desc").limit(filter.limit).execute();
    return this.#withLogs(rows);
  }

  async getDelivery(accountId: string, deliveryId: number): Promise<Delivery | null> {
    const rows = await this.#db
      .selectFrom("webhook_deliveries as d")
      .innerJoin("webhook_events as ev", "ev.id", "d.event_id")
      .selectAll("d")
      .select("ev.type")
      .where("d.account_id", "=", accountId)
      .where("d.id", "=", deliveryId)
      .execute();
    return (await this.#withLogs(rows))[0] ?? null;
  }

  async #withLogs(rows: (DeliveryRow & { type: string })[]): Promise<Delivery[]> {
    if (rows.length === 0) return [];
    const attempts = await this.#db
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
    const outcome = await this.#db.transaction().execute(async (trx): Promise<RetryOutcome | "ok"> => {
      let q = trx
        .selectFrom("webhook_deliveries as d")
        .innerJoin("webhook_endpoints as e", "e.id", "d.endpoint_id")
        .select(["d.status", "d.lease_until", "d.lease_token", "e.status as endpointStatus"])
        .where("d.account_id", "=", accountId)
        .where("d.id", "=", deliveryId);
      if (this.#engine === "postgres") q = q.forUpdate("d");
      const d = await q.executeTakeFirst();
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
    return { ok: true, delivery: (await this.getDelivery(accountId, deliveryId))! };
  }
}
