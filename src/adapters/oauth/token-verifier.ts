import { lastUseDue } from "../../domain/last-use.ts";
import { hashSecret } from "../../domain/secrets.ts";
import type { Clock } from "../../interfaces/clock.ts";
import type { OAuthStore } from "../../interfaces/oauth.ts";
import { ACCESS_TOKEN_PREFIX } from "./token-issuer.ts";

export interface VerifiedToken {
  accountId: string;
  grantId: string;
  userId: string;
  scopes: string[];
}

/**
 * Access token -> the account it acts for. Looked up by hash on every call (no cache), so a
 * disconnect or a revoked family takes effect on the next request.
 */
export class OAuthTokenVerifier {
  readonly #store: OAuthStore;
  readonly #clock: Clock;

  constructor(store: OAuthStore, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  /**
   * `resource`: the address the request is made to; a token issued for another is refused
   * (RFC 8707: a token is good for the audience it was issued to and no other).
   */
  async verify(token: string, resource: string): Promise<VerifiedToken | null> {
    if (!token.startsWith(ACCESS_TOKEN_PREFIX)) return null;
    const t = await this.#store.findToken(hashSecret(token));
    const now = this.#clock.now();
    if (!t || t.kind !== "access" || t.revokedAt !== null || t.grantRevoked || t.expiresAt <= now) return null;
    if (t.resource !== resource) return null;
    if (lastUseDue(t.grantLastUsedAt, now)) await this.#store.touchGrant(t.grantId, now);
    return { accountId: t.accountId, grantId: t.grantId, userId: t.userId, scopes: t.scopes };
  }
}
