import type { Clock } from "../../interfaces/clock.ts";
import type { OAuthStore } from "../../interfaces/oauth.ts";

export interface ConnectedApp {
  id: string;
  clientName: string;
  redirectHost: string;
  scopes: string[];
  createdAt: number;
  lastUsedAt: number | null;
}

/** The account page's view of OAuth grants: list them, and disconnect one at once. */
export class ConnectedApps {
  readonly #store: OAuthStore;
  readonly #clock: Clock;

  constructor(store: OAuthStore, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  async listGrants(accountId: string): Promise<ConnectedApp[]> {
    const grants = await this.#store.listGrants(accountId);
    return grants.map((g) => {
      const cimdHost = g.clientKind === "cimd" ? new URL(g.clientId).host : null;
      let redirectHost: string;
      try {
        const u = new URL(g.redirectUri);
        redirectHost = u.host || `${u.protocol}//`;
      } catch {
        redirectHost = g.redirectUri;
      }
      return { id: g.id, clientName: g.clientMetadata?.client_name ?? cimdHost ?? g.clientId, redirectHost, scopes: g.scopes, createdAt: g.createdAt, lastUsedAt: g.lastUsedAt };
    });
  }

  /** Revokes the grant and all its tokens; the app's next call is refused. False when the account has no such live grant. */
  async revokeGrant(accountId: string, grantId: string): Promise<boolean> {
    return this.#store.revokeGrant(accountId, grantId, this.#clock.now());
  }
}
