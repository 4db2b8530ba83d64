import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { parseId } from "../../domain/ids.ts";
import { deliveriesRetry } from "../../operations/account.deliveries.retry.ts";
import { webhooksCreate } from "../../operations/account.webhooks.create.ts";
import { webhooksDelete } from "../../operations/account.webhooks.delete.ts";
import { webhooksDeliveries } from "../../operations/account.webhooks.deliveries.ts";
import { webhooksDisable } from "../../operations/account.webhooks.disable.ts";
import { webhooksEnable } from "../../operations/account.webhooks.enable.ts";
import { webhooksGet } from "../../operations/account.webhooks.get.ts";
import { webhooksList } from "../../operations/account.webhooks.list.ts";
import { webhooksRotate } from "../../operations/account.webhooks.rotate.ts";
import { webhooksTest } from "../../operations/account.webhooks.test.ts";
import { webhooksUpdate } from "../../operations/account.webhooks.update.ts";
import type { Operation } from "../../operations/operation.ts";
import { confirmPage } from "./account-pages.ts";
import { field, requireUser, sendPage, type WebContext, who } from "./context.ts";
import { deliveryErrorWords } from "./delivery-errors.ts";
import { setFlash, takeFlash } from "./flash.ts";
import { type Html, html } from "../shared/html.ts";
import { flash, shownOnce } from "./layout.ts";
import { accountEntitlements, runAsAccount } from "./operation-call.ts";
import { csrfToken, type SessionUser } from "./session.ts";

const NOTICES: Record<string, string> = {
  enabled: "The endpoint is on again.",
  disabled: "The endpoint is turned off: alerts meanwhile are logged as skipped.",
  saved: "The endpoint is changed.",
  retried: "The delivery is queued for another attempt now.",
  deleted: "The endpoint is deleted, with its delivery log.",
};

/** The banner after a test event: what really happened to it, in words. */
function testBanner(t: Record<string, string>): Html {
  if (t.status === "delivered") return flash("notice", `The test event was delivered${t.statusCode ? ` (HTTP ${t.statusCode}${t.durationMs ? `, ${t.durationMs} ms` : ""})` : ""}.`);
  const words = t.errorClass ? deliveryErrorWords(t.errorClass) : null;
  const status = t.statusCode ? ` (HTTP ${t.statusCode})` : "";
  return html`<p class="error" role="alert" id="test-failed">The test event was not delivered${status}. ${words ? `${words.what} ${words.todo}` : t.error ?? ""}</p>`;
}

/** A delivery's error class in words, with the class itself for searching the docs. */
function errorCell(errorClass: string | null | undefined): Html {
  if (!errorClass) return html`-`;
  const words = deliveryErrorWords(errorClass);
  return words ? html`<code>${errorClass}</code>: ${words.what} <em>${words.todo}</em>` : html`<code>${errorClass}</code>`;
}

function isoText(iso: string | null): string {
  return iso === null ? "-" : iso.replace("T", " ").replace(/\.\d{3}Z$|Z$/, " UTC");
}

/**
 * Webhook endpoints: add (the spec 6.4 target rules are the API's: a refused URL shows its
 * reason on the form), the secret shown once, rotation with a grace period, test events,
 * the delivery log with paging, retries, and turning an endpoint back on. Every action runs
 * the API operation, so the pages and the API cannot disagree.
 */
