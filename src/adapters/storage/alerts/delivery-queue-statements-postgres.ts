import { CompiledQuery, type Kysely, type Transaction } from "kysely";
import type { SqlDialect } from "../dialect/dialect.ts";
import type { Database } from "../schema.ts";
import { ACTIVE_STATES, type AppliedOutcome, type ClaimRow, type DeliveryQueueStatements, type EndpointHealthRow, type EndpointHealthWrite, INTERRUPTED_ERROR, type SettleRow } from "./delivery-queue-statements.ts";

const ACTIVE = ACTIVE_STATES.map((s) => `'${s}'`).join(", ");

/**
 * The claim as one statement: pick due rows (passing over rows other workers hold), lease
 * them, close attempts a dead worker left in flight, log the new attempts in flight, and
 * read each claim's event and endpoint. $1 now, $2 lease ms, $3 limit, $4 lease token; the
 * pick is one of the two below. Data-modifying CTEs all run to completion whether or not the
 * outer query reads them, and see one snapshot: `interrupted` and `logged` touch different
 * attempt rows (the old number and the new one).
 */
const claimSql = (pick: string) => `
WITH pick AS (${pick}),
claimed AS (
  UPDATE webhook_deliveries d
     SET attempts = d.attempts + 1, lease_token = $4, lease_until = $1::int8 + $2::int8, updated_at = $1
    FROM pick
   WHERE d.id = pick.id AND d.status IN (${ACTIVE}) AND (d.lease_until IS NULL OR d.lease_until <= $1)
  RETURNING d.id, d.attempts, d.tries, d.resume_status, d.trigger, d.event_id, d.endpoint_id, d.account_id
),
interrupted AS (
  UPDATE webhook_attempts a
     SET outcome = 'interrupted', error_class = 'interrupted', error = '${INTERRUPTED_ERROR.replaceAll("'", "''")}'
    FROM claimed c
   WHERE a.delivery_id = c.id AND a.outcome = 'in_flight'
),
logged AS (
  INSERT INTO webhook_attempts (delivery_id, attempt, delivery_uuid, trigger, outcome, started_at)
  SELECT c.id, c.attempts, gen_random_uuid()::text, c.trigger, 'in_flight', $1 FROM claimed c
  RETURNING delivery_id, delivery_uuid
)
SELECT c.id, c.attempts, c.tries, c.resume_status, c.trigger, c.event_id, c.endpoint_id, c.account_id, l.delivery_uuid,
       ev.type AS event_type, ev.body, e.url, e.secret, e.previous_secret, e.previous_secret_expires_at
  FROM claimed c
  JOIN logged l ON l.delivery_id = c.id
  JOIN webhook_events ev ON ev.id = c.event_id
  JOIN webhook_endpoints e ON e.id = c.endpoint_id
 ORDER BY c.id`;

/** Due rows of active endpoints, oldest due first. */
const CLAIM_DUE = claimSql(`
  SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
   WHERE d.status IN (${ACTIVE}) AND (d.lease_until IS NULL OR d.lease_until <= $1)
     AND d.next_attempt_at <= $1 AND e.status = 'active'
   ORDER BY d.next_attempt_at, d.id
   LIMIT $3
   FOR UPDATE OF d SKIP LOCKED`);

/** One delivery by id, due or not, whatever its endpoint's state (tests, owners' retries). */
const CLAIM_ONE = claimSql(`
  SELECT d.id FROM webhook_deliveries d
   WHERE d.id = $5 AND d.status IN (${ACTIVE}) AND (d.lease_until IS NULL OR d.lease_until <= $1)
   LIMIT $3
   FOR UPDATE OF d SKIP LOCKED`);

/**
 * A batch's outcomes as one statement, the endpoints' locks first: `locked` takes the
 * batch's endpoints in id order (the order a delete takes them in, so the two queue instead
 * of deadlocking) and reads their streaks under the lock; the update waits for it through a
 * condition without columns (`(SELECT count(*) FROM locked) >= 0`), which PostgreSQL checks
 * once before reading any delivery. The arrays are the outcomes column by column; each
 * delivery is written only while the claim's lease is still on it, and its log row (in
 * flight since the claim) only when the delivery was. `d.id = ANY(...)` gives the planner a
 * condition on the key, which it cannot read from a join to the unnest, so that on a large
 * delivery log it can fetch the batch's rows by key instead of scanning the log (on the
 * bench's 5,000 rows it still scans, which is cheaper there). Rows of kind `d` are the
 * deliveries written, of kind `e` the endpoints' streaks. It was two statements, the lock
 * and the write: one round trip fewer per batch.
 */
