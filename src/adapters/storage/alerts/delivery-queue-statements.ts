import { randomUUID } from "node:crypto";
import { type Kysely, sql, type Transaction } from "kysely";
import type { SqlDialect } from "../dialect/dialect.ts";
import type { Database } from "../schema.ts";

/** Deliveries still to be attempted. */
export const ACTIVE_STATES = ["pending", "retrying"] as const;

/**
 * ACTIVE_STATES written into the statement instead of bound: SQLite uses a partial index
 * only when it can prove the query implies the index's WHERE from the statement's text, and
 * the due index is `WHERE status IN ('pending', 'retrying')`. With the two states bound,
 * the claim's pick scanned the whole deliveries table and sorted it (EXPLAIN QUERY PLAN:
 * `SCAN d`, `USE TEMP B-TREE FOR ORDER BY`; 0.98 ms a pick at 10,000 due rows, growing with
 * the log); written in, it walks the due index in claim order (0.036 ms).
 */
const ACTIVE_STATES_INLINE = ACTIVE_STATES.map((s) => sql.lit(s));

/** What the log says of an attempt whose worker stopped before recording an answer. */
export const INTERRUPTED_ERROR = "the worker holding this attempt stopped before recording an answer; the lease expired";

/** A claimed delivery as the claim statement reads it: the delivery, its event, its endpoint (secrets still sealed). */
export interface ClaimRow {
  id: number;
  attempts: number;
  tries: number;
  resume_status: string | null;
  trigger: string;
  event_id: number;
  endpoint_id: number;
  account_id: string;
  delivery_uuid: string;
  event_type: string;
  body: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
}

/** One attempt's outcome as it is written: its delivery's next state and its log row. */
export interface SettleRow {
  deliveryId: number;
  leaseToken: string;
  status: string;
  tries: number;
  next: number | null;
  attempt: number;
  deliveryUuid: string;
  trigger: string;
  outcome: "succeeded" | "failed";
  durationMs: number;
  statusCode: number | null;
  errorClass: string | null;
  error: string | null;
  responseSnippet: string | null;
}

/**
 * An outcome that was written: its delivery, under the lease it was claimed with. A batch may
 * hold two outcomes of one delivery (a claim whose lease expired and the claim that took it
 * over), so the delivery alone does not say which of them counted.
 */
export interface AppliedOutcome {
  deliveryId: number;
  leaseToken: string;
}

/** Names an outcome by its delivery and lease. */
export function outcomeKey(o: AppliedOutcome): string {
  return `${o.deliveryId}|${o.leaseToken}`;
}

/** An endpoint's failure streak as read under its lock. */
export interface EndpointHealthRow {
  id: number;
  status: string;
  failure_streak: number;
  streak_started_at: number | null;
}

/** An endpoint's failure streak as the batch leaves it. */
export interface EndpointHealthWrite {
  id: number;
  failureStreak: number;
  streakStartedAt: number | null;
  turnOff: boolean;
  disabledReason: string;
}

/**
 * The statements of the delivery queue that an engine may write its own way (claiming,
 * settling a batch of outcomes, writing streaks). What they decide (next states, the
 * turn-off rule) is computed by the queue from the domain's functions, the same for every
 * engine; these only read and write.
 */
export interface DeliveryQueueStatements {
  /**
   * Claims up to `limit` due deliveries of active endpoints (or just `onlyDeliveryId`) under
   * lease `token`, atomically: an earlier attempt left in flight is closed as interrupted, the
   * attempt numbered and logged in flight.
   */
  claim(now: number, leaseMs: number, limit: number, token: string, onlyDeliveryId?: number): Promise<ClaimRow[]>;
  /**
   * Within `trx`: locks the endpoints (in id order, the order a delete takes them in), writes
   * each outcome whose lease is still held (delivery state and log row), and reads the
   * endpoints' streaks as they stand under the lock. Returns the deliveries written.
   */
  settle(trx: Transaction<Database>, endpointIds: readonly number[], rows: readonly SettleRow[], now: number): Promise<{ applied: AppliedOutcome[]; health: EndpointHealthRow[] }>;
  /** Within `trx`: the endpoints' new streaks (and turn-offs). */
  writeHealth(trx: Transaction<Database>, writes: readonly EndpointHealthWrite[], now: number): Promise<void>;
}

/**
 * The statements through Kysely, as they read on every engine: a claim is one transaction
 * of a few statements, a settle a few statements per batch (one update per group of
 * deliveries going to the same state, the log rows in one upsert). SQLite runs them; on
 * SQLite a statement costs no round trip, so their number matters little there.
 */
export class PortableDeliveryQueueStatements implements DeliveryQueueStatements {
  readonly #db: Kysely<Database>;
  readonly #dialect: SqlDialect;

