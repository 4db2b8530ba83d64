import type { FastifyInstance } from "fastify";
import { validateClientMetadata } from "../../domain/oauth/client-metadata.ts";
import { randomBase62 } from "../../domain/secrets.ts";
import type { OAuthDeps } from "./deps.ts";
import { sendOAuthError } from "./oauth-error.ts";

/**
 * RFC 7591 dynamic client registration, open to anyone (as MCP clients expect): what it
 * creates is only a name and redirect URIs; nothing is reachable without a user's consent.
 */
export function registerRegistration(app: FastifyInstance, deps: OAuthDeps): void {
  app.post("/register", { bodyLimit: 16 * 1024 }, async (req, reply) => {
    const check = validateClientMetadata(req.body, "dcr");
    if (!check.ok) return sendOAuthError(reply, 400, check.error, check.error_description);
    const now = deps.clock.now();
    const clientId = `mdsc_${randomBase62(24)}`;
    await deps.store.saveClient({ clientId, kind: "dcr", metadata: check.metadata, fetchedAt: now, expiresAt: null });
    reply.code(201).header("cache-control", "no-store");
    return { client_id: clientId, client_id_issued_at: Math.floor(now / 1000), ...check.metadata };
  });
}
