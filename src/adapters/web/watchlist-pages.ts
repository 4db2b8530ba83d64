import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { parseMembers } from "../../domain/watchlists/members.ts";
import type { Result } from "../../operations/answer.ts";
import type { Pipeline } from "../../operations/execute.ts";
import { watchlistsCreate } from "../../operations/account.watchlists.create.ts";
import { watchlistsDelete } from "../../operations/account.watchlists.delete.ts";
import { watchlistsList } from "../../operations/account.watchlists.list.ts";
import { watchlistsScreen } from "../../operations/account.watchlists.screen.ts";
import type { WatchlistSchema } from "../../operations/projections/watchlist-view.ts";
import type { ScreenResultSchema } from "../../operations/screening.ts";
import { html } from "../shared/html.ts";
import { field, requireUser, sendPage, type WebContext, who } from "./context.ts";
import { flash, when } from "./layout.ts";
import { acceptMultipartForms, uploadedFile } from "./multipart-form.ts";
import { runAsAccount, type Who } from "./operation-call.ts";
import { screeningCsv } from "./screening-csv.ts";
import { csrfToken, type SessionUser } from "./session.ts";
import { readIdLines } from "./watchlist-id-lines.ts";

/** An upload of 10,000 ids with a few columns beside them fits; the API's own JSON body limit is 1 MiB. */
const UPLOAD_LIMIT = 4 * 1024 * 1024;
/** Refused lines listed on the page at most; the rest are counted. */
const REFUSED_SHOWN = 200;
/** The largest page the screening operation serves: a whole list is screened in pages of it. */
const SCREEN_PAGE = "100";

type ScreenRow = z.output<typeof ScreenResultSchema>;
type Screening = { watchlist: z.output<typeof WatchlistSchema>; rows: ScreenRow[]; coverageNote: string; credits: number };

/**
 * A whole watchlist screened through the API's operation, page after page, as the API would
 * charge it (1 credit a vessel). A page refused by the rate limit is asked again after the
 * wait it names, a few times, so a long list is not cut short by its own pages.
 */
async function screenWholeList(pipeline: Pipeline, caller: Who, id: string): Promise<{ ok: true; value: Screening } | { ok: false; error: { message: string; status: number } }> {
  const rows: ScreenRow[] = [];
  let cursor: string | undefined;
  let first: Screening | null = null;
  let credits = 0;
  for (let waits = 0; ; ) {
    const r: Result<ScreenRow[], { watchlist: z.output<typeof WatchlistSchema>; coverageNote: string }> = await runAsAccount(pipeline, watchlistsScreen, caller, {
      params: { id },
      query: { limit: SCREEN_PAGE, ...(cursor ? { cursor } : {}) },
    });
    if (!r.ok) {
      if (r.error.code === "rate_limited" && waits++ < 3) {
        await new Promise((resolve) => setTimeout(resolve, 1000 * Number(r.error.details.retryAfter ?? 1)));
        continue;
      }
      return { ok: false, error: { message: r.error.message, status: r.error.status } };
    }
    first ??= { watchlist: r.top.watchlist, rows, coverageNote: r.top.coverageNote, credits: 0 };
    rows.push(...r.data);
    credits += r.metering.credits.cost;
    if (!r.nextCursor) break;
    cursor = r.nextCursor;
  }
  return { ok: true, value: { ...first!, credits } };
}

/** A form's ids: the pasted text and the uploaded file, each line named by where it came from. */
function idsOfForm(body: unknown): { ok: true; ids: { text: string; where: string }[] } | { ok: false; message: string } {
  const pasted = field(body, "ids");
  const file = uploadedFile(body, "file");
  const ids: { text: string; where: string }[] = [];
  for (const [text, label] of [
    [pasted, "Pasted line"],
    [file?.text ?? "", `${file?.filename || "File"} line`],
  ] as const) {
    if (text.trim() === "") continue;
    const read = readIdLines(text);
    if (!read.ok) return read;
    ids.push(...read.ids.map((i) => ({ text: i.text, where: `${label} ${i.line}` })));
  }
  if (ids.length === 0) return { ok: false, message: "Paste vessel ids or choose a CSV file: the list would be empty." };
  return { ok: true, ids };
}

