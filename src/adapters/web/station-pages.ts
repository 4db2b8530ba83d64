import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { nameField } from "../../operations/account.common.ts";
import { meStations } from "../../operations/me.stations.ts";
import { field, requireUser, sendPage, type WebContext, who } from "./context.ts";
import { type Html, html } from "../shared/html.ts";
import { flash, nameForm, shownOnce } from "./layout.ts";
import { runAsAccount } from "./operation-call.ts";
import { csrfToken, type SessionUser } from "./session.ts";

const stationName = nameField(100);

/** How a receiver sends to this service; the same four ways the README describes. */
function recipes(base: string, host: string, stationId: number): Html {
  return html`<h2>Connect your receiver</h2>
<p>Any receiver that prints NMEA lines (AIS-catcher, rtl-ais, dAISy) works. Put the secret in <code>SECRET</code> first.</p>
<h3>TCP (port 5631)</h3>
<pre><code>(printf 'AUTH %s\\n' "$SECRET"; &lt;command printing NMEA&gt;) | nc ${host} 5631</code></pre>
<h3>HTTP</h3>
<pre><code>&lt;command printing NMEA&gt; | curl --data-binary @- -H "Authorization: Bearer $SECRET" -H "Content-Type: text/plain" ${base}/ingest/nmea</code></pre>
<h3>UDP (port 5632)</h3>
<p>Each datagram starts with <code>#mds1 ${stationId} &lt;unixSeconds&gt; &lt;seq&gt; &lt;hex HMAC-SHA256&gt;</code>; see the README's “AIS from your stations”. <code>npx mds simulate --station ${stationId} --secret "$SECRET" --target udp://${host}:5632</code> shows it working.</p>
<h3>A file, on the service's machine</h3>
<pre><code>npx mds ingest --station ${stationId} capture.nmea</code></pre>`;
}

/** Receiving stations: create one (its secret shown once, with recipes), counters, last heard. */
export function registerStationPages(app: FastifyInstance, ctx: WebContext, baseOf: (req: FastifyRequest) => string): void {
  async function page(req: FastifyRequest, reply: FastifyReply, user: SessionUser, extra: { created?: { id: number; name: string; secret: string }; error?: string }, status = 200) {
    const r = await runAsAccount(ctx.pipeline, meStations, who(req, user));
    const base = baseOf(req);
    const host = new URL(base).hostname;
    return sendPage(
      req,
      reply,
      { title: "Stations", current: "/account/stations" },
      html`${extra.created ? html`${shownOnce(`Secret of station ${extra.created.name} (id ${extra.created.id}).`, "new-secret", extra.created.secret)}${recipes(base, host, extra.created.id)}` : ""}
${flash("error", extra.error)}
<h2>Add a station</h2>
${nameForm({ action: "/account/stations", csrf: csrfToken(req), inputId: "station-name", buttonId: "add-station", button: "Add station" })}
<h2>Your stations</h2>
${!r.ok
  ? flash("error", r.error.message)
  : r.data.length === 0
    ? html`<p>No stations yet.</p>`
    : html`<table id="stations"><caption>Stations and what they delivered</caption>
<thead><tr><th scope="col">Id</th><th scope="col">Name</th><th scope="col">Last heard</th><th scope="col">Lines</th><th scope="col">Messages</th><th scope="col">Positions</th><th scope="col">Rejected lines</th><th scope="col">Bad checksums</th><th scope="col">Failed sign-ins</th><th scope="col">UDP lost</th></tr></thead>
<tbody>${r.data.map(
        (s) => html`<tr><td>${s.id}</td><td>${s.name}</td><td>${s.lastHeardAt ? s.lastHeardAt.replace("T", " ").replace(/\.\d{3}Z$/, " UTC") : "never"}</td><td>${s.lines}</td><td>${s.messages}</td><td>${s.positions}</td><td>${s.rejectedLines}</td><td>${s.badChecksums}</td><td>${s.unauthenticated}</td><td>${s.udpLost}</td></tr>`,
      )}</tbody></table>`}`,
      status,
    );
  }

  app.get("/account/stations", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    return page(req, reply, user, {});
  });

  app.post("/account/stations", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const name = stationName.safeParse(field(req.body, "name"));
    if (!name.success) return page(req, reply, user, { error: `Name ${name.error.issues[0]!.message}.` }, 400);
    const { station, secret } = await ctx.pipeline.services.stations.createStation(user.accountId, name.data);
    return page(req, reply, user, { created: { id: station.id, name: station.name, secret } });
  });
}
