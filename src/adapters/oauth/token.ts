import type { FastifyInstance, FastifyReply } from "fastify";
import { judgeCodeExchange, judgeRefresh } from "../../domain/oauth/grant-rules.ts";
import { hashSecret } from "../../domain/secrets.ts";
import type { ClientResolver } from "./client-resolver.ts";
import { mcpResourceOf, type OAuthDeps } from "./deps.ts";
import { formParams, sendOAuthError } from "./oauth-error.ts";
import { issueTokens } from "./token-issuer.ts";

/**
 * /token: authorization_code (single-use code, PKCE, same redirect URI and resource) and
 * refresh_token with rotation. Public clients only: the client is named by client_id.
 * An unknown client gets 401 invalid_client, which makes Claude register again.
 */
export function registerToken(app: FastifyInstance, deps: OAuthDeps, clients: ClientResolver): void {
  const ok = (reply: FastifyReply, body: object) => reply.header("cache-control", "no-store").header("pragma", "no-cache").send(body);

  app.post("/token", { bodyLimit: 16 * 1024 }, async (req, reply) => {
    const read = formParams(req.body);
    if (!read.ok) return sendOAuthError(reply, 400, "invalid_request", read.message);
    const p = read.params;
    if (p.grant_type !== "authorization_code" && p.grant_type !== "refresh_token") {
      return sendOAuthError(reply, 400, p.grant_type ? "unsupported_grant_type" : "invalid_request", "grant_type must be authorization_code or refresh_token");
    }
    const resolved = await clients.resolve(p.client_id);
    if (!resolved.ok) return sendOAuthError(reply, 401, "invalid_client", resolved.message);
    const client = resolved.client;
    if (!client.metadata.grant_types.includes(p.grant_type)) return sendOAuthError(reply, 400, "unauthorized_client", `this client did not register the ${p.grant_type} grant`);
    const now = deps.clock.now();
    if (p.resource !== undefined && p.resource !== mcpResourceOf(deps, req)) return sendOAuthError(reply, 400, "invalid_target", `resource must be ${mcpResourceOf(deps, req)}`);

    if (p.grant_type === "authorization_code") {
      if (!p.code) return sendOAuthError(reply, 400, "invalid_request", "code is required");
      const code = await deps.store.findCode(hashSecret(p.code));
      const verdict = judgeCodeExchange(code, { clientId: client.clientId, redirectUri: p.redirect_uri, resource: p.resource, codeVerifier: p.code_verifier, now });
      if (!verdict.ok) {
        if (verdict.revokeFamily && code) await deps.store.revokeFamily(code.familyId, now);
        return sendOAuthError(reply, 400, verdict.error, verdict.description);
      }
      const issued = issueTokens({ grantId: code!.grantId, familyId: code!.familyId, resource: code!.resource, scopes: code!.scopes, grantTypes: client.metadata.grant_types, now });
      // Two requests with one code at once: only one marks it used; the other is a replay.
      if (!(await deps.store.redeemCode(code!.hash, now, issued.rows))) {
        await deps.store.revokeFamily(code!.familyId, now);
        return sendOAuthError(reply, 400, "invalid_grant", "the code has already been used");
      }
      return ok(reply, issued.response);
    }

    if (!p.refresh_token) return sendOAuthError(reply, 400, "invalid_request", "refresh_token is required");
    const token = await deps.store.findToken(hashSecret(p.refresh_token));
    const refresh = token && token.kind === "refresh" ? token : null;
    const verdict = judgeRefresh(refresh, { clientId: client.clientId, resource: p.resource, now });
    if (!verdict.ok) {
      if (verdict.revokeFamily && refresh) {
        await deps.store.revokeFamily(refresh.familyId, now);
        req.log.warn({ grantId: refresh.grantId, clientId: client.clientId }, "oauth refresh token reused; its family is revoked");
      }
      return sendOAuthError(reply, 400, verdict.error, verdict.description);
    }
    const issued = issueTokens({ grantId: refresh!.grantId, familyId: refresh!.familyId, resource: refresh!.resource, scopes: refresh!.scopes, grantTypes: client.metadata.grant_types, now });
    if (!(await deps.store.rotateRefreshToken(refresh!.hash, now, issued.rows))) return sendOAuthError(reply, 400, "invalid_grant", "the refresh token was just used; use the new one");
    return ok(reply, issued.response);
  });
}
