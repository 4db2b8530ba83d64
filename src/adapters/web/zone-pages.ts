import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { followsCreate } from "../../operations/account.follows.create.ts";
import { followsDelete } from "../../operations/account.follows.delete.ts";
import { followsList } from "../../operations/account.follows.list.ts";
import { zonesCreate } from "../../operations/account.zones.create.ts";
import { zonesDelete } from "../../operations/account.zones.delete.ts";
import { zonesList } from "../../operations/account.zones.list.ts";
import { field, requireUser, sendPage, type WebContext, who } from "./context.ts";
import { html } from "../shared/html.ts";
import { flash, when } from "./layout.ts";
import { runAsAccount } from "./operation-call.ts";
import { csrfToken, type SessionUser } from "./session.ts";

/** A pasted Feature or one-feature FeatureCollection is taken for its geometry: that is what drawing tools export. */
function geometryOf(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { ok: false, message: "Geometry must be GeoJSON (a Polygon, or a Feature holding one); the text is not valid JSON." };
  }
  const o = v as { type?: string; geometry?: unknown; features?: { geometry?: unknown }[] };
  if (o?.type === "Feature") return { ok: true, value: o.geometry };
  if (o?.type === "FeatureCollection" && Array.isArray(o.features) && o.features.length === 1) return { ok: true, value: o.features[0]!.geometry };
  return { ok: true, value: v };
}

