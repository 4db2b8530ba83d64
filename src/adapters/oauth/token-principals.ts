import { entitlements } from "../../domain/plans.ts";
import type { TokenVerifier } from "../../operations/authenticate.ts";
import type { Principal } from "../../operations/principal.ts";
import type { AccountStore } from "../../interfaces/accounts.ts";
import type { OAuthTokenVerifier } from "./token-verifier.ts";

/**
 * Access tokens as principals of the pipeline: a token acts as the account whose user
 * approved it, with that account's plans read fresh (a plan change applies at once). A call
 * without a resource (REST) gets nothing: tokens are issued for the MCP endpoint only.
 */
export class OAuthPrincipals implements TokenVerifier {
  readonly #tokens: OAuthTokenVerifier;
  readonly #accounts: Pick<AccountStore, "getAccount">;

  constructor(tokens: OAuthTokenVerifier, accounts: Pick<AccountStore, "getAccount">) {
    this.#tokens = tokens;
    this.#accounts = accounts;
  }

  async verify(token: string, clientAddress: string, resource: string | undefined): Promise<Principal | null> {
    if (resource === undefined) return null;
    const verified = await this.#tokens.verify(token, resource);
    const account = verified ? await this.#accounts.getAccount(verified.accountId) : null;
    if (!verified || !account) return null;
    return {
      kind: "oauth",
      subject: `grant:${verified.grantId}`,
      grantId: verified.grantId,
      accountId: account.id,
      entitlements: entitlements(account.webPlan, account.apiPlan, account.deal),
      clientAddress,
    };
  }
}
