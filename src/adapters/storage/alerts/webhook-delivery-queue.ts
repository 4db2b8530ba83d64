import { SqlStore } from "../sql-store.ts";
import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { healthAfter, DISABLED_REASON } from "../../../domain/webhooks/endpoint-health.ts";
import { nextDeliveryState } from "../../../domain/webhooks/delivery-state.ts";
import type { AttemptResult, ClaimedDelivery, CompletedAttempt, DeliveryStatus, Trigger } from "../../../interfaces/webhooks.ts";
import type { SecretBox } from "../accounts/secret-box.ts";
import type { SqlDialect } from "../dialect/dialect.ts";
import type { Database } from "../schema.ts";
import { ACTIVE_STATES, type DeliveryQueueStatements, type EndpointHealthWrite, outcomeKey, PortableDeliveryQueueStatements, type SettleRow } from "./delivery-queue-statements.ts";
import { PostgresDeliveryQueueStatements } from "./delivery-queue-statements-postgres.ts";

/**
 * The deliveries table as a queue. A claim picks due rows of active endpoints whose lease is
 * free or expired (where the engine has row locks, rows other workers hold are passed over),
 * sets a new lease token, numbers the attempt and logs it `in_flight`, atomically. Completing
 * is conditional on that token, so a worker whose lease was taken over cannot overwrite the
 * newer attempt. The next state and the turn-off rule are the domain's (delivery-state,
 * endpoint-health); all times are parameters from the injected clock, SQL never reads its
 * own, so tests can drive the whole schedule. How each engine words the statements is in
 * delivery-queue-statements*.ts.
 */
export class SqlDeliveryQueue extends SqlStore {
  readonly #box: SecretBox;
  readonly #statements: DeliveryQueueStatements;

  constructor(db: Kysely<Database>, dialect: SqlDialect, box: SecretBox) {
    super(db, dialect);
    this.#box = box;
    this.#statements = dialect.engine === "postgres" ? new PostgresDeliveryQueueStatements(db, dialect) : new PortableDeliveryQueueStatements(db, dialect);
  }

