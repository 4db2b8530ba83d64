import type { FastifyReply } from "fastify";

/** An error of the token, registration and revocation endpoints, shaped as RFC 6749 5.2 asks. */
export function sendOAuthError(reply: FastifyReply, status: number, error: string, description: string): FastifyReply {
  // A 401 names the scheme the client should have used (RFC 6749 5.2, invalid_client).
  if (status === 401) reply.header("www-authenticate", `Bearer error="${error}"`);
  return reply.code(status).header("cache-control", "no-store").header("content-type", "application/json; charset=utf-8").send(JSON.stringify({ error, error_description: description }));
}

/** The form or JSON body as a map of single strings; a repeated parameter is an error (RFC 6749 3.1). */
export function formParams(body: unknown): { ok: true; params: Record<string, string> } | { ok: false; message: string } {
  if (typeof body !== "object" || body === null) return { ok: true, params: {} };
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (Array.isArray(v)) return { ok: false, message: `${k} must not be repeated` };
    if (typeof v === "string") out[k] = v;
  }
  return { ok: true, params: out };
}