  constructor(db: Kysely<Database>, dialect: SqlDialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  claim(now: number, leaseMs: number, limit: number, token: string, onlyDeliveryId?: number): Promise<ClaimRow[]> {
    return this.#db.transaction().execute(async (trx) => {
      let pick = trx
        .selectFrom("webhook_deliveries as d")
        .innerJoin("webhook_endpoints as e", "e.id", "d.endpoint_id")
        .select(["d.id"])
        .where("d.status", "in", ACTIVE_STATES_INLINE)
        .where((eb) => eb.or([eb("d.lease_until", "is", null), eb("d.lease_until", "<=", now)]));
      if (onlyDeliveryId !== undefined) pick = pick.where("d.id", "=", onlyDeliveryId);
      else pick = pick.where("d.next_attempt_at", "<=", now).where("e.status", "=", "active").orderBy("d.next_attempt_at").orderBy("d.id");
      pick = this.#dialect.lockRows(pick.limit(limit), { of: "d", skipLocked: true });
      const ids = (await pick.execute()).map((r) => r.id);
      if (ids.length === 0) return [];

      // Attempts whose worker died before finishing: closed as interrupted, numbered as they were.
      await trx.updateTable("webhook_attempts").set({ outcome: "interrupted", error_class: "interrupted", error: INTERRUPTED_ERROR }).where("delivery_id", "in", ids).where("outcome", "=", "in_flight").execute();

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
      const rows: ClaimRow[] = claimed.map((c) => {
        const ev = events.get(c.event_id)!;
        const ep = endpoints.get(c.endpoint_id)!;
        return { ...c, delivery_uuid: randomUUID(), event_type: ev.type, body: ev.body, url: ep.url, secret: ep.secret, previous_secret: ep.previous_secret, previous_secret_expires_at: ep.previous_secret_expires_at };
      });
      await trx
        .insertInto("webhook_attempts")
        .values(
          rows.map((c) => ({
            delivery_id: c.id,
            attempt: c.attempts,
            delivery_uuid: c.delivery_uuid,
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
      return rows;
    });
  }

  async settle(trx: Transaction<Database>, endpointIds: readonly number[], rows: readonly SettleRow[], now: number): Promise<{ applied: AppliedOutcome[]; health: EndpointHealthRow[] }> {
    await this.#dialect.lockRows(trx.selectFrom("webhook_endpoints").select("id").where("id", "in", endpointIds).orderBy("id")).execute();
    const applied: AppliedOutcome[] = [];
    const groups = new Map<string, SettleRow[]>();
    for (const r of rows) {
      const k = `${r.leaseToken}|${r.status}|${r.tries}|${r.next}`;
      const g = groups.get(k);
      if (g) g.push(r);
      else groups.set(k, [r]);
    }
    for (const g of groups.values()) {
      const { status, tries, next, leaseToken } = g[0]!;
      const written = await trx
        .updateTable("webhook_deliveries")
        .set({ status, tries, next_attempt_at: next, lease_token: null, lease_until: null, trigger: "auto", resume_status: null, updated_at: now })
        .where("id", "in", g.map((r) => r.deliveryId))
        .where("lease_token", "=", leaseToken)
        .returning("id")
        .execute();
      for (const w of written) applied.push({ deliveryId: w.id, leaseToken });
    }
    const done = new Set(applied.map(outcomeKey));
    const logged = rows.filter((r) => done.has(outcomeKey(r)));
    if (logged.length > 0) {
      await trx
        .insertInto("webhook_attempts")
        .values(
          logged.map((r) => ({
            delivery_id: r.deliveryId,
            attempt: r.attempt,
            delivery_uuid: r.deliveryUuid,
            trigger: r.trigger,
            outcome: r.outcome,
            started_at: now,
            duration_ms: r.durationMs,
            status_code: r.statusCode,
            error_class: r.errorClass,
            error: r.error,
            response_snippet: r.responseSnippet,
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
    // Read after the writes: on SQLite the transaction holds the write lock from them, so no
    // other process changes a streak between this read and its update.
    const health = await trx.selectFrom("webhook_endpoints").select(["id", "status", "failure_streak", "streak_started_at"]).where("id", "in", endpointIds).execute();
    return { applied, health };
  }

  async writeHealth(trx: Transaction<Database>, writes: readonly EndpointHealthWrite[], now: number): Promise<void> {
    for (const w of writes) {
      await trx
        .updateTable("webhook_endpoints")
        .set({
          failure_streak: w.failureStreak,
          streak_started_at: w.streakStartedAt,
          ...(w.turnOff ? { status: "disabled", disabled_at: now, disabled_reason: w.disabledReason, updated_at: now } : {}),
        })
        .where("id", "=", w.id)
        .execute();
    }
  }
}
