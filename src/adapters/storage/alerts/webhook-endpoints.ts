import { SqlStore } from "../sql-store.ts";
import type { Kysely } from "kysely";
import type { SecretBox } from "../accounts/secret-box.ts";
import type { CreateEndpointResult, WebhookEndpoint } from "../../../interfaces/webhooks.ts";
import type { SqlDialect } from "../dialect/dialect.ts";
import { insertWithinLimit } from "../limited-insert.ts";
import type { Database, WebhookEndpointsTable } from "../schema.ts";

export type EndpointRow = Omit<WebhookEndpointsTable, "id"> & { id: number };

/** A row as the port gives it: signing secrets opened (they are stored sealed, see secret-box.ts). */
export function toEndpoint(r: EndpointRow, box: SecretBox): WebhookEndpoint {
  return {
    id: r.id,
    accountId: r.account_id,
    url: r.url,
    description: r.description,
    events: r.events === null ? null : (JSON.parse(r.events) as string[]),
    status: r.status === "disabled" ? "disabled" : "active",
    secret: box.open(r.secret),
    previousSecret: r.previous_secret === null ? null : box.open(r.previous_secret),
    previousSecretExpiresAt: r.previous_secret_expires_at,
    failureStreak: r.failure_streak,
    streakStartedAt: r.streak_started_at,
    disabledAt: r.disabled_at,
    disabledReason: r.disabled_reason,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Webhook endpoints of accounts: created within the plan's limit, edited, rotated, turned back on, deleted with their deliveries. */
export class SqlWebhookEndpoints extends SqlStore {
  readonly #box: SecretBox;

  constructor(db: Kysely<Database>, dialect: SqlDialect, box: SecretBox) {
    super(db, dialect);
    this.#box = box;
  }

  /**
   * Seals every signing secret not yet sealed under the current key: plaintext from before
   * sealing, and values sealed under SECRETS_KEY_PREVIOUS during a rotation. Run at every
   * start (a migration cannot: the key is not in the database); a no-op once all are sealed.
   */
  async sealSecrets(): Promise<number> {
    const prefix = `${this.#box.currentPrefix}%`;
    return this.db.transaction().execute(async (trx) => {
      const stale = await this.dialect
        .lockRows(
          trx
            .selectFrom("webhook_endpoints")
            .select(["id", "secret", "previous_secret"])
            .where((eb) => eb.or([eb("secret", "not like", prefix), eb.and([eb("previous_secret", "is not", null), eb("previous_secret", "not like", prefix)])]))
            .orderBy("id"),
        )
        .execute();
      for (const r of stale) {
        await trx
          .updateTable("webhook_endpoints")
          .set({ secret: this.#box.reseal(r.secret), previous_secret: r.previous_secret === null ? null : this.#box.reseal(r.previous_secret) })
          .where("id", "=", r.id)
          .execute();
      }
      return stale.length;
    });
  }

  async createEndpoint(accountId: string, input: { url: string; description: string | null; events: string[] | null }, secret: string, limit: number, now: number): Promise<CreateEndpointResult> {
    const r = await insertWithinLimit(this.db, this.dialect, "webhook_endpoints", accountId, limit, (trx) =>
      trx
        .insertInto("webhook_endpoints")
        .values({
          account_id: accountId,
          url: input.url,
          description: input.description,
          events: input.events === null ? null : JSON.stringify(input.events),
          status: "active",
          secret: this.#box.seal(secret),
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
    return r.ok ? { ok: true, endpoint: toEndpoint(r.value, this.#box) } : { ok: false, limit: r.limit };
  }

  async listEndpoints(accountId: string): Promise<WebhookEndpoint[]> {
    return (await this.db.selectFrom("webhook_endpoints").selectAll().where("account_id", "=", accountId).orderBy("id").execute()).map((r) => toEndpoint(r, this.#box));
  }

  async getEndpoint(accountId: string, id: number): Promise<WebhookEndpoint | null> {
    const r = await this.db.selectFrom("webhook_endpoints").selectAll().where("account_id", "=", accountId).where("id", "=", id).executeTakeFirst();
    return r ? toEndpoint(r, this.#box) : null;
  }

  async updateEndpoint(accountId: string, id: number, patch: { url?: string; description?: string | null; events?: string[] | null }, now: number): Promise<WebhookEndpoint | null> {
    const set: Partial<EndpointRow> = { updated_at: now };
    if (patch.url !== undefined) set.url = patch.url;
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.events !== undefined) set.events = patch.events === null ? null : JSON.stringify(patch.events);
    const r = await this.db.updateTable("webhook_endpoints").set(set).where("account_id", "=", accountId).where("id", "=", id).returningAll().executeTakeFirst();
    return r ? toEndpoint(r, this.#box) : null;
  }

  /**
   * Locks in the order every writer of an endpoint's rows takes them (the endpoint, then its
   * deliveries by id): a concurrent delete waits and then finds nothing (one 200, one 404),
   * and an attempt being recorded either finishes first (its log row is deleted with the rest)
   * or finds its delivery gone; no foreign-key violation, no deadlock.
   */
  async deleteEndpoint(accountId: string, id: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const owned = await this.dialect
        .lockRows(trx.selectFrom("webhook_endpoints").select("id").where("account_id", "=", accountId).where("id", "=", id))
        .executeTakeFirst();
      if (!owned) return false;
      await this.dialect.lockRows(trx.selectFrom("webhook_deliveries").select("id").where("endpoint_id", "=", id).orderBy("id")).execute();
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
    const r = await this.db
      .updateTable("webhook_endpoints")
      .set((eb) => ({
        previous_secret: keep ? eb.ref("secret") : null,
        previous_secret_expires_at: keep ? previousUntil : null,
        secret: this.#box.seal(secret),
        updated_at: now,
      }))
      .where("account_id", "=", accountId)
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
    return r ? toEndpoint(r, this.#box) : null;
  }

  async enableEndpoint(accountId: string, id: number, now: number): Promise<WebhookEndpoint | null> {
    const r = await this.db
      .updateTable("webhook_endpoints")
      .set({ status: "active", failure_streak: 0, streak_started_at: null, disabled_at: null, disabled_reason: null, updated_at: now })
      .where("account_id", "=", accountId)
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
    return r ? toEndpoint(r, this.#box) : null;
  }

  /** Turns an endpoint off by its owner's wish: new alerts are logged as skipped until it is turned on again. */
  async disableEndpoint(accountId: string, id: number, reason: string, now: number): Promise<WebhookEndpoint | null> {
    const r = await this.db
      .updateTable("webhook_endpoints")
      .set({ status: "disabled", disabled_at: now, disabled_reason: reason, updated_at: now })
      .where("account_id", "=", accountId)
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
    return r ? toEndpoint(r, this.#box) : null;
  }
}
