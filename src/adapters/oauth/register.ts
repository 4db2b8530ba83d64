import type { FastifyInstance } from "fastify";
import { REGISTER_MAX_PER_ADDRESS, REGISTER_WINDOW_MS, registerSubject, waitText } from "../../domain/oauth/address-limits.ts";
import { validateClientMetadata } from "../../domain/oauth/client-metadata.ts";
import { randomBase62 } from "../../domain/secrets.ts";
import type { OAuthDeps } from "./deps.ts";
import { sendOAuthError } from "./oauth-error.ts";

/**
 * RFC 7591 dynamic client registration, open to anyone (as MCP clients expect): what it
 * creates is only a name and redirect URIs; nothing is reachable without a user's consent.
 * Each client address may register 20 clients an hour (domain/oauth/address-limits.ts);
 * past that, 429 `too_many_requests` with Retry-After, in the RFC 7591 error shape.
 */
export function registerRegistration(app: FastifyInstance, deps: OAuthDeps): void {
  app.post("/register", { bodyLimit: 16 * 1024 }, async (req, reply) => {
    const wait = await deps.attempts.take(registerSubject(req.ip), REGISTER_MAX_PER_ADDRESS, REGISTER_WINDOW_MS, deps.clock.now());
    if (wait > 0) {
      reply.header("retry-after", String(Math.ceil(wait / 1000)));
      return sendOAuthError(reply, 429, "too_many_requests", `this address registered ${REGISTER_MAX_PER_ADDRESS} clients within the hour; try again in ${waitText(wait)}`);
    }
    const check = validateClientMetadata(req.body, "dcr");
    if (!check.ok) return sendOAuthError(reply, 400, check.error, check.error_description);
    const now = deps.clock.now();
    const clientId = `mdsc_${randomBase62(24)}`;
    await deps.store.saveClient({ clientId, kind: "dcr", metadata: check.metadata, fetchedAt: now, expiresAt: null });
    reply.code(201).header("cache-control", "no-store");
    return { client_id: clientId, client_id_issued_at: Math.floor(now / 1000), ...check.metadata };
  });
}
