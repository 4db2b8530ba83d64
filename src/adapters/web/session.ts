import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { newSessionTimes, SESSION_ABSOLUTE_MS, sessionAlive, sessionNeedsTouch } from "../../domain/people/session-rules.ts";
import type { Clock } from "../../interfaces/clock.ts";
import type { SessionStore, UserStore } from "../../interfaces/people.ts";

/**
 * Server-side sessions in a cookie, and CSRF tokens bound to them.
 *
 * The cookie holds 256 random bits; the store holds only their SHA-256. Over https the
 * cookie is `__Host-mds_session` (Secure, Path=/, no Domain: a sibling host cannot plant
 * one). Browsers refuse a `__Host-` cookie without Secure, and Secure cookies are dropped
 * over plain http on anything but localhost, so a service whose BASE_URL is http uses the
 * unprefixed name `mds_session` without Secure.
 *
 * CSRF: the token is an HMAC of the session's cookie value (or, before sign-in, of a random
 * `mds_csrf` cookie), so it needs no server state, works across processes, and a page of
 * another site can neither read nor compute it.
 */

export interface SessionUser {
  userId: string;
  accountId: string;
  email: string;
}

export interface SessionDeps {
  sessions: SessionStore;
  users: UserStore;
  clock: Clock;
  /** True when the public base URL is https: the cookie is then Secure and `__Host-` prefixed. */
  secure: boolean;
}

const PRE_SESSION_COOKIE = "mds_csrf";

declare module "fastify" {
  interface FastifyInstance {
    mdsSessions: SessionDeps;
  }
}

/** Called once by registerWeb on the root instance; the helpers below then work in any route of the app (the OAuth pages too). */
export function configureSessions(app: FastifyInstance, d: SessionDeps): void {
  app.decorate("mdsSessions", d);
}

function need(req: FastifyRequest): SessionDeps {
  const d = req.server.mdsSessions;
  if (!d) throw new Error("sessions are not configured: registerWeb() has not run");
  return d;
}

export function sessionCookieName(secure: boolean): string {
  return secure ? "__Host-mds_session" : "mds_session";
}

function cookieOf(req: FastifyRequest): string | undefined {
  return req.cookies[sessionCookieName(need(req).secure)];
}

const sha256 = (v: string) => createHash("sha256").update(v, "utf8").digest("hex");

function cookieOptions(secure: boolean, maxAgeSeconds: number) {
  return { path: "/", httpOnly: true, sameSite: "lax" as const, secure, maxAge: maxAgeSeconds };
}

const cache = new WeakMap<FastifyRequest, Promise<SessionUser | null>>();

/** The signed-in user of this request, or null (no cookie, unknown, expired or idle session). */
export function currentUser(req: FastifyRequest): Promise<SessionUser | null> {
  let hit = cache.get(req);
  if (!hit) {
    hit = lookup(req);
    cache.set(req, hit);
  }
  return hit;
}

async function lookup(req: FastifyRequest): Promise<SessionUser | null> {
  const d = need(req);
  const raw = cookieOf(req);
  if (!raw || raw.length > 100) return null;
  const idHash = sha256(raw);
  const s = await d.sessions.getSession(idHash);
  const now = d.clock.now();
  if (!s) return null;
  if (!sessionAlive(s, now)) {
    await d.sessions.deleteSession(idHash);
    return null;
  }
  const user = await d.users.getUser(s.userId);
  if (!user) return null;
  if (sessionNeedsTouch(s, now)) await d.sessions.touchSession(idHash, now);
  return { userId: user.id, accountId: user.accountId, email: user.email };
}

/** Starts a fresh session (a new id at every sign-in, so a planted cookie is worthless) and sets its cookie. */
export async function startSession(req: FastifyRequest, reply: FastifyReply, userId: string): Promise<void> {
  const d = need(req);
  const name = sessionCookieName(d.secure);
  const raw = randomBytes(32).toString("base64url");
  const times = newSessionTimes(d.clock.now());
  await d.sessions.createSession({ idHash: sha256(raw), userId, ...times, ip: req.ip ?? null, userAgent: req.headers["user-agent"]?.slice(0, 300) ?? null });
  const old = req.cookies[name];
  if (old) await d.sessions.deleteSession(sha256(old));
  reply.setCookie(name, raw, cookieOptions(d.secure, Math.floor(SESSION_ABSOLUTE_MS / 1000)));
  req.cookies[name] = raw;
  cache.delete(req);
}

/** Ends this browser's session. */
export async function endSession(req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const d = need(req);
  const raw = cookieOf(req);
  if (raw) await d.sessions.deleteSession(sha256(raw));
  cache.delete(req);
  reply.clearCookie(sessionCookieName(d.secure), { path: "/", secure: d.secure, httpOnly: true, sameSite: "lax" });
}

/** Ends every session of the user, this one included. */
export async function endAllSessions(req: FastifyRequest, userId: string): Promise<number> {
  return need(req).sessions.deleteUserSessions(userId);
}

/** The value a CSRF token is bound to: the session cookie, else the pre-session cookie (set here when missing). */
function csrfBinding(req: FastifyRequest, reply?: FastifyReply): string | null {
  const session = cookieOf(req);
  if (session) return session;
  let pre = req.cookies[PRE_SESSION_COOKIE];
  if (!pre && reply) {
    pre = randomBytes(32).toString("base64url");
    reply.setCookie(PRE_SESSION_COOKIE, pre, cookieOptions(need(req).secure, 2 * 3600));
    req.cookies[PRE_SESSION_COOKIE] = pre;
  }
  return pre ?? null;
}

const tokenFor = (binding: string) => createHmac("sha256", binding).update("mds csrf v1").digest("base64url");

/** The token to put in a form's hidden `_csrf` field. Pass the reply on pages seen before sign-in, so a pre-session cookie can be set. */
export function csrfToken(req: FastifyRequest, reply?: FastifyReply): string {
  const binding = csrfBinding(req, reply);
  if (!binding) throw new Error("csrfToken() before sign-in needs the reply, to set its cookie");
  return tokenFor(binding);
}

export function verifyCsrf(req: FastifyRequest, token: unknown): boolean {
  if (typeof token !== "string" || token.length === 0 || token.length > 100) return false;
  const binding = csrfBinding(req);
  if (!binding) return false;
  const want = Buffer.from(tokenFor(binding));
  const got = Buffer.from(token);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** `next` after sign-in: a path on this site only (not `//host`, not `/\host`, not a URL). */
export function safeNext(next: unknown): string {
  if (typeof next !== "string" || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\") || next.length > 500 || /[\r\n\t]/.test(next)) return "/account";
  return next;
}
