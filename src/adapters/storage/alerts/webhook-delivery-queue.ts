import { SqlStore } from "../sql-store.ts";
import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { healthAfter, DISABLED_REASON } from "../../../domain/webhooks/endpoint-health.ts";
import { nextDeliveryState } from "../../../domain/webhooks/delivery-state.ts";
import type { AttemptResult, ClaimedDelivery, CompletedAttempt, DeliveryStatus, Trigger } from "../../../interfaces/webhooks.ts";
import type { SecretBox } from "../accounts/secret-box.ts";
import type { SqlDialect } from "../dialect/dialect.ts";
import type { Database } from "../schema.ts";

/** Deliveries still to be attempted. */
export const ACTIVE_STATES = ["pending", "retrying"] as const;

/**
 * The deliveries table as a queue. Claiming is one transaction: pick due rows of active
 * endpoints whose lease is free or expired (where the engine has row locks, rows other
 * workers hold are passed over), set a new lease token, number the attempt and log it
 * `in_flight`. Completing is conditional on that token, so a worker whose lease was taken
 * over cannot overwrite the newer attempt. The next state and the turn-off rule are the
 * domain's (delivery-state, endpoint-health); all times are parameters from the injected
 * clock, SQL never reads its own, so tests can drive the whole schedule.
 */
export class SqlDeliveryQueue extends SqlStore {
  readonly #box: SecretBox;

  constructor(db: Kysely<Database>, dialect: SqlDialect, box: SecretBox) {
    super(db, dialect);
    this.#box = box;
  }

  async claimDue(now: number, leaseMs: number, limit: number, onlyDeliveryId?: number): Promise<ClaimedDelivery[]> {
    const token = randomUUID();
    return this.db.transaction().execute(async (trx) => {
      let pick = trx
        .selectFrom("webhook_deliveries as d")
        .innerJoin("webhook_endpoints as e", "e.id", "d.endpoint_id")
        .select(["d.id"])
        .where("d.status", "in", ACTIVE_STATES)
        .where((eb) => eb.or([eb("d.lease_until", "is", null), eb("d.lease_until", "<=", now)]));
      if (onlyDeliveryId !== undefined) pick = pick.where("d.id", "=", onlyDeliveryId);
      else pick = pick.where("d.next_attempt_at", "<=", now).where("e.status", "=", "active").orderBy("d.next_attempt_at").orderBy("d.id");
      pick = this.dialect.lockRows(pick.limit(limit), { of: "d", skipLocked: true });
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
        const secrets = [this.#box.open(ep.secret)];
        if (ep.previous_secret !== null && ep.previous_secret_expires_at !== null && ep.previous_secret_expires_at > now) secrets.push(this.#box.open(ep.previous_secret));
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
  async completeAttempts(items: readonly CompletedAttempt[], now: number): Promise<{ applied: boolean; endpointDisabled: boolean }[]> {
    if (items.length === 0) return [];
    return this.db.transaction().execute(async (trx) => {
      // The endpoints first, then their deliveries: the order a delete takes them in, so the two
      // queue behind each other instead of deadlocking, and an attempt of a deleted endpoint
      // finds its delivery gone (not applied) instead of logging against a deleted row.
      const endpointIds = [...new Set(items.map((i) => i.claim.endpointId))].sort((a, b) => a - b);
      await this.dialect.lockRows(trx.selectFrom("webhook_endpoints").select("id").where("id", "in", endpointIds).orderBy("id")).execute();
      const plans = items.map(({ claim, result, endedAt }) => ({ claim, result, ...nextDeliveryState(claim, result.success, endedAt ?? now) }));

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

  async releaseClaims(claims: readonly ClaimedDelivery[], now: number): Promise<void> {
    const byLease = new Map<string, ClaimedDelivery[]>();
    for (const c of claims) byLease.set(c.leaseToken, [...(byLease.get(c.leaseToken) ?? []), c]);
    await this.db.transaction().execute(async (trx) => {
      for (const [token, group] of byLease) {
        const released = await trx
          .updateTable("webhook_deliveries")
          .set((eb) => ({ attempts: eb("attempts", "-", 1), lease_token: null, lease_until: null, updated_at: now }))
          .where("id", "in", group.map((c) => c.deliveryId))
          .where("lease_token", "=", token)
          .returning(["id", "attempts"])
          .execute();
        // The attempt number the claim took is free again: its in-flight row goes with it.
        for (const r of released) {
          await trx
            .deleteFrom("webhook_attempts")
            .where("delivery_id", "=", r.id)
            .where("attempt", "=", r.attempts + 1)
            .where("outcome", "=", "in_flight")
            .execute();
        }
      }
    });
  }

  /**
   * Applies a batch's outcomes for one endpoint, in order, to its failure streak (the rule is
   * the domain's healthAfter). The row is locked first where the engine has row locks (on
   * SQLite the transaction already holds the write lock from its delivery updates), so
   * concurrent batches queue and each sees the other's count: no lost updates, and exactly
   * one batch sees the endpoint go from active to turned off.
   */
  async #streak(trx: Transaction<Database>, endpointId: number, outcomes: readonly boolean[], now: number): Promise<{ status: string; justDisabled: boolean }> {
    const before = trx.selectFrom("webhook_endpoints").select(["status", "failure_streak", "streak_started_at"]).where("id", "=", endpointId);
    const was = await this.dialect.lockRows(before).executeTakeFirst();
    if (was === undefined) return { status: "deleted", justDisabled: false };
    const after = healthAfter(
      { status: was.status === "disabled" ? "disabled" : "active", failureStreak: was.failure_streak, streakStartedAt: was.streak_started_at },
      outcomes,
      now,
    );
    await trx
      .updateTable("webhook_endpoints")
      .set({
        failure_streak: after.failureStreak,
        streak_started_at: after.streakStartedAt,
        ...(after.turnOff ? { status: "disabled", disabled_at: now, disabled_reason: DISABLED_REASON, updated_at: now } : {}),
      })
      .where("id", "=", endpointId)
      .execute();
    return after.turnOff ? { status: "disabled", justDisabled: true } : { status: was.status, justDisabled: false };
  }
}
