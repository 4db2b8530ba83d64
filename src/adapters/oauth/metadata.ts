import type { FastifyInstance } from "fastify";
import { SCOPES } from "../../domain/oauth/scopes.ts";
import { issuerOf, type OAuthDeps } from "./deps.ts";

export const AS_METADATA_PATH = "/.well-known/oauth-authorization-server";

/** RFC 8414 authorization server metadata; the issuer is the origin root, the endpoints sit at the root. */
export function authorizationServerMetadata(issuer: string): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    registration_endpoint: `${issuer}/register`,
    revocation_endpoint: `${issuer}/revoke`,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    scopes_supported: [...SCOPES],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}

export function registerMetadata(app: FastifyInstance, deps: OAuthDeps): void {
  app.get(AS_METADATA_PATH, async (req, reply) => {
    reply.header("access-control-allow-origin", "*").header("cache-control", "public, max-age=3600");
    return authorizationServerMetadata(issuerOf(deps, req));
  });
}