  async claimDue(now: number, leaseMs: number, limit: number, onlyDeliveryId?: number): Promise<ClaimedDelivery[]> {
    const token = randomUUID();
    const rows = await this.#statements.claim(now, leaseMs, limit, token, onlyDeliveryId);
    // Opened once per endpoint and claim: a batch is mostly a few endpoints' deliveries.
    const secrets = new Map<number, string[]>();
    return rows.map((c) => {
      let s = secrets.get(c.endpoint_id);
      if (s === undefined) {
        s = [this.#box.open(c.secret)];
        if (c.previous_secret !== null && c.previous_secret_expires_at !== null && c.previous_secret_expires_at > now) s.push(this.#box.open(c.previous_secret));
        secrets.set(c.endpoint_id, s);
      }
      return {
        deliveryId: c.id,
        attempt: c.attempts,
        deliveryUuid: c.delivery_uuid,
        leaseToken: token,
        trigger: c.trigger as Trigger,
        tries: c.tries,
        resumeStatus: c.resume_status as DeliveryStatus | null,
        eventId: c.event_id,
        eventType: c.event_type,
        body: c.body,
        endpointId: c.endpoint_id,
        accountId: c.account_id,
        url: c.url,
        secrets: s,
      };
    });
  }

  async completeAttempt(claim: ClaimedDelivery, result: AttemptResult, now: number): Promise<{ applied: boolean; endpointDisabled: boolean }> {
    return (await this.completeAttempts([{ claim, result }], now))[0]!;
  }

  /**
   * Records a batch of outcomes in one transaction with a bounded number of statements,
   * however large the batch: every outcome's delivery state and log row, then one streak
   * write for the endpoints whose streak changed. The next state is computed from what the
   * claim read (tries, the state a one-off retry falls back to): while the lease is held,
   * nothing else changes the row, and a taken-over lease makes the write match nothing.
   */
  async completeAttempts(items: readonly CompletedAttempt[], now: number): Promise<{ applied: boolean; endpointDisabled: boolean }[]> {
    if (items.length === 0) return [];
    const rows: SettleRow[] = items.map(({ claim, result, endedAt }) => {
      const next = nextDeliveryState(claim, result.success, endedAt ?? now);
      return {
        deliveryId: claim.deliveryId,
        leaseToken: claim.leaseToken,
        status: next.status,
        tries: next.tries,
        next: next.next,
        attempt: claim.attempt,
        deliveryUuid: claim.deliveryUuid,
        trigger: claim.trigger,
        outcome: result.success ? "succeeded" : "failed",
        durationMs: Math.round(result.durationMs),
        statusCode: result.statusCode,
        errorClass: result.errorClass,
        error: result.error,
        responseSnippet: result.responseSnippet,
      };
    });
    // The endpoints are locked first, then their deliveries written: the order a delete takes
    // them in, so the two queue behind each other instead of deadlocking, and an attempt of a
    // deleted endpoint finds its delivery gone (not applied) instead of logging against a deleted row.
    const endpointIds = [...new Set(items.map((i) => i.claim.endpointId))].sort((a, b) => a - b);
    return this.db.transaction().execute(async (trx) => {
      const settled = await this.#statements.settle(trx, endpointIds, rows, now);
      const applied = new Set(settled.applied.map(outcomeKey));
      const health = new Map(settled.health.map((h) => [h.id, h]));

      // Only the schedule's own attempts move the streak: an owner's test or retry says nothing
      // about the endpoint's health over time. Outcomes in the order they were handed in.
      const byEndpoint = new Map<number, boolean[]>();
      for (const { claim, result } of items) {
        if (claim.trigger !== "auto" || !applied.has(outcomeKey(claim))) continue;
        const seq = byEndpoint.get(claim.endpointId) ?? [];
        seq.push(result.success);
        byEndpoint.set(claim.endpointId, seq);
      }
      const writes: EndpointHealthWrite[] = [];
      const disabledNow = new Set<number>();
      const turnedOff: number[] = [];
      for (const [endpointId, outcomes] of byEndpoint) {
        const was = health.get(endpointId);
        if (was === undefined) continue; // deleted meanwhile
        const after = healthAfter({ status: was.status === "disabled" ? "disabled" : "active", failureStreak: was.failure_streak, streakStartedAt: was.streak_started_at }, outcomes, now);
        // An unchanged streak is not written again (a run of successes on a healthy endpoint).
        if (after.turnOff || after.failureStreak !== was.failure_streak || after.streakStartedAt !== was.streak_started_at) {
          writes.push({ id: endpointId, failureStreak: after.failureStreak, streakStartedAt: after.streakStartedAt, turnOff: after.turnOff, disabledReason: DISABLED_REASON });
        }
        if (after.turnOff) disabledNow.add(endpointId);
        if (after.turnOff || was.status !== "active") turnedOff.push(endpointId);
      }
      await this.#statements.writeHealth(trx, writes, now);
      // Nothing more goes to a turned-off endpoint: its queued deliveries stay in the log as skipped.
      if (turnedOff.length > 0) {
        await trx
          .updateTable("webhook_deliveries")
          .set({ status: "skipped", next_attempt_at: null, updated_at: now })
          .where("endpoint_id", "in", turnedOff)
          .where("status", "in", ACTIVE_STATES)
          .where("lease_token", "is", null)
          .execute();
      }
      return items.map(({ claim, result }) => {
        const written = applied.has(outcomeKey(claim));
        return { applied: written, endpointDisabled: written && !result.success && disabledNow.delete(claim.endpointId) };
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
          await trx.deleteFrom("webhook_attempts").where("delivery_id", "=", r.id).where("attempt", "=", r.attempts + 1).where("outcome", "=", "in_flight").execute();
        }
      }
    });
  }
}
