import { REFRESH_REUSE_GRACE_MS } from "./lifetimes.ts";
import { verifyCodeVerifier } from "./pkce.ts";

/**
 * The token endpoint's decisions, as pure functions of what the store holds and what the
 * client sent. The adapter does the reads and writes; every "no" and its reason is here.
 */

export type TokenError = { ok: false; error: "invalid_grant" | "invalid_request" | "invalid_target"; description: string; revokeFamily?: boolean };
export type Verdict = { ok: true } | TokenError;

export interface CodeRecord {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  expiresAt: number;
  usedAt: number | null;
  grantRevoked: boolean;
}

export interface CodeExchange {
  clientId: string;
  redirectUri: string | undefined;
  resource: string | undefined;
  codeVerifier: string | undefined;
  now: number;
}

const no = (error: TokenError["error"], description: string, revokeFamily = false): TokenError => ({ ok: false, error, description, ...(revokeFamily ? { revokeFamily } : {}) });

/** authorization_code grant (RFC 6749 4.1.3, RFC 7636 4.6, RFC 8707 2.2). */
export function judgeCodeExchange(code: CodeRecord | null, req: CodeExchange): Verdict {
  if (req.codeVerifier === undefined) return no("invalid_request", "code_verifier is required (PKCE)");
  if (!code) return no("invalid_grant", "the code is unknown");
  // A second use means the code leaked: the tokens issued from the first use go too (RFC 6749 4.1.2).
  if (code.usedAt !== null) return no("invalid_grant", "the code has already been used", true);
  if (code.expiresAt <= req.now) return no("invalid_grant", "the code has expired");
  if (code.grantRevoked) return no("invalid_grant", "the grant has been revoked");
  if (code.clientId !== req.clientId) return no("invalid_grant", "the code was issued to another client");
  if (req.redirectUri !== code.redirectUri) return no("invalid_grant", "redirect_uri does not match the authorization request");
  if (req.resource !== undefined && req.resource !== code.resource) return no("invalid_target", "resource does not match the authorization request");
  if (!verifyCodeVerifier(req.codeVerifier, code.codeChallenge)) return no("invalid_grant", "code_verifier does not match the code_challenge");
  return { ok: true };
}

export interface RefreshRecord {
  clientId: string;
  resource: string;
  expiresAt: number;
  usedAt: number | null;
  revokedAt: number | null;
  grantRevoked: boolean;
}

/** refresh_token grant with rotation (OAuth 2.1 4.3.1): each refresh token works once. */
export function judgeRefresh(token: RefreshRecord | null, req: { clientId: string; resource: string | undefined; now: number }): Verdict {
  if (!token) return no("invalid_grant", "the refresh token is unknown");
  if (token.revokedAt !== null || token.grantRevoked) return no("invalid_grant", "the refresh token has been revoked");
  if (token.clientId !== req.clientId) return no("invalid_grant", "the refresh token was issued to another client");
  if (token.usedAt !== null) {
    const replay = req.now - token.usedAt > REFRESH_REUSE_GRACE_MS;
    return no("invalid_grant", replay ? "the refresh token was already used; every token of this connection has been revoked" : "the refresh token was just used; use the new one", replay);
  }
  if (token.expiresAt <= req.now) return no("invalid_grant", "the refresh token has expired");
  if (req.resource !== undefined && req.resource !== token.resource) return no("invalid_target", "resource does not match the one the connection was granted for");
  return { ok: true };
}

/** Refresh tokens go to clients that registered the refresh_token grant, whether or not they asked for offline_access (MCP clients often do not). */
export function issuesRefreshToken(grantTypes: readonly string[]): boolean {
  return grantTypes.includes("refresh_token");
}