/** Zones (drawn on a map, or pasted as GeoJSON without script) and follows (vessels, ports). */
export function registerZonePages(app: FastifyInstance, ctx: WebContext): void {
  async function page(req: FastifyRequest, reply: FastifyReply, user: SessionUser, extra: { error?: string; notice?: string; name?: string; geometry?: string }, status = 200) {
    const zones = await runAsAccount(ctx.pipeline, zonesList, who(req, user));
    const follows = await runAsAccount(ctx.pipeline, followsList, who(req, user));
    const csrf = csrfToken(req);
    // The accessible name starts with the visible "Delete", so a voice user saying what they see reaches the button.
    const del = (action: string, label: string) =>
      html`<form method="post" action="${action}" class="inline"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit" aria-label="${label}">Delete</button></form>`;
    return sendPage(
      req,
      reply,
      { title: "Zones and follows", current: "/account/zones", scripts: ["/vendor/leaflet/leaflet.js", "/assets/basemap.js", "/vendor/terra-draw/terra-draw.umd.js", "/vendor/terra-draw-leaflet/terra-draw-leaflet-adapter.umd.js", "/assets/zone-map.js"], styles: ["/vendor/leaflet/leaflet.css"] },
      html`${flash("error", extra.error)}${flash("notice", extra.notice)}
<h2>Add a zone</h2>
<p>A vessel heard by your stations entering a zone raises an <code>alert.zone_enter</code> webhook.</p>
<form method="post" action="/account/zones" class="stack" id="zone-form">
<input type="hidden" name="_csrf" value="${csrf}">
<p><label for="zone-name">Name</label><input id="zone-name" name="name" required maxlength="100" value="${extra.name ?? ""}"></p>
<figure class="map-figure" hidden id="zone-map-figure"><div id="zone-map" class="map"></div><figcaption>Click to place corners, click the first corner to close the polygon. The drawn zone is written into the GeoJSON field below, where it can also be typed or pasted. Land: Made with Natural Earth.</figcaption></figure>
<p><label for="zone-geometry">Polygon as GeoJSON</label><textarea id="zone-geometry" name="geometry" rows="6" required aria-describedby="zone-geometry-rule">${extra.geometry ?? ""}</textarea>
<span id="zone-geometry-rule" class="hint">A GeoJSON Polygon in longitude, latitude; closed rings, at most 1,000 positions and 30 degrees either way.</span></p>
<p><button type="submit" id="add-zone">Add zone</button></p>
</form>
<h2>Your zones</h2>
${!zones.ok
  ? flash("error", zones.error.message)
  : zones.data.length === 0
    ? html`<p>No zones yet.</p>`
    : html`<table id="zones"><caption>Zones</caption><thead><tr><th scope="col">Name</th><th scope="col">Bounding box (W, S, E, N)</th><th scope="col">Created</th><th scope="col">Action</th></tr></thead>
<tbody>${zones.data.map((z) => html`<tr><td>${z.name}</td><td>${z.bbox.join(", ")}</td><td>${when(Date.parse(z.createdAt))}</td><td>${del(`/account/zones/${z.id}/delete`, `Delete zone ${z.name}`)}</td></tr>`)}</tbody></table>`}
<h2>Follow a vessel or port</h2>
<form method="post" action="/account/follows" class="inline">
<input type="hidden" name="_csrf" value="${csrf}">
<label for="follow-kind">Identifier</label> <select id="follow-kind" name="kind"><option value="imo">IMO number</option><option value="mmsi">MMSI</option><option value="unlocode">Port UN/LOCODE</option></select>
<label for="follow-value">Value</label> <input id="follow-value" name="value" required maxlength="20">
<button type="submit" id="add-follow">Follow</button>
</form>
<h2>You follow</h2>
${!follows.ok
  ? flash("error", follows.error.message)
  : follows.data.length === 0
    ? html`<p>Nothing yet.</p>`
    : html`<table id="follows"><caption>Follows</caption><thead><tr><th scope="col">Kind</th><th scope="col">Identifier</th><th scope="col">Since</th><th scope="col">Action</th></tr></thead>
<tbody>${follows.data.map((f) => {
        const ident = f.imo !== null ? `IMO ${f.imo}` : f.mmsi !== null ? `MMSI ${f.mmsi}` : `${f.unlocode}`;
        return html`<tr><td>${f.kind}</td><td>${ident}</td><td>${when(Date.parse(f.createdAt))}</td><td>${del(`/account/follows/${f.id}/delete`, `Delete follow of ${ident}`)}</td></tr>`;
      })}</tbody></table>`}`,
      status,
    );
  }

  app.get("/account/zones", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const done = (req.query as Record<string, unknown>).done;
    return page(req, reply, user, { notice: done === "deleted" ? "Deleted." : done === "added" ? "Added." : undefined });
  });

  app.post("/account/zones", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const name = field(req.body, "name");
    const text = field(req.body, "geometry");
    const geometry = geometryOf(text);
    if (!geometry.ok) return page(req, reply, user, { error: geometry.message, name, geometry: text }, 400);
    const r = await runAsAccount(ctx.pipeline, zonesCreate, who(req, user), { body: { name, geometry: geometry.value } });
    if (!r.ok) return page(req, reply, user, { error: r.error.message, name, geometry: text }, r.error.status);
    return reply.redirect("/account/zones?done=added", 303);
  });

  app.post("/account/follows", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const kind = field(req.body, "kind");
    if (!["imo", "mmsi", "unlocode"].includes(kind)) return page(req, reply, user, { error: "Identifier must be one of IMO number, MMSI, UN/LOCODE." }, 400);
    const r = await runAsAccount(ctx.pipeline, followsCreate, who(req, user), { body: { [kind]: field(req.body, "value").trim() } });
    if (!r.ok) return page(req, reply, user, { error: r.error.message }, r.error.status);
    return reply.redirect("/account/zones?done=added", 303);
  });

  for (const [path, operation] of [
    ["zones", zonesDelete],
    ["follows", followsDelete],
  ] as const) {
    app.post(`/account/${path}/:id/delete`, async (req, reply) => {
      const user = await requireUser(req, reply);
      if (!user) return reply;
      const r = await runAsAccount(ctx.pipeline, operation, who(req, user), { params: { id: (req.params as { id: string }).id } });
      if (!r.ok) return page(req, reply, user, { error: r.error.message }, r.error.status);
      return reply.redirect("/account/zones?done=deleted", 303);
    });
  }
}