/** Watchlists: made by pasting ids or uploading a CSV (without script too), screened now, downloaded as CSV. */
export function registerWatchlistPages(web: FastifyInstance, ctx: WebContext): void {
  /** A list that could not be screened (not the account's, credits used up): the reason, and the way back. */
  const refused = (req: FastifyRequest, reply: FastifyReply, error: { message: string; status: number }) =>
    sendPage(req, reply, { title: "Watchlist", current: "/account/watchlists" }, html`${flash("error", error.message)}<p><a href="/account/watchlists">Back to watchlists</a></p>`, error.status);

  async function page(req: FastifyRequest, reply: FastifyReply, user: SessionUser, extra: { error?: string; notice?: string; name?: string; ids?: string; refused?: { text: string; where: string }[] }, status = 200) {
    const lists = await runAsAccount(ctx.pipeline, watchlistsList, who(req, user));
    const csrf = csrfToken(req);
    const refused = extra.refused ?? [];
    return sendPage(
      req,
      reply,
      { title: "Watchlists", current: "/account/watchlists" },
      html`${flash("error", extra.error)}${flash("notice", extra.notice)}
${refused.length > 0
  ? html`<ul id="refused-lines" aria-label="Refused lines">${refused.slice(0, REFUSED_SHOWN).map((r) => html`<li>${r.where}: <code>${r.text}</code></li>`)}${refused.length > REFUSED_SHOWN ? html`<li>and ${refused.length - REFUSED_SHOWN} more</li>` : ""}</ul>`
  : ""}
<h2>Add a watchlist</h2>
<p>A watchlist is screened as a whole against the sanctions lists, 1 credit per vessel each time it is screened.</p>
<form method="post" action="/account/watchlists" enctype="multipart/form-data" class="stack" id="watchlist-form">
<input type="hidden" name="_csrf" value="${csrf}">
<p><label for="watchlist-name">Name</label><input id="watchlist-name" name="name" required maxlength="100" value="${extra.name ?? ""}"></p>
<p><label for="watchlist-ids">Vessel ids</label><textarea id="watchlist-ids" name="ids" rows="6" aria-describedby="watchlist-ids-rule">${extra.ids ?? ""}</textarea>
<span id="watchlist-ids-rule" class="hint">IMO numbers (e.g. 9176187) or mmsi- ids (e.g. mmsi-244123456), one per line or separated by commas; up to 10,000.</span></p>
<p><label for="watchlist-file">Or a CSV file</label><input id="watchlist-file" name="file" type="file" accept=".csv,.txt,text/csv,text/plain" aria-describedby="watchlist-file-rule">
<span id="watchlist-file-rule" class="hint">With a header naming an id, imo or mmsi column, or one id per line.</span></p>
<p><button type="submit" id="add-watchlist">Add watchlist</button></p>
</form>
<h2>Your watchlists</h2>
${!lists.ok
  ? flash("error", lists.error.message)
  : lists.data.length === 0
    ? html`<p>No watchlists yet.</p>`
    : html`<table id="watchlists"><caption>Watchlists</caption><thead><tr><th scope="col">Name</th><th scope="col">Vessels</th><th scope="col">Updated</th><th scope="col">Screening</th><th scope="col">Action</th></tr></thead>
<tbody>${lists.data.map(
        (w) => html`<tr><td>${w.name}</td><td>${w.memberCount}</td><td>${when(Date.parse(w.updatedAt))}</td>
<td><a href="/account/watchlists/${w.id}" aria-label="Sanctioned now in ${w.name}">Sanctioned now</a> (${w.memberCount} credits) · <a href="/account/watchlists/${w.id}/screening.csv" download aria-label="Screening as CSV of ${w.name}">Screening as CSV</a></td>
<td><form method="post" action="/account/watchlists/${w.id}/delete" class="inline"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit" aria-label="Delete watchlist ${w.name}">Delete</button></form></td></tr>`,
      )}</tbody></table>`}`,
      status,
    );
  }

  web.get("/account/watchlists", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const done = (req.query as Record<string, unknown>).done;
    return page(req, reply, user, { notice: done === "deleted" ? "Deleted." : done === "added" ? "Added." : undefined });
  });

  web.get("/account/watchlists/:id", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const r = await screenWholeList(ctx.pipeline, who(req, user), (req.params as { id: string }).id);
    if (!r.ok) return refused(req, reply, r.error);
    const { watchlist, rows, coverageNote, credits } = r.value;
    const sanctioned = rows.filter((row) => row.sanctioned);
    return sendPage(
      req,
      reply,
      { title: `Watchlist ${watchlist.name}`, current: "/account/watchlists" },
      html`<p id="screening-summary">${rows.length} vessels screened: <strong>${sanctioned.length} sanctioned now</strong>. This screening cost ${credits} credits.</p>
<p>${coverageNote}</p>
${sanctioned.length === 0
  ? html`<p>No vessel of this list has an active designation on the lists checked.</p>`
  : html`<table id="sanctioned"><caption>Members sanctioned now</caption><thead><tr><th scope="col">Vessel</th><th scope="col">Name on the list</th><th scope="col">Active designations</th></tr></thead>
<tbody>${sanctioned.map(
        (row) => html`<tr><td>${row.query}</td><td>${row.name ?? ""}</td><td><ul>${row.activeDesignations.map(
          (d) => html`<li>${d.listName}: <a href="${d.sourceUrl}">${d.recordId}</a>${d.program ? html`, ${d.program}` : ""}${d.listedAt ? html`, listed ${d.listedAt}` : ""}</li>`,
        )}</ul></td></tr>`,
      )}</tbody></table>`}
<p><a href="/account/watchlists/${watchlist.id}/screening.csv" download>Download this screening as CSV</a> (screens the list again) · <a href="/account/watchlists">Back to watchlists</a></p>`,
    );
  });

  web.get("/account/watchlists/:id/screening.csv", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const id = (req.params as { id: string }).id;
    const r = await screenWholeList(ctx.pipeline, who(req, user), id);
    if (!r.ok) return refused(req, reply, r.error);
    return reply
      .header("cache-control", "no-store")
      .header("content-disposition", `attachment; filename="${r.value.watchlist.id}-screening.csv"`)
      .type("text/csv; charset=utf-8")
      .send(screeningCsv(r.value.rows));
  });

  web.post("/account/watchlists/:id/delete", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const r = await runAsAccount(ctx.pipeline, watchlistsDelete, who(req, user), { params: { id: (req.params as { id: string }).id } });
    if (!r.ok) return page(req, reply, user, { error: r.error.message }, r.error.status);
    return reply.redirect("/account/watchlists?done=deleted", 303);
  });

  // The upload form posts multipart/form-data (a file input needs it); only this route reads it.
  web.register(async (upload) => {
    acceptMultipartForms(upload, UPLOAD_LIMIT);
    upload.post("/account/watchlists", async (req, reply) => {
      const user = await requireUser(req, reply);
      if (!user) return reply;
      const name = field(req.body, "name");
      const pasted = field(req.body, "ids");
      const read = idsOfForm(req.body);
      if (!read.ok) return page(req, reply, user, { error: read.message, name, ids: pasted }, 400);
      const parsed = parseMembers(read.ids.map((i) => i.text));
      if (!parsed.ok) {
        const refused = parsed.refused.map((r) => ({ text: r.text, where: read.ids[r.index]!.where }));
        const error = `${refused.length} ${refused.length === 1 ? "line was" : "lines were"} refused, so nothing was added: each must be an IMO number with a valid check digit or mmsi- and 9 digits. Correct them and send the list again.`;
        return page(req, reply, user, { error, name, ids: pasted, refused }, 400);
      }
      const r = await runAsAccount(ctx.pipeline, watchlistsCreate, who(req, user), { body: { name, ids: read.ids.map((i) => i.text) } });
      if (!r.ok) return page(req, reply, user, { error: r.error.message, name, ids: pasted }, r.error.status);
      return reply.redirect("/account/watchlists?done=added", 303);
    });
  });
}
