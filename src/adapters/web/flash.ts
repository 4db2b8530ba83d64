import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { sessionCookieName } from "./session.ts";

/**
 * A one-time message from a form's POST to the page its redirect shows (POST/redirect/GET):
 * reloading that page then sends a GET, so a form is never sent twice, and a secret made
 * by the POST (an API key, a station's or an endpoint's secret) is still shown exactly once.
 *
 * The message rides in a short-lived cookie sealed with AES-256-GCM under a key derived from
 * the browser's own session cookie: any process of the service can open it (nothing is kept
 * server-side), and without that session it is worthless. It is cleared when read.
 */
const FLASH_COOKIE = "mds_flash";
/** Long enough for a redirect to be followed, short enough that a forgotten one does not linger. */
const FLASH_SECONDS = 120;

function keyOf(req: FastifyRequest): Buffer | null {
  const session = req.cookies[sessionCookieName(req.server.mdsSessions.secure)];
  if (!session) return null;
  return Buffer.from(hkdfSync("sha256", session, "", "mds flash v1", 32));
}

/** Leaves a message for the next page this browser opens; needs a signed-in session. */
export function setFlash(req: FastifyRequest, reply: FastifyReply, message: Record<string, string>): void {
  const key = keyOf(req);
  if (!key) return;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(message), "utf8"), cipher.final()]);
  const value = Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
  reply.setCookie(FLASH_COOKIE, value, { path: "/", httpOnly: true, sameSite: "strict", secure: req.server.mdsSessions.secure, maxAge: FLASH_SECONDS });
}

/** The message left by the last POST, once: it is cleared as it is read. Anything not sealed by this session is ignored. */
export function takeFlash(req: FastifyRequest, reply: FastifyReply): Record<string, string> | null {
  const value = req.cookies[FLASH_COOKIE];
  if (!value) return null;
  reply.clearCookie(FLASH_COOKIE, { path: "/", httpOnly: true, sameSite: "strict", secure: req.server.mdsSessions.secure });
  const key = keyOf(req);
  const bytes = Buffer.from(value, "base64url");
  if (!key || bytes.length < 29 || bytes.length > 4096) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const text = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== "object" || parsed === null) return null;
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === "string"));
  } catch {
    return null;
  }
}