const SETTLE = `
WITH locked AS (
  SELECT id, status, failure_streak, streak_started_at FROM webhook_endpoints WHERE id = ANY($16::int4[]) ORDER BY id FOR UPDATE
),
o AS (
  SELECT * FROM unnest($2::int4[], $3::text[], $4::text[], $5::int4[], $6::int8[], $7::int4[], $8::text[], $9::text[], $10::text[], $11::int4[], $12::int4[], $13::text[], $14::text[], $15::text[])
    AS o(delivery_id, lease_token, status, tries, next, attempt, delivery_uuid, trigger, outcome, duration_ms, status_code, error_class, error, response_snippet)
),
settled AS (
  UPDATE webhook_deliveries d
     SET status = o.status, tries = o.tries, next_attempt_at = o.next, lease_token = NULL, lease_until = NULL, trigger = 'auto', resume_status = NULL, updated_at = $1
    FROM o
   WHERE (SELECT count(*) FROM locked) >= 0
     AND d.id = ANY($2::int4[]) AND d.id = o.delivery_id AND d.lease_token = o.lease_token
  RETURNING d.id, o.lease_token
),
logged AS (
  INSERT INTO webhook_attempts (delivery_id, attempt, delivery_uuid, trigger, outcome, started_at, duration_ms, status_code, error_class, error, response_snippet)
  SELECT o.delivery_id, o.attempt, o.delivery_uuid, o.trigger, o.outcome, $1, o.duration_ms, o.status_code, o.error_class, o.error, o.response_snippet
    FROM o JOIN settled s ON s.id = o.delivery_id AND s.lease_token = o.lease_token
  ON CONFLICT (delivery_id, attempt) DO UPDATE
     SET outcome = excluded.outcome, duration_ms = excluded.duration_ms, status_code = excluded.status_code,
         error_class = excluded.error_class, error = excluded.error, response_snippet = excluded.response_snippet
   WHERE webhook_attempts.outcome = 'in_flight'
)
SELECT 'd' AS kind, id, lease_token, NULL::text AS status, NULL::int4 AS failure_streak, NULL::int8 AS streak_started_at FROM settled
UNION ALL
SELECT 'e', id, NULL, status, failure_streak, streak_started_at FROM locked`;

/** Streaks (and turn-offs) of many endpoints in one statement. */
const WRITE_HEALTH = `
UPDATE webhook_endpoints e
   SET failure_streak = w.failure_streak,
       streak_started_at = w.streak_started_at,
       status = CASE WHEN w.turn_off THEN 'disabled' ELSE e.status END,
       disabled_at = CASE WHEN w.turn_off THEN $1 ELSE e.disabled_at END,
       disabled_reason = CASE WHEN w.turn_off THEN w.reason ELSE e.disabled_reason END,
       updated_at = CASE WHEN w.turn_off THEN $1 ELSE e.updated_at END
  FROM unnest($2::int4[], $3::int4[], $4::int8[], $5::bool[], $6::text[]) AS w(id, failure_streak, streak_started_at, turn_off, reason)
 WHERE e.id = w.id`;

/**
 * The delivery queue's statements on PostgreSQL, where every statement is a round trip and
 * a plan: a claim is one statement (no transaction around it), and a settle one or two in
 * one transaction however large the batch (lock the endpoints and write every outcome, then
 * write the streaks that changed if any). Measured in bench/README.md, "Webhook deliveries in batches".
 */
export class PostgresDeliveryQueueStatements implements DeliveryQueueStatements {
  readonly #db: Kysely<Database>;
  readonly #dialect: SqlDialect;

  constructor(db: Kysely<Database>, dialect: SqlDialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  claim(now: number, leaseMs: number, limit: number, token: string, onlyDeliveryId?: number): Promise<ClaimRow[]> {
    // Named statements: planned once per connection, and a claim runs many times a second.
    if (onlyDeliveryId === undefined) return this.#dialect.prepared<ClaimRow>(this.#db, "mds_webhooks_claim_due", CompiledQuery.raw(CLAIM_DUE, [now, leaseMs, limit, token]));
    return this.#dialect.prepared<ClaimRow>(this.#db, "mds_webhooks_claim_one", CompiledQuery.raw(CLAIM_ONE, [now, leaseMs, limit, token, onlyDeliveryId]));
  }

  async settle(trx: Transaction<Database>, endpointIds: readonly number[], rows: readonly SettleRow[], now: number): Promise<{ applied: AppliedOutcome[]; health: EndpointHealthRow[] }> {
    const col = <T>(f: (r: SettleRow) => T): T[] => rows.map(f);
    const params = [
      now,
      col((r) => r.deliveryId),
      col((r) => r.leaseToken),
      col((r) => r.status),
      col((r) => r.tries),
      col((r) => r.next),
      col((r) => r.attempt),
      col((r) => r.deliveryUuid),
      col((r) => r.trigger),
      col((r) => r.outcome),
      col((r) => r.durationMs),
      col((r) => r.statusCode),
      col((r) => r.errorClass),
      col((r) => r.error),
      col((r) => r.responseSnippet),
      [...endpointIds],
    ];
    const out = (await trx.executeQuery(CompiledQuery.raw(SETTLE, params))).rows as ({ kind: "d"; id: number; lease_token: string } | ({ kind: "e" } & EndpointHealthRow))[];
    const applied: AppliedOutcome[] = [];
    const health: EndpointHealthRow[] = [];
    for (const r of out) {
      if (r.kind === "d") applied.push({ deliveryId: r.id, leaseToken: r.lease_token });
      else health.push({ id: r.id, status: r.status, failure_streak: r.failure_streak, streak_started_at: r.streak_started_at });
    }
    return { applied, health };
  }

  async writeHealth(trx: Transaction<Database>, writes: readonly EndpointHealthWrite[], now: number): Promise<void> {
    if (writes.length === 0) return;
    await trx.executeQuery(
      CompiledQuery.raw(WRITE_HEALTH, [
        now,
        writes.map((w) => w.id),
        writes.map((w) => w.failureStreak),
        writes.map((w) => w.streakStartedAt),
        writes.map((w) => w.turnOff),
        writes.map((w) => w.disabledReason),
      ]),
    );
  }
}
