import { AppError } from "../domain/errors.ts";
import { lastUseDue } from "../domain/last-use.ts";
import { ANONYMOUS_RATE_PER_SECOND, type Entitlements, entitlements } from "../domain/plans.ts";
import { hashSecret, KEY_PATTERN } from "../domain/secrets.ts";
import type { AccountStore, KeyPrincipalRecord } from "../interfaces/accounts.ts";
import type { Clock } from "../interfaces/clock.ts";
import type { Principal } from "./principal.ts";

/**
 * How long a key lookup is remembered when no other process can tell this one of a change.
 * The process that revokes a key, or changes an account's plans, forgets it at once; this
 * bound is what remains for the others: a revoked key is refused everywhere within it.
 */
export const KEY_CACHE_TTL_MS = 1_000;

/**
 * How long a key lookup is remembered when every process hears of revocations and plan
 * changes at once (the Redis channel, or PostgreSQL's NOTIFY without Redis; a process that
 * lost its channel forgets everything, and on PostgreSQL keeps forgetting every
 * KEY_CACHE_TTL_MS until it is back). It bounds only a lost announcement. Hundreds of keys in
 * rotation otherwise cost the database hundreds of lookups a second per process.
 */
export const ANNOUNCED_KEY_CACHE_TTL_MS = 60_000;

/** Calls without a key: sandbox rights (no commercial use), their own small rate. */
export const ANONYMOUS_ENTITLEMENTS = { ...entitlements(null, null), plans: [], ratePerSecond: ANONYMOUS_RATE_PER_SECOND, monthlyCredits: 0 };

/**
 * Turns the Authorization header of a request into the principal the pipeline runs for.
 * Adapters call it once per request (REST in its route, MCP in its /mcp gate) and hand the
 * principal to execute(). Throws an AppError (missing_api_key, invalid_api_key,
 * api_key_revoked) when the credential is refused.
 */
export interface Authenticator {
  /**
   * `resource` is the address the call is made to, for credentials bound to one (an OAuth
   * access token is issued for `{base_url}/mcp` only); API keys are valid for every resource.
   */
  authenticate(authorization: string | undefined, required: boolean, clientAddress: string, resource?: string): Promise<Principal>;
  /** Drops what is cached about one key (by its id), an account's keys, or everything, so a revocation or plan change takes effect at once. */
  forget(what?: { keyId: string } | { accountId: string }): void;
}

/** A second kind of credential: resolves its own bearer strings, null for strings it does not issue. */
export interface TokenVerifier {
  verify(token: string, clientAddress: string, resource: string | undefined): Promise<Principal | null>;
}

/**
 * Bearer credential -> principal. API keys (`mds_sk_...`) are looked up by their SHA-256 and
 * the stored digest is compared in constant time; results are cached briefly to keep the
 * store off the hot path. Anything else that looks like a bearer token goes to the token
 * verifier, when one is given: that is where OAuth access tokens (opaque strings, issued
 * and stored by the OAuth adapter) plug in, without the pipeline or the adapters changing.
 */
export class KeyAuthenticator implements Authenticator {
  readonly #accounts: AccountStore;
  readonly #clock: Clock;
  readonly #tokens: TokenVerifier | undefined;
  /** By key digest: the key's record and what its plans allow (worked out once per lookup, frozen, shared by the calls). */
  readonly #cache = new Map<string, { record: KeyPrincipalRecord | null; entitlements: Readonly<Entitlements> | null; until: number }>();
  readonly #lastUseWritten = new Map<string, number>();
  /**
   * Counts forget() calls. A lookup under way when something is forgotten may have read the
   * row before the change it announces; cached, it would outlive the change for the whole
   * cache lifetime (a minute where changes are announced). Such a lookup answers its own call
   * and is not cached.
   */
  #forgets = 0;

  readonly #ttlMs: number;

  /** `cacheTtlMs`: KEY_CACHE_TTL_MS, or ANNOUNCED_KEY_CACHE_TTL_MS where changes are announced to every process. */
  constructor(accounts: AccountStore, clock: Clock, tokens?: TokenVerifier, cacheTtlMs = KEY_CACHE_TTL_MS) {
    this.#accounts = accounts;
    this.#clock = clock;
    this.#tokens = tokens;
    this.#ttlMs = cacheTtlMs;
  }

  forget(what?: { keyId: string } | { accountId: string }): void {
    this.#forgets++;
    if (what === undefined) {
      this.#cache.clear();
      return;
    }
    const matches = "keyId" in what ? (r: KeyPrincipalRecord) => r.keyId === what.keyId : (r: KeyPrincipalRecord) => r.accountId === what.accountId;
    for (const [hash, hit] of this.#cache) if (hit.record && matches(hit.record)) this.#cache.delete(hash);
  }

  async authenticate(authorization: string | undefined, required: boolean, clientAddress: string, resource?: string): Promise<Principal> {
    if (authorization === undefined || authorization.trim() === "") {
      if (required) throw new AppError("missing_api_key");
      return { kind: "anonymous", subject: `ip:${clientAddress}`, entitlements: ANONYMOUS_ENTITLEMENTS, clientAddress };
    }
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!m) throw new AppError("invalid_api_key", "The Authorization header must be `Bearer <API_KEY>`.");
    const credential = m[1]!;
    if (!KEY_PATTERN.test(credential)) {
      // Not an API key: the one other kind of bearer credential, when the service issues one.
      const principal = this.#tokens ? await this.#tokens.verify(credential, clientAddress, resource) : null;
      if (!principal) throw new AppError("invalid_api_key", "The bearer credential is not a valid API key, nor an access token issued for this address that is still valid; use an API key or connect the application again.");
      return principal;
    }
    const { record, entitlements } = await this.#lookup(credential);
    if (!record || !entitlements) throw new AppError("invalid_api_key");
    if (record.revoked) throw new AppError("api_key_revoked");
    this.#noteUse(record.keyId);
    return { kind: "key", subject: `key:${record.keyId}`, keyId: record.keyId, accountId: record.accountId, entitlements, clientAddress };
  }

  /** Fire and forget: the keys page's "last used" must never fail or slow the call itself. */
  #noteUse(keyId: string): void {
    const now = this.#clock.now();
    const last = this.#lastUseWritten.get(keyId);
    if (!lastUseDue(last, now)) return;
    if (this.#lastUseWritten.size > 100_000) this.#lastUseWritten.clear();
    this.#lastUseWritten.set(keyId, now);
    this.#accounts.recordKeyUse(keyId, now).catch(() => this.#lastUseWritten.delete(keyId));
  }

  async #lookup(key: string): Promise<{ record: KeyPrincipalRecord | null; entitlements: Readonly<Entitlements> | null }> {
    const hash = hashSecret(key);
    const now = this.#clock.now();
    const hit = this.#cache.get(hash);
    // The entry was found under this very digest (each is stored under its own), so comparing the two again could only say yes.
    if (hit && hit.until > now) return hit;
    const forgetsBefore = this.#forgets;
    const record = await this.#accounts.findKeyByHash(hash);
    const entry = { record, entitlements: record ? Object.freeze(entitlements(record.webPlan, record.apiPlan, record.deal)) : null, until: now + this.#ttlMs };
    if (this.#forgets !== forgetsBefore) return entry;
    if (this.#cache.size > 50_000) this.#cache.clear();
    this.#cache.set(hash, entry);
    return entry;
  }

}
