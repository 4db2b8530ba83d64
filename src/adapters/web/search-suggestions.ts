import type { FastifyInstance } from "fastify";
import { search } from "../../operations/search.ts";
import type { WebContext } from "./context.ts";
import { runAsVisitor, visitorPrincipal } from "./operation-call.ts";
import { currentUser } from "./session.ts";

/** Suggestions under the header's search box: a few, so the list stays readable on a phone. */
const SUGGESTIONS = 8;

/** Each kind in a word, after the name in the list. */
const KIND_WORDS: Readonly<Record<string, string>> = { vessel: "vessel", port: "port", flag: "flag", company: "company", wreck: "wreck", waterway: "waterway" };

/**
 * `GET /search/suggestions?q=`: what the header's search box offers as one types. It runs the
 * search operation as the visitor (their plan and rights, for web use, not charged), so a
 * suggestion never names what the search page would not show. Anything that is not a query
 * search takes (too short, repeated, too long) gets no suggestions rather than an error: the
 * box is still being typed into.
 */
export function registerSearchSuggestions(app: FastifyInstance, ctx: WebContext): void {
  app.get("/search/suggestions", async (req, reply) => {
    const q = (req.query as Record<string, unknown>).q;
    reply.header("cache-control", "private, no-cache").header("vary", "Cookie");
    if (typeof q !== "string" || q.trim().length < 2 || q.length > 100) return { suggestions: [] };
    const user = await currentUser(req);
    const principal = await visitorPrincipal(ctx.pipeline, user ? { userId: user.userId, accountId: user.accountId, clientAddress: req.ip } : { clientAddress: req.ip });
    const r = await runAsVisitor(ctx.pipeline, search, principal, { query: { q } });
    if (!r.ok) {
      if (r.error.status === 429) return reply.code(429).header("retry-after", "1").send({ suggestions: [] });
      return { suggestions: [] };
    }
    return { suggestions: r.data.slice(0, SUGGESTIONS).map((h) => ({ label: `${h.name} (${KIND_WORDS[h.kind] ?? h.kind})`, name: h.name, page: h.page })) };
  });
}
