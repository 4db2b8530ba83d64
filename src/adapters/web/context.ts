import type { FastifyReply, FastifyRequest } from "fastify";
import type { Pipeline } from "../../operations/execute.ts";
import type { AttemptWindows } from "../../interfaces/attempts.ts";
import type { Clock } from "../../interfaces/clock.ts";
import type { SessionStore, UserStore } from "../../interfaces/people.ts";
import type { Html } from "../shared/html.ts";
import { layout, type PageOptions } from "./layout.ts";
import { csrfToken, currentUser, type SessionUser } from "./session.ts";

/** An OAuth grant as the keys page lists it; the OAuth server provides them. */
export interface ConnectedApp {
  id: string;
  clientName: string;
  scopes: string[];
  createdAt: number;
  lastUsedAt: number | null;
}

/** What the pages need from the rest of the service. */
export interface WebContext {
  pipeline: Pipeline;
  users: UserStore;
  sessions: SessionStore;
  clock: Clock;
  /** Failed sign-ins, counted across processes when there is Redis (domain/people/login-throttle.ts). */
  attempts: AttemptWindows;
  signupOpen: boolean;
  /** Connected apps (OAuth grants) of an account; none until the OAuth server is wired. */
  listGrants: (accountId: string) => Promise<ConnectedApp[]>;
  revokeGrant: (accountId: string, grantId: string) => Promise<boolean>;
}

/** A page body in the site's layout, with the signed-in user's header when there is one. */
export async function renderPage(req: FastifyRequest, o: Omit<PageOptions, "user">, body: Html): Promise<string> {
  const user = await currentUser(req);
  return layout({ ...o, user: user ? { email: user.email, csrf: csrfToken(req) } : null }, body);
}

/** Sends a page in the shared layout; secrets are on some POST answers, so none is cached. */
export async function sendPage(req: FastifyRequest, reply: FastifyReply, o: Omit<PageOptions, "user">, body: Html, status = 200): Promise<FastifyReply> {
  return reply.code(status).header("cache-control", "no-store").type("text/html; charset=utf-8").send(await renderPage(req, o, body));
}

/** The signed-in user, or a redirect to the sign-in page that comes back here afterwards. */
export async function requireUser(req: FastifyRequest, reply: FastifyReply): Promise<SessionUser | null> {
  const user = await currentUser(req);
  if (!user) {
    const next = req.method === "GET" ? req.url : "/account";
    await reply.redirect(`/login?next=${encodeURIComponent(next)}`, 303);
    return null;
  }
  return user;
}

export function who(req: FastifyRequest, user: SessionUser) {
  return { userId: user.userId, accountId: user.accountId, clientAddress: req.ip };
}

/** A form field as text ("" when missing or repeated). */
export function field(body: unknown, name: string): string {
  const v = (body as Record<string, unknown> | undefined)?.[name];
  return typeof v === "string" ? v : "";
}
