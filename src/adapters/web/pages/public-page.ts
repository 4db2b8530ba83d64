import { createHash } from "node:crypto";
import { searchPagePath } from "../../../domain/pages/page-paths.ts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { Answer, Result, TopValues } from "../../../operations/answer.ts";
import type { Operation, TopSchemas } from "../../../operations/operation.ts";
import type { Principal } from "../../../operations/principal.ts";
import { type Html, html } from "../../shared/html.ts";
import { renderPage, type WebContext } from "../context.ts";
import type { PageOptions } from "../layout.ts";
import { runAsVisitor, visitorPrincipal } from "../operation-call.ts";
import { currentUser } from "../session.ts";

/**
 * A kind of public page (vessel, port, flag, wreck, search...): its routes and how it
 * renders one visit. Adding a kind is one file exporting one of these, listed in
 * `pages/index.ts`; addresses, redirects, status pages, ETags and the visitor's rights are
 * handled here once.
 */
export interface PublicPageKind {
  /** Fastify route patterns, e.g. `/vessel/:ref`. */
  routes: string[];
  render(visit: Visit): Promise<PageResult>;
}

export type PageResult =
  | { kind: "page"; options: Omit<PageOptions, "user">; body: Html; status?: number }
  /** To the canonical address (a path); the query string is kept. */
  | { kind: "moved"; to: string }
  /** A status page: not found, bad address, too many requests... */
  | { kind: "problem"; status: number; title: string; message: string };

export interface Visit {
  req: FastifyRequest;
  ctx: WebContext;
  /** Path parameters, as the route names them. */
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** Who the page runs as: the signed-in visitor's account and plan, or an anonymous caller. */
  principal: Principal;
  /** Runs an operation for this visitor, judged for web use. */
  call<S extends z.ZodObject, B extends z.ZodObject | undefined, D extends z.ZodType, T extends TopSchemas>(
    op: Operation<S, B, D, T>,
    input?: { params?: Record<string, string>; query?: Record<string, unknown> },
  ): Promise<Result<z.output<D>, TopValues<T>>>;
}

/** The titles of the status pages a failed call leads to. */
const PROBLEM_TITLES: Record<number, string> = { 400: "Not a valid address", 404: "Not found", 429: "Too many requests", 503: "Not available right now" };

/** A failed call's status page: its status and the API's own message. */
export function problemOf(failed: { status: number; message: string }): PageResult {
  return { kind: "problem", status: failed.status, title: PROBLEM_TITLES[failed.status] ?? "Something went wrong", message: failed.message };
}

/**
 * The answer an entity page is built from, or what to send instead: a 404 page when the id
 * is unknown or not an id at all (an address that names nothing is not found), a redirect
 * when the request is not at the answer's canonical `page` address.
 */
export async function entityAnswer<S extends z.ZodObject, B extends z.ZodObject | undefined, D extends z.ZodType, T extends TopSchemas & { page: z.ZodType<string> }>(
  v: Visit,
  op: Operation<S, B, D, T>,
  params: Record<string, string>,
): Promise<Answer<z.output<D>, TopValues<T>> | { ok: false; result: PageResult }> {
  const r = await v.call(op, { params });
  if (!r.ok) return { ok: false, result: problemOf(r.error.status === 400 ? { status: 404, message: r.error.message } : r.error) };
  const page = r.top.page;
  // Compared as sent: canonical addresses are plain ASCII, so any other spelling (escaped included) is sent there.
  if (v.req.url.split("?")[0] !== page) return { ok: false, result: { kind: "moved", to: page } };
  return r;
}

/**
 * A strong ETag over the page as sent: a visitor's second look at an unchanged page costs a
 * 304 and no body. The hash covers everything rendered (the signed-in header included).
 */
function etagOf(text: string): string {
  return `"${createHash("sha256").update(text).digest("base64url").slice(0, 27)}"`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((t) => {
    const v = t.trim();
    return v === "*" || v === etag || v === `W/${etag}`;
  });
}

export function registerPublicPages(app: FastifyInstance, ctx: WebContext, kinds: readonly PublicPageKind[]): void {
  for (const kind of kinds) {
    for (const route of kind.routes) {
      app.get(route, async (req, reply) => {
        const user = await currentUser(req);
        const principal = await visitorPrincipal(ctx.pipeline, user ? { userId: user.userId, accountId: user.accountId, clientAddress: req.ip } : { clientAddress: req.ip });
        const visit: Visit = {
          req,
          ctx,
          params: req.params as Record<string, string>,
          query: req.query as Record<string, unknown>,
          principal,
          call: (op, input = {}) => runAsVisitor(ctx.pipeline, op, principal, input),
        };
        const result = await kind.render(visit);
        if (result.kind === "moved") {
          const q = req.url.indexOf("?");
          // Revalidated, not kept: a renamed ship's address may come back, and a kept 301 would then loop.
          return reply.header("cache-control", "private, no-cache").redirect(q >= 0 ? result.to + req.url.slice(q) : result.to, 301);
        }
        const [status, options, body] =
          result.kind === "page"
            ? [result.status ?? 200, result.options, result.body]
            : [result.status, { title: result.title }, html`<p id="problem">${result.message}</p><p><a href="${searchPagePath()}">Search vessels, ports and flags</a></p>`];
        if (status === 429) reply.header("retry-after", "1");
        const text = await renderPage(req, options, body);
        const etag = etagOf(text);
        // Pages depend on who looks (their plan, their stations): a shared cache must not keep them.
        reply.header("cache-control", "private, no-cache").header("etag", etag).header("vary", "Cookie");
        if (status === 200 && matches(req.headers["if-none-match"], etag)) return reply.code(304).send();
        return reply.code(status).type("text/html; charset=utf-8").send(text);
      });
    }
  }
}
