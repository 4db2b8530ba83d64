import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { nameField } from "../../operations/account.common.ts";
import { usageGet } from "../../operations/usage.get.ts";
import { field, requireUser, sendPage, type WebContext, who } from "./context.ts";
import { type Html, html } from "../shared/html.ts";
import { setFlash, takeFlash } from "./flash.ts";
import { flash, nameForm, shownOnce, when } from "./layout.ts";
import { runAsAccount } from "./operation-call.ts";
import { csrfToken, type SessionUser } from "./session.ts";

const keyName = nameField(100);

/** The account overview (plans, credits, limits), API keys and connected apps. */
export function registerAccountPages(app: FastifyInstance, ctx: WebContext): void {
  app.get("/account", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const r = await runAsAccount(ctx.pipeline, usageGet, who(req, user));
    const body = r.ok
      ? html`<h2>Plan and usage</h2>
<table id="usage">
<caption>This month's figures, the same as <code>GET /api/v1/usage</code> gives</caption>
<tbody>
<tr><th scope="row">Plans</th><td>${r.data.plans.join(", ")} (tier ${r.data.tier})</td></tr>
<tr><th scope="row">Credits used</th><td>${r.data.credits.used.toLocaleString("en")} of ${r.data.credits.limit.toLocaleString("en")}</td></tr>
<tr><th scope="row">Credits remaining</th><td>${r.data.credits.remaining.toLocaleString("en")}</td></tr>
<tr><th scope="row">Credits reset</th><td>${r.data.credits.resetsAt.replace("T", " ").replace(/\.\d{3}Z$|Z$/, " UTC")}</td></tr>
<tr><th scope="row">Rate limit</th><td>${r.data.rateLimitPerSecond} requests per second</td></tr>
<tr><th scope="row">Commercial use</th><td>${r.data.commercialUse ? `allowed (${r.data.commercialScope})` : `not allowed (${r.data.commercialScope})`}</td></tr>
</tbody>
</table>`
      : flash("error", r.error.message);
    return sendPage(
      req,
      reply,
      { title: "Account", current: "/account" },
      html`<p>Signed in as <strong>${user.email}</strong>.</p>
${body}
<h2>Sessions</h2>
<form method="post" action="/logout/everywhere">
<input type="hidden" name="_csrf" value="${csrfToken(req)}">
<p>Signed in on another device you no longer have? <button type="submit" id="sign-out-everywhere">Sign out everywhere</button></p>
</form>`,
    );
  });

  async function keysPage(req: FastifyRequest, reply: FastifyReply, user: SessionUser, extra: { created?: { name: string; key: string }; error?: string; notice?: string }, status = 200) {
    const keys = await ctx.pipeline.services.accounts.listKeys(user.accountId);
    const apps = await ctx.listGrants(user.accountId);
    const csrf = csrfToken(req);
    const active = keys.filter((k) => k.revokedAt === null);
    return sendPage(
      req,
      reply,
      { title: "API keys", current: "/account/keys" },
      html`${extra.created ? shownOnce(`New API key “${extra.created.name}”.`, "new-key", extra.created.key) : ""}
${flash("error", extra.error)}${flash("notice", extra.notice)}
<h2>Create a key</h2>
${nameForm({ action: "/account/keys", csrf, inputId: "key-name", buttonId: "create-key", button: "Create key" })}
<h2>Your keys</h2>
${active.length === 0
  ? html`<p>No keys yet.</p>`
  : html`<table id="keys"><caption>Active API keys</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Starts with</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Action</th></tr></thead>
<tbody>${active.map(
      (k) => html`<tr><td>${k.name ?? "(unnamed)"}</td><td><code>${k.start}…</code></td><td>${when(k.createdAt)}</td><td>${when(k.lastUsedAt)}</td>
<td><a href="/account/keys/${k.id}/revoke" aria-label="Revoke key ${k.name ?? k.start}">Revoke…</a></td></tr>`,
    )}</tbody></table>`}
<h2>Connected apps</h2>
${apps.length === 0
  ? html`<p id="no-apps">No connected apps.</p>`
  : html`<table id="apps"><caption>Assistants and other apps you allowed to use your account through OAuth</caption>
<thead><tr><th scope="col">App</th><th scope="col">Access</th><th scope="col">Connected</th><th scope="col">Last used</th><th scope="col">Action</th></tr></thead>
<tbody>${apps.map(
      (a) => html`<tr><td>${a.clientName}</td><td>${a.scopes.join(", ") || "-"}</td><td>${when(a.createdAt)}</td><td>${when(a.lastUsedAt)}</td>
<td><a href="/account/apps/${a.id}/disconnect" aria-label="Disconnect ${a.clientName}">Disconnect…</a></td></tr>`,
    )}</tbody></table>`}`,
      status,
    );
  }

  app.get("/account/keys", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const done = (req.query as Record<string, unknown>).done;
    const made = takeFlash(req, reply);
    const created = made?.kind === "key" && made.key ? { name: made.name ?? "", key: made.key } : undefined;
    return keysPage(req, reply, user, { created, notice: done === "revoked" ? "The key is revoked." : done === "disconnected" ? "The app is disconnected." : undefined });
  });

  app.post("/account/keys", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const name = keyName.safeParse(field(req.body, "name"));
    if (!name.success) return keysPage(req, reply, user, { error: `Name ${name.error.issues[0]!.message}.` }, 400);
    const created = await ctx.pipeline.services.accounts.createKey(user.accountId, name.data);
    // POST/redirect/GET: a reload shows the list, it does not make a second key. The key rides in a
    // one-time sealed flash (never in a URL), shown on the page the redirect opens and never again.
    setFlash(req, reply, { kind: "key", name: name.data, key: created.key });
    return reply.redirect("/account/keys", 303);
  });

  // Destructive actions ask first on a page of their own, which works without script.
  app.get("/account/keys/:id/revoke", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const { id } = req.params as { id: string };
    const key = (await ctx.pipeline.services.accounts.listKeys(user.accountId)).find((k) => k.id === id && k.revokedAt === null);
    if (!key) return keysPage(req, reply, user, { error: "No such active key in this account." }, 404);
    return confirmPage(req, reply, "Revoke API key", html`<p>Revoke the key <strong>${key.name ?? "(unnamed)"}</strong> (<code>${key.start}…</code>)? Programs using it stop working at once.</p>`, `/account/keys/${id}/revoke`, "Revoke key", "/account/keys");
  });

  app.get("/account/apps/:grantId/disconnect", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const { grantId } = req.params as { grantId: string };
    const grant = (await ctx.listGrants(user.accountId)).find((g) => g.id === grantId);
    if (!grant) return keysPage(req, reply, user, { error: "No such connected app in this account." }, 404);
    return confirmPage(req, reply, "Disconnect app", html`<p>Disconnect <strong>${grant.clientName}</strong>? It loses access to your account at once.</p>`, `/account/apps/${grantId}/disconnect`, "Disconnect", "/account/keys");
  });

  app.post("/account/keys/:id/revoke", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const { id } = req.params as { id: string };
    const own = (await ctx.pipeline.services.accounts.listKeys(user.accountId)).some((k) => k.id === id && k.revokedAt === null);
    if (!own) return keysPage(req, reply, user, { error: "No such active key in this account." }, 404);
    await ctx.pipeline.services.accounts.revokeKey(id);
    // This process stops accepting the key now rather than when its cache entry ages out.
    ctx.pipeline.auth.forget();
    return reply.redirect("/account/keys?done=revoked", 303);
  });

  app.post("/account/apps/:grantId/disconnect", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const { grantId } = req.params as { grantId: string };
    if (!(await ctx.revokeGrant(user.accountId, grantId))) return keysPage(req, reply, user, { error: "No such connected app in this account." }, 404);
    return reply.redirect("/account/keys?done=disconnected", 303);
  });
}

/** "Are you sure?" as a page: the POST form plus a way back. */
export function confirmPage(req: FastifyRequest, reply: FastifyReply, title: string, question: Html, action: string, button: string, back: string) {
  return sendPage(
    req,
    reply,
    { title },
    html`${question}
<form method="post" action="${action}" class="inline">
<input type="hidden" name="_csrf" value="${csrfToken(req)}">
<button type="submit" id="confirm">${button}</button> <a href="${back}">Cancel</a>
</form>`,
  );
}
