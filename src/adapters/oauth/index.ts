import cookie from "@fastify/cookie";
import formbody from "@fastify/formbody";
import type { FastifyInstance } from "fastify";
import { registerAuthorize } from "./authorize.ts";
import { ClientResolver } from "./client-resolver.ts";
import type { OAuthDeps } from "./deps.ts";
import { registerMetadata } from "./metadata.ts";
import { sendOAuthError } from "./oauth-error.ts";
import { registerRegistration } from "./register.ts";
import { registerRevoke } from "./revoke.ts";
import { registerToken } from "./token.ts";

export { ConnectedApps } from "./connected-apps.ts";
export type { OAuthDeps, SignedInUser } from "./deps.ts";
export { OAuthTokenVerifier } from "./token-verifier.ts";

/**
 * The OAuth 2.1 authorization server for MCP clients: metadata, /register, /authorize with
 * consent, /token and /revoke, all at the origin root (clients that ignore the metadata
 * guess these paths). Registered in its own scope so its form parser and error shape stay here.
 */
export function registerOAuth(app: FastifyInstance, deps: OAuthDeps): void {
  const clients = new ClientResolver(deps.store, deps.clock, deps.fetchClientMetadata);
  void app.register(async (scope) => {
    // The web pages may register the same parser at the root first; one is enough.
    if (!scope.hasContentTypeParser("application/x-www-form-urlencoded")) await scope.register(formbody);
    // The consent page reads the browser's session and CSRF cookies (deps.currentUser, deps.csrf): the plugin
    // is registered here and in the web pages' context only, so that the API's calls run none of its hooks.
    await scope.register(cookie);
    // A body Fastify cannot parse is the client's mistake, answered in OAuth's error shape.
    scope.setErrorHandler(async (err: { statusCode?: number; message?: string }, req, reply) => {
      if (typeof err.statusCode === "number" && err.statusCode >= 400 && err.statusCode < 500) return sendOAuthError(reply, 400, "invalid_request", `the request body is malformed: ${err.message ?? ""}`);
      req.log.error({ err }, "oauth endpoint failed");
      return sendOAuthError(reply, 500, "server_error", "the server failed; try again");
    });
    registerMetadata(scope, deps);
    registerRegistration(scope, deps);
    registerAuthorize(scope, deps, clients);
    registerToken(scope, deps, clients);
    registerRevoke(scope, deps);
  });
}
