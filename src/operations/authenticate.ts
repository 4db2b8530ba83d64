import { AppError } from "../domain/errors.ts";
import { ANONYMOUS_RATE_PER_SECOND, entitlements } from "../domain/plans.ts";
import { hashSecret, KEY_PATTERN, sameDigest } from "../domain/secrets.ts";
import type { AccountStore, KeyPrincipalRecord } from "../ports/accounts.ts";
import type { Clock } from "../ports/clock.ts";
import type { Principal } from "./operation.ts";

/** How long a key lookup is remembered; a revocation by another process takes effect within this. */
export const KEY_CACHE_TTL_MS = 5_000;

/** Calls without a key: sandbox rights (no commercial use), their own small rate. */
const ANONYMOUS = { ...entitlements(null, null), plans: [], ratePerSecond: ANONYMOUS_RATE_PER_SECOND, monthlyCredits: 0 };

/**
 * Bearer key -> principal. Keys are looked up by their SHA-256 and the stored digest is
 * compared in constant time; results are cached briefly to keep the store off the hot path.
 */
export class KeyAuthenticator {
  readonly #accounts: AccountStore;
  readonly #clock: Clock;
  readonly #cache = new Map<string, { record: KeyPrincipalRecord | null; hash: string; until: number }>();

  constructor(accounts: AccountStore, clock: Clock) {
    this.#accounts = accounts;
    this.#clock = clock;
  }

  forget(): void {
    this.#cache.clear();
  }

  async authenticate(authorization: string | undefined, required: boolean, clientAddress: string): Promise<Principal> {
    if (authorization === undefined || authorization.trim() === "") {
      if (required) throw new AppError("missing_api_key");
      return { kind: "anonymous", entitlements: ANONYMOUS, clientAddress };
    }
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!m) throw new AppError("invalid_api_key", "The Authorization header must be `Bearer <API_KEY>`.");
    const key = m[1]!;
    if (!KEY_PATTERN.test(key)) throw new AppError("invalid_api_key");
    const record = await this.#lookup(key);
    if (!record) throw new AppError("invalid_api_key");
    if (record.revoked) throw new AppError("api_key_revoked");
    return { kind: "key", keyId: record.keyId, accountId: record.accountId, entitlements: entitlements(record.webPlan, record.apiPlan), clientAddress };
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


/** What an OAuth access token stands for, as the token verifier reports it. */
export type TokenLookup = (token: string) => Promise<{ accountId: string; grantId: string } | null>;

/**
 * The MCP endpoint's authenticator: API keys as everywhere, plus OAuth access tokens, which
 * act as a key of the account that approved them (`grant:<id>` as the key id), so a token's
 * calls have the account's credits, rate limit, plan gates and rights. REST keeps the plain
 * KeyAuthenticator: tokens are issued for the MCP endpoint only.
 */
export class KeyOrTokenAuthenticator {
  readonly #keys: Pick<KeyAuthenticator, "authenticate" | "forget">;
  readonly #accounts: AccountStore;
  readonly #tokens: TokenLookup;

  constructor(keys: Pick<KeyAuthenticator, "authenticate" | "forget">, accounts: AccountStore, tokens: TokenLookup) {
    this.#keys = keys;
    this.#accounts = accounts;
    this.#tokens = tokens;
  }

  forget(): void {
    this.#keys.forget();
  }

  async authenticate(authorization: string | undefined, required: boolean, clientAddress: string): Promise<Principal> {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
    if (bearer === undefined || KEY_PATTERN.test(bearer)) return this.#keys.authenticate(authorization, required, clientAddress);
    const token = await this.#tokens(bearer);
    const account = token ? await this.#accounts.getAccount(token.accountId) : null;
    if (!token || !account) throw new AppError("invalid_api_key", "The access token is unknown, expired or revoked; connect the application again.");
    return { kind: "key", keyId: `grant:${token.grantId}`, accountId: account.id, entitlements: entitlements(account.webPlan, account.apiPlan), clientAddress };
  }
}