export function registerWebhookPages(app: FastifyInstance, ctx: WebContext): void {
  async function listPage(req: FastifyRequest, reply: FastifyReply, user: SessionUser, extra: { secret?: { url: string; secret: string }; error?: string; notice?: string; url?: string; description?: string }, status = 200) {
    const r = await runAsAccount(ctx.pipeline, webhooksList, who(req, user));
    const endpoints = r.ok ? r.data : [];
    const csrf = csrfToken(req);
    // The plan's limit is said before the form, so nobody fills it in to learn their plan has no endpoints.
    const ent = await accountEntitlements(ctx.pipeline, user.accountId);
    const limit = ent.webhookEndpoints;
    const plans = ent.plans.length > 0 ? ent.plans.join(" and ") : "no";
    const room = endpoints.length < limit;
    return sendPage(
      req,
      reply,
      { title: "Webhooks", current: "/account/webhooks" },
      html`${extra.secret ? shownOnce(`Signing secret for ${extra.secret.url}.`, "new-secret", extra.secret.secret) : ""}
${flash("error", extra.error)}${flash("notice", extra.notice)}
<p>Alerts (zone entries, sanctions listings of vessels you follow) are sent as signed POSTs to your https endpoints. See the <a href="/docs/webhooks">receiver guide</a>.</p>
<h2>Add an endpoint</h2>
<p id="endpoint-limit">${limit === 0
  ? html`Your ${plans} plan includes no webhook endpoints. Pro and Team (web) and every API plan include them; see <a href="/account">your account</a>.`
  : html`Your ${plans} plan allows ${limit.toLocaleString("en")} endpoint${limit === 1 ? "" : "s"}; you have ${endpoints.length}.${room ? "" : " Delete one to add another."}`}</p>
${!room
  ? ""
  : html`<form method="post" action="/account/webhooks" class="stack">
<input type="hidden" name="_csrf" value="${csrf}">
<p><label for="webhook-url">URL</label><input id="webhook-url" name="url" type="url" required maxlength="2048" placeholder="https://example.org/hooks/mds" value="${extra.url ?? ""}" aria-describedby="webhook-url-rule${extra.error ? " form-error" : ""}">
<span id="webhook-url-rule" class="hint">https only, port 443 or 8443, a public host.</span></p>
<p><label for="webhook-description">Description (optional)</label><input id="webhook-description" name="description" maxlength="200" value="${extra.description ?? ""}"></p>
<p><button type="submit" id="add-endpoint">Add endpoint</button></p>
</form>`}
<h2>Your endpoints</h2>
${endpoints.length === 0
  ? html`<p>No endpoints yet.</p>`
  : html`<table id="endpoints"><caption>Webhook endpoints</caption>
<thead><tr><th scope="col">URL</th><th scope="col">Description</th><th scope="col">Status</th><th scope="col">Failures in a row</th><th scope="col">Details</th></tr></thead>
<tbody>${endpoints.map(
      (e) => html`<tr><td>${e.url}</td><td>${e.description ?? ""}</td><td>${e.status === "active" ? "active" : `turned off ${isoText(e.disabledAt)}`}</td><td>${e.failureStreak}</td>
<td><a href="/account/webhooks/${e.id}" aria-label="Details of ${e.url}">Details</a></td></tr>`,
    )}</tbody></table>`}`,
      status,
    );
  }

  app.get("/account/webhooks", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const made = takeFlash(req, reply);
    const done = String((req.query as Record<string, unknown>).done ?? "");
    return listPage(req, reply, user, { secret: made?.kind === "webhook-secret" && made.secret ? { url: made.url ?? "", secret: made.secret } : undefined, notice: NOTICES[done] });
  });

  app.post("/account/webhooks", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const url = field(req.body, "url").trim();
    const description = field(req.body, "description").trim();
    const r = await runAsAccount(ctx.pipeline, webhooksCreate, who(req, user), { body: { url, ...(description ? { description } : {}) } });
    if (!r.ok) return listPage(req, reply, user, { error: r.error.message, url, description }, r.error.status);
    // POST/redirect/GET: a reload shows the list instead of adding the endpoint again; the secret rides in a one-time sealed flash.
    setFlash(req, reply, { kind: "webhook-secret", url: r.data.url, secret: r.data.secret });
    return reply.redirect("/account/webhooks", 303);
  });

  async function detailPage(
    req: FastifyRequest,
    reply: FastifyReply,
    user: SessionUser,
    id: string,
    extra: { secret?: string; error?: string; notice?: string; tested?: Record<string, string>; url?: string; description?: string },
    status = 200,
  ) {
    const e = await runAsAccount(ctx.pipeline, webhooksGet, who(req, user), { params: { id } });
    if (!e.ok) return sendPage(req, reply, { title: "Webhook endpoint" }, html`${flash("error", e.error.message)}<p><a href="/account/webhooks">Back to webhooks</a></p>`, e.error.status);
    const cursor = (req.query as Record<string, unknown>).cursor;
    const d = await runAsAccount(ctx.pipeline, webhooksDeliveries, who(req, user), { params: { id }, query: typeof cursor === "string" ? { cursor } : {} });
    const csrf = csrfToken(req);
    const ep = e.data;
    const action = (path: string, label: string, id2: string, fields = html``) =>
      html`<form method="post" action="/account/webhooks/${ep.id}/${path}" class="inline"><input type="hidden" name="_csrf" value="${csrf}">${fields}<button type="submit" id="${id2}">${label}</button></form>`;
    return sendPage(
      req,
      reply,
      { title: `Endpoint ${ep.url}`, current: "/account/webhooks" },
      html`${extra.secret ? shownOnce("New signing secret.", "new-secret", extra.secret) : ""}
${extra.tested ? testBanner(extra.tested) : ""}${flash("error", extra.error)}${flash("notice", extra.notice)}
<p><a href="/account/webhooks">All endpoints</a></p>
<table id="endpoint"><caption>Endpoint</caption><tbody>
<tr><th scope="row">URL</th><td>${ep.url}</td></tr>
<tr><th scope="row">Description</th><td>${ep.description ?? "none"}</td></tr>
<tr><th scope="row">Status</th><td>${ep.status === "active" ? "active" : `turned off${ep.disabledReason ? ` (${ep.disabledReason})` : ""}`}</td></tr>
<tr><th scope="row">Secret starts with</th><td><code>${ep.secretStart}</code>${ep.previousSecretExpiresAt ? ` (the previous secret also signs until ${isoText(ep.previousSecretExpiresAt)})` : ""}</td></tr>
<tr><th scope="row">Created</th><td>${isoText(ep.createdAt)}</td></tr>
</tbody></table>
<h2>Actions</h2>
${ep.status === "disabled" ? action("enable", "Turn back on", "enable-endpoint") : action("disable", "Turn off", "disable-endpoint")}
${action("test", "Send a test event", "send-test")}
${action("rotate", "Rotate secret", "rotate-secret", html`<label for="grace">Old secret keeps signing for</label> <select id="grace" name="graceHours"><option value="24" selected>24 hours</option><option value="1">1 hour</option><option value="168">7 days</option><option value="0">no time (stop at once)</option></select> `)}
<p><a href="/account/webhooks/${ep.id}/delete" id="delete-endpoint">Delete this endpoint…</a></p>
<h2>Change</h2>
<form method="post" action="/account/webhooks/${ep.id}/edit" class="stack">
<input type="hidden" name="_csrf" value="${csrf}">
<p><label for="edit-url">URL</label><input id="edit-url" name="url" type="url" required maxlength="2048" value="${extra.url ?? ep.url}" aria-describedby="edit-url-rule"><span id="edit-url-rule" class="hint">https only, port 443 or 8443, a public host. Pending retries go to the new URL.</span></p>
<p><label for="edit-description">Description (optional)</label><input id="edit-description" name="description" maxlength="200" value="${extra.description ?? ep.description ?? ""}"></p>
<p><button type="submit" id="save-endpoint">Save changes</button></p>
</form>
<h2>Delivery log</h2>
${!d.ok
  ? flash("error", d.error.message)
  : d.data.length === 0
    ? html`<p>No deliveries yet.</p>`
    : html`<table id="deliveries"><caption>Deliveries, newest first</caption>
<thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">HTTP status</th><th scope="col">Duration</th><th scope="col">Error class</th><th scope="col">Attempts</th><th scope="col">Action</th></tr></thead>
<tbody>${d.data.map((dl) => {
        const last = dl.log.at(-1);
        return html`<tr><td>${isoText(dl.createdAt)}</td><td>${[dl.eventType, dl.action, logSubject(dl.subject)].filter(Boolean).join(" · ")}</td><td>${dl.status}</td><td>${last?.statusCode ?? "-"}</td><td>${last?.durationMs !== null && last?.durationMs !== undefined ? `${last.durationMs} ms` : "-"}</td><td>${errorCell(last?.errorClass)}</td><td>${dl.attempts}</td>
<td><form method="post" action="/account/deliveries/${dl.id}/retry" class="inline"><input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="endpoint" value="${ep.id}"><button type="submit" aria-label="Retry delivery ${dl.id}">Retry</button></form></td></tr>`;
      })}</tbody></table>
${d.nextCursor ? html`<p><a href="/account/webhooks/${ep.id}?cursor=${encodeURIComponent(d.nextCursor)}" rel="next">Older deliveries</a></p>` : ""}`}`,
      status,
    );
  }

  app.get("/account/webhooks/:id", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const { id } = req.params as { id: string };
    const done = String((req.query as Record<string, unknown>).done ?? "");
    const made = takeFlash(req, reply);
    return detailPage(req, reply, user, id, {
      notice: NOTICES[done],
      secret: made?.kind === "webhook-secret" ? made.secret : undefined,
      tested: made?.kind === "webhook-test" ? made : undefined,
    });
  });

  const simple = (path: string, operation: Operation, done: string) =>
    app.post(`/account/webhooks/:id/${path}`, async (req, reply) => {
      const user = await requireUser(req, reply);
      if (!user) return reply;
      const { id } = req.params as { id: string };
      const r = await runAsAccount(ctx.pipeline, operation, who(req, user), { params: { id } });
      if (!r.ok) return detailPage(req, reply, user, id, { error: r.error.message }, r.error.status);
      return reply.redirect(`/account/webhooks/${encodeURIComponent(id)}?done=${done}`, 303);
    });
  simple("enable", webhooksEnable, "enabled");
  simple("disable", webhooksDisable, "disabled");

  // The banner after a test says what happened to it: the answer carries the attempt.
  app.post("/account/webhooks/:id/test", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const { id } = req.params as { id: string };
    const r = await runAsAccount(ctx.pipeline, webhooksTest, who(req, user), { params: { id } });
    if (!r.ok) return detailPage(req, reply, user, id, { error: r.error.message }, r.error.status);
    const attempt = r.data.delivery.log.at(-1);
    setFlash(req, reply, {
      kind: "webhook-test",
      status: r.data.delivery.status,
      ...(attempt?.statusCode ? { statusCode: String(attempt.statusCode) } : {}),
      ...(attempt?.durationMs !== null && attempt?.durationMs !== undefined ? { durationMs: String(attempt.durationMs) } : {}),
      ...(attempt?.errorClass ? { errorClass: attempt.errorClass } : {}),
      ...(attempt?.error ? { error: attempt.error.slice(0, 300) } : {}),
    });
    return reply.redirect(`/account/webhooks/${encodeURIComponent(id)}`, 303);
  });

  app.post("/account/webhooks/:id/edit", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const { id } = req.params as { id: string };
    const url = field(req.body, "url").trim();
    const description = field(req.body, "description").trim();
    const r = await runAsAccount(ctx.pipeline, webhooksUpdate, who(req, user), { params: { id }, body: { url, description: description === "" ? null : description } });
    if (!r.ok) return detailPage(req, reply, user, id, { error: r.error.message, url, description }, r.error.status);
    return reply.redirect(`/account/webhooks/${encodeURIComponent(id)}?done=saved`, 303);
  });

  // Deleting asks first on a page of its own, which works without script.
  app.get("/account/webhooks/:id/delete", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const { id } = req.params as { id: string };
    const e = await runAsAccount(ctx.pipeline, webhooksGet, who(req, user), { params: { id } });
    if (!e.ok) return detailPage(req, reply, user, id, {}, e.error.status);
    return confirmPage(
      req,
      reply,
      "Delete webhook endpoint",
      html`<p>Delete the endpoint <strong>${e.data.url}</strong>? Its pending deliveries and its delivery log go with it; alerts are no longer sent there.</p>`,
      `/account/webhooks/${e.data.id}/delete`,
      "Delete endpoint",
      `/account/webhooks/${e.data.id}`,
    );
  });

  app.post("/account/webhooks/:id/delete", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const { id } = req.params as { id: string };
    const r = await runAsAccount(ctx.pipeline, webhooksDelete, who(req, user), { params: { id } });
    if (!r.ok) return detailPage(req, reply, user, id, { error: r.error.message }, r.error.status);
    return reply.redirect("/account/webhooks?done=deleted", 303);
  });

  app.post("/account/webhooks/:id/rotate", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const { id } = req.params as { id: string };
    const grace = field(req.body, "graceHours");
    const r = await runAsAccount(ctx.pipeline, webhooksRotate, who(req, user), { params: { id }, body: grace === "" ? {} : { graceHours: Number(grace) } });
    if (!r.ok) return detailPage(req, reply, user, id, { error: r.error.message }, r.error.status);
    // POST/redirect/GET: the new secret rides in a one-time sealed flash to the page the redirect opens.
    setFlash(req, reply, { kind: "webhook-secret", secret: r.data.secret });
    return reply.redirect(`/account/webhooks/${encodeURIComponent(id)}`, 303);
  });

  app.post("/account/deliveries/:id/retry", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const { id } = req.params as { id: string };
    const endpoint = field(req.body, "endpoint");
    const r = await runAsAccount(ctx.pipeline, deliveriesRetry, who(req, user), { params: { id } });
    // The endpoint only says which page to come back to; anything but an endpoint id goes to the list.
    if (parseId("wh", endpoint) === null) return reply.redirect("/account/webhooks", 303);
    if (!r.ok) return detailPage(req, reply, user, endpoint, { error: r.error.message }, r.error.status);
    return reply.redirect(`/account/webhooks/${endpoint}?done=retried`, 303);
  });
}

/** A delivery's subject in the log: its name and the identifier that names it (IMO, else MMSI, else UN/LOCODE). */
function logSubject(s: { name: string | null; imo: number | null; mmsi: number | null; unlocode: string | null } | null): string {
  if (!s) return "";
  const id = s.imo !== null ? `IMO ${s.imo}` : s.mmsi !== null ? `MMSI ${String(s.mmsi).padStart(9, "0")}` : s.unlocode;
  return [s.name, id].filter(Boolean).join(", ");
}
