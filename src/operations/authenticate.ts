import { AppError } from "../domain/errors.ts";
import { lastUseDue } from "../domain/last-use.ts";
import { ANONYMOUS_RATE_PER_SECOND, entitlements } from "../domain/plans.ts";
import { hashSecret, KEY_PATTERN, sameDigest } from "../domain/secrets.ts";
import type { AccountStore, KeyPrincipalRecord } from "../ports/accounts.ts";
import type { Clock } from "../ports/clock.ts";
import type { Principal } from "./principal.ts";

/**
 * How long a key lookup is remembered. The revoking process forgets the key at once
 * (forget(keyId)), and other processes hear of it through the revocation channel when
 * there is one (Redis); this bound is what remains when there is none, or it missed a
 * message: a revoked key is refused everywhere within it. One lookup per key and second
 * per process is cheap next to the call it guards.
 */
export const KEY_CACHE_TTL_MS = 1_000;

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
  /** Drops what is cached about one key (by its id), or everything, so a revocation takes effect at once. */
  forget(keyId?: string): void;
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
  readonly #cache = new Map<string, { record: KeyPrincipalRecord | null; hash: string; until: number }>();
  readonly #lastUseWritten = new Map<string, number>();

  constructor(accounts: AccountStore, clock: Clock, tokens?: TokenVerifier) {
    this.#accounts = accounts;
    this.#clock = clock;
    this.#tokens = tokens;
  }

  forget(keyId?: string): void {
    if (keyId === undefined) {
      this.#cache.clear();
      return;
    }
    for (const [hash, hit] of this.#cache) if (hit.record?.keyId === keyId) this.#cache.delete(hash);
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
    const record = await this.#lookup(credential);
    if (!record) throw new AppError("invalid_api_key");
    if (record.revoked) throw new AppError("api_key_revoked");
    this.#noteUse(record.keyId);
    return {
      kind: "key",
      subject: `key:${record.keyId}`,
      keyId: record.keyId,
      accountId: record.accountId,
      entitlements: entitlements(record.webPlan, record.apiPlan, record.deal),
      clientAddress,
    };
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

  async #lookup(key: string): Promise<KeyPrincipalRecord | null> {
    const hash = hashSecret(key);
    const now = this.#clock.now();
    const hit = this.#cache.get(hash);
    if (hit && hit.until > now && sameDigest(hit.hash, hash)) return hit.record;
    const record = await this.#accounts.findKeyByHash(hash);
    if (this.#cache.size > 50_000) this.#cache.clear();
    this.#cache.set(hash, { record, hash, until: now + KEY_CACHE_TTL_MS });
    return record;
  }
}
