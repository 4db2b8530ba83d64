import type { Kysely } from "kysely";
import type { ClientMetadata } from "../../../domain/oauth/client-metadata.ts";
import { randomBase62 } from "../../../domain/secrets.ts";
import type { CodeLookup, CodeRow, GrantListing, OAuthStore, StoredClient, TokenLookup, TokenRow } from "../../../interfaces/oauth.ts";
import type { Database } from "../schema.ts";

const scopesOf = (text: string): string[] => text.split(" ").filter((s) => s !== "");
const kindOf = (k: string | null): "dcr" | "cimd" | null => (k === "dcr" || k === "cimd" ? k : null);
const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

export class SqlOAuthStore implements OAuthStore {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async getClient(clientId: string): Promise<StoredClient | null> {
    const r = await this.#db.selectFrom("oauth_clients").selectAll().where("client_id", "=", clientId).executeTakeFirst();
    if (!r) return null;
    return { clientId: r.client_id, kind: kindOf(r.kind) ?? "dcr", metadata: JSON.parse(r.metadata_json) as ClientMetadata, fetchedAt: Number(r.fetched_at), expiresAt: num(r.expires_at) };
  }

  async saveClient(c: StoredClient): Promise<void> {
    const row = { client_id: c.clientId, kind: c.kind, metadata_json: JSON.stringify(c.metadata), fetched_at: c.fetchedAt, expires_at: c.expiresAt };
    await this.#db
      .insertInto("oauth_clients")
      .values(row)
      .onConflict((oc) => oc.column("client_id").doUpdateSet({ kind: row.kind, metadata_json: row.metadata_json, fetched_at: row.fetched_at, expires_at: row.expires_at }))
      .execute();
  }

