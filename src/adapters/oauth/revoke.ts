import type { FastifyInstance } from "fastify";
import { hashSecret } from "../../domain/secrets.ts";
import type { OAuthDeps } from "./deps.ts";
import { formParams, sendOAuthError } from "./oauth-error.ts";

/**
 * RFC 7009 revocation. A refresh token takes its whole family (and the access tokens issued
 * with it); an access token goes alone. Unknown tokens, or tokens of another client, are
 * answered 200 as well, so the endpoint tells nobody which tokens exist.
 */
export function registerRevoke(app: FastifyInstance, deps: OAuthDeps): void {
  app.post("/revoke", { bodyLimit: 16 * 1024 }, async (req, reply) => {
    const read = formParams(req.body);
    if (!read.ok) return sendOAuthError(reply, 400, "invalid_request", read.message);
    const { token, client_id: clientId } = read.params;
    if (!token) return sendOAuthError(reply, 400, "invalid_request", "token is required");
    if (!clientId) return sendOAuthError(reply, 401, "invalid_client", "client_id is required");
    const found = await deps.store.findToken(hashSecret(token));
    if (found && found.clientId === clientId) {
      const now = deps.clock.now();
      if (found.kind === "refresh") await deps.store.revokeFamily(found.familyId, now);
      else await deps.store.revokeToken(found.hash, now);
    }
    return reply.code(200).header("cache-control", "no-store").send();
  });
}
