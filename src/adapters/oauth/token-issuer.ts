import { randomUUID } from "node:crypto";
import { issuesRefreshToken } from "../../domain/oauth/grant-rules.ts";
import { ACCESS_TOKEN_TTL_MS, REFRESH_TOKEN_TTL_MS } from "../../domain/oauth/lifetimes.ts";
import { hashSecret, randomBase62 } from "../../domain/secrets.ts";
import type { TokenRow } from "../../interfaces/oauth.ts";

/** Opaque tokens with prefixes people and secret scanners recognise; about 238 bits each. */
export const ACCESS_TOKEN_PREFIX = "mds_at_";
export const REFRESH_TOKEN_PREFIX = "mds_rt_";
export const CODE_PREFIX = "mds_ac_";

export const newCode = (): string => `${CODE_PREFIX}${randomBase62(40)}`;
export const newFamilyId = (): string => randomUUID();

export interface IssuedTokens {
  rows: TokenRow[];
  response: { access_token: string; token_type: "Bearer"; expires_in: number; scope: string; refresh_token?: string };
}

/** A new access token (and a refresh token, when the client registered that grant) of one family. */
export function issueTokens(o: { grantId: string; familyId: string; resource: string; scopes: string[]; grantTypes: readonly string[]; now: number }): IssuedTokens {
  const access = `${ACCESS_TOKEN_PREFIX}${randomBase62(40)}`;
  const rows: TokenRow[] = [{ hash: hashSecret(access), grantId: o.grantId, kind: "access", familyId: o.familyId, resource: o.resource, expiresAt: o.now + ACCESS_TOKEN_TTL_MS }];
  const response: IssuedTokens["response"] = { access_token: access, token_type: "Bearer", expires_in: ACCESS_TOKEN_TTL_MS / 1000, scope: o.scopes.join(" ") };
  if (issuesRefreshToken(o.grantTypes)) {
    const refresh = `${REFRESH_TOKEN_PREFIX}${randomBase62(40)}`;
    rows.push({ hash: hashSecret(refresh), grantId: o.grantId, kind: "refresh", familyId: o.familyId, resource: o.resource, expiresAt: o.now + REFRESH_TOKEN_TTL_MS });
    response.refresh_token = refresh;
  }
  return { rows, response };
}