  async upsertGrant(input: { accountId: string; userId: string; clientId: string; redirectUri: string; scopes: string[]; now: number }): Promise<string> {
    return this.#db.transaction().execute(async (trx) => {
      const live = await trx
        .selectFrom("oauth_grants")
        .select("id")
        .where("account_id", "=", input.accountId)
        .where("user_id", "=", input.userId)
        .where("client_id", "=", input.clientId)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      if (live) {
        await trx.updateTable("oauth_grants").set({ scopes: input.scopes.join(" "), redirect_uri: input.redirectUri }).where("id", "=", live.id).execute();
        return live.id;
      }
      const id = `grt_${randomBase62(16)}`;
      await trx
        .insertInto("oauth_grants")
        .values({ id, account_id: input.accountId, user_id: input.userId, client_id: input.clientId, redirect_uri: input.redirectUri, scopes: input.scopes.join(" "), created_at: input.now, last_used_at: null, revoked_at: null })
        .execute();
      return id;
    });
  }

  async createCode(c: CodeRow): Promise<void> {
    await this.#db
      .insertInto("oauth_codes")
      .values({ hash: c.hash, grant_id: c.grantId, redirect_uri: c.redirectUri, code_challenge: c.codeChallenge, resource: c.resource, family_id: c.familyId, expires_at: c.expiresAt, used_at: null })
      .execute();
  }

  async findCode(hash: string): Promise<CodeLookup | null> {
    const r = await this.#db
      .selectFrom("oauth_codes as c")
      .innerJoin("oauth_grants as g", "g.id", "c.grant_id")
      .select(["c.hash", "c.grant_id", "c.redirect_uri", "c.code_challenge", "c.resource", "c.family_id", "c.expires_at", "c.used_at", "g.client_id", "g.scopes", "g.revoked_at"])
      .where("c.hash", "=", hash)
      .executeTakeFirst();
    if (!r) return null;
    return {
      hash: r.hash,
      grantId: r.grant_id,
      redirectUri: r.redirect_uri,
      codeChallenge: r.code_challenge,
      resource: r.resource,
      familyId: r.family_id,
      expiresAt: Number(r.expires_at),
      usedAt: num(r.used_at),
      clientId: r.client_id,
      scopes: scopesOf(r.scopes),
      grantRevoked: r.revoked_at !== null,
    };
  }

  async redeemCode(hash: string, now: number, tokens: TokenRow[]): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      const r = await trx.updateTable("oauth_codes").set({ used_at: now }).where("hash", "=", hash).where("used_at", "is", null).executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) return false;
      await this.#insertTokens(trx, tokens);
      return true;
    });
  }

  async #insertTokens(db: Kysely<Database>, tokens: TokenRow[]): Promise<void> {
    if (tokens.length === 0) return;
    await db
      .insertInto("oauth_tokens")
      .values(tokens.map((t) => ({ hash: t.hash, grant_id: t.grantId, kind: t.kind, family_id: t.familyId, resource: t.resource, expires_at: t.expiresAt, revoked_at: null, used_at: null })))
      .execute();
  }

  async findToken(hash: string): Promise<TokenLookup | null> {
    const r = await this.#db
      .selectFrom("oauth_tokens as t")
      .innerJoin("oauth_grants as g", "g.id", "t.grant_id")
      .select([
        "t.hash",
        "t.grant_id",
        "t.kind",
        "t.family_id",
        "t.resource",
        "t.expires_at",
        "t.revoked_at",
        "t.used_at",
        "g.client_id",
        "g.account_id",
        "g.user_id",
        "g.scopes",
        "g.revoked_at as grant_revoked_at",
        "g.last_used_at",
      ])
      .where("t.hash", "=", hash)
      .executeTakeFirst();
    if (!r) return null;
    return {
      hash: r.hash,
      grantId: r.grant_id,
      kind: r.kind === "refresh" ? "refresh" : "access",
      familyId: r.family_id,
      resource: r.resource,
      expiresAt: Number(r.expires_at),
      revokedAt: num(r.revoked_at),
      usedAt: num(r.used_at),
      clientId: r.client_id,
      accountId: r.account_id,
      userId: r.user_id,
      scopes: scopesOf(r.scopes),
      grantRevoked: r.grant_revoked_at !== null,
      grantLastUsedAt: num(r.last_used_at),
    };
  }

  async rotateRefreshToken(hash: string, now: number, tokens: TokenRow[]): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable("oauth_tokens")
        .set({ used_at: now })
        .where("hash", "=", hash)
        .where("kind", "=", "refresh")
        .where("used_at", "is", null)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) return false;
      await this.#insertTokens(trx, tokens);
      return true;
    });
  }

  async revokeFamily(familyId: string, now: number): Promise<void> {
    await this.#db.updateTable("oauth_tokens").set({ revoked_at: now }).where("family_id", "=", familyId).where("revoked_at", "is", null).execute();
  }

  async revokeToken(hash: string, now: number): Promise<void> {
    await this.#db.updateTable("oauth_tokens").set({ revoked_at: now }).where("hash", "=", hash).where("revoked_at", "is", null).execute();
  }

  async touchGrant(grantId: string, now: number): Promise<void> {
    await this.#db.updateTable("oauth_grants").set({ last_used_at: now }).where("id", "=", grantId).execute();
  }

  async listGrants(accountId: string): Promise<GrantListing[]> {
    const rows = await this.#db
      .selectFrom("oauth_grants as g")
      .leftJoin("oauth_clients as c", "c.client_id", "g.client_id")
      .select(["g.id", "g.client_id", "g.redirect_uri", "g.scopes", "g.created_at", "g.last_used_at", "c.kind", "c.metadata_json"])
      .where("g.account_id", "=", accountId)
      .where("g.revoked_at", "is", null)
      .orderBy("g.created_at")
      .orderBy("g.id")
      .execute();
    return rows.map((r) => ({
      id: r.id,
      clientId: r.client_id,
      clientKind: kindOf(r.kind),
      clientMetadata: r.metadata_json ? (JSON.parse(r.metadata_json) as ClientMetadata) : null,
      redirectUri: r.redirect_uri,
      scopes: scopesOf(r.scopes),
      createdAt: Number(r.created_at),
      lastUsedAt: num(r.last_used_at),
    }));
  }

  async revokeGrant(accountId: string, grantId: string, now: number): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      const r = await trx.updateTable("oauth_grants").set({ revoked_at: now }).where("id", "=", grantId).where("account_id", "=", accountId).where("revoked_at", "is", null).executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) return false;
      await trx.updateTable("oauth_tokens").set({ revoked_at: now }).where("grant_id", "=", grantId).where("revoked_at", "is", null).execute();
      return true;
    });
  }
}
