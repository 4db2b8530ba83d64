import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { nameField } from "../../operations/account.common.ts";
import { meStations } from "../../operations/me.stations.ts";
import type { Station } from "../../interfaces/accounts.ts";
import { confirmPage } from "./account-pages.ts";
import { field, requireUser, sendPage, type WebContext, who } from "./context.ts";
import { setFlash, takeFlash } from "./flash.ts";
import { type Html, html } from "../shared/html.ts";
import { flash, nameForm, shownOnce } from "./layout.ts";
import { runAsAccount } from "./operation-call.ts";
import { csrfToken, type SessionUser } from "./session.ts";

const stationName = nameField(100);

/**
 * The station listeners as this service runs them: the ports it really listens on (the bound
 * ones once `serve` has bound them, else INGEST_TCP_PORT and INGEST_UDP_PORT), null when off
 * or not known yet (0 in the settings: a free port picked at start).
 */
export interface StationPorts {
  tcp: number | null;
  udp: number | null;
}

/** What the recipes need: where to send, and the station's own settings. */
interface RecipeTarget {
  base: string;
  host: string;
  ports: StationPorts;
  station: Station;
}

/** How a receiver sends to this service, with the ports it listens on: the four ways the README describes, and the station's own port when it has one. */
function recipes(t: RecipeTarget): Html {
  const { base, host, ports, station } = t;
  return html`<section aria-labelledby="recipe-h" id="recipe"><h2 id="recipe-h">Connect your receiver</h2>
<p>Any receiver that prints NMEA lines (AIS-catcher, rtl-ais, dAISy) works. Put the station's secret in <code>SECRET</code> first; it was shown when the station was made or its secret last rotated.</p>
${ports.tcp !== null
  ? html`<h3>TCP (port ${ports.tcp})</h3>
<pre><code>(printf 'AUTH %s\\n' "$SECRET"; &lt;command printing NMEA&gt;) | nc ${host} ${ports.tcp}</code></pre>`
  : html`<h3>TCP</h3><p id="tcp-off">This service does not listen for stations over TCP (INGEST_TCP_PORT is off); use HTTP.</p>`}
<h3>HTTP</h3>
<pre><code>&lt;command printing NMEA&gt; | curl --data-binary @- -H "Authorization: Bearer $SECRET" -H "Content-Type: text/plain" ${base}/ingest/nmea</code></pre>
${ports.udp !== null
  ? html`<h3>UDP (port ${ports.udp})</h3>
<p>Each datagram starts with <code>#mds1 ${station.id} &lt;unixSeconds&gt; &lt;seq&gt; &lt;hex HMAC-SHA256&gt;</code>; see the README's “AIS from your stations”. <code>npx mds simulate --station ${station.id} --secret "$SECRET" --target udp://${host}:${ports.udp}</code> shows it working.</p>`
  : html`<h3>UDP</h3><p id="udp-off">This service does not listen for signed UDP (INGEST_UDP_PORT is off).</p>`}
${station.plainPort !== null
  ? html`<h3>Plain NMEA to the station's own port (${station.plainPort})</h3>
<p>For receivers that send NMEA and nothing else: send it to <code>${host}:${station.plainPort}</code> over UDP or TCP, no secret needed${station.allowFrom ? "" : html`; <strong>any address may send</strong>, so ask the operator to limit it to yours`}.</p>
<pre><code>&lt;command printing NMEA&gt; | nc ${host} ${station.plainPort}</code></pre>`
  : ""}
${station.connect !== null ? html`<h3>The service dials your receiver</h3><p>The service connects to <code>${station.connect}</code> and reads NMEA from it; nothing to run on your side but the receiver's TCP server.</p>` : ""}
<h3>A file, on the service's machine</h3>
<pre><code>npx mds ingest --station ${station.id} capture.nmea</code></pre>
</section>`;
}

/** The station's settings, in words. */
function settings(s: Station): Html {
  return html`<table id="station"><caption>Station</caption><tbody>
<tr><th scope="row">Id</th><td>${s.id}</td></tr>
<tr><th scope="row">Name</th><td>${s.name}</td></tr>
<tr><th scope="row">Shared</th><td>${s.shared ? `yes: everyone may see its data, as the source “${s.sourceName ?? s.name}”` : "no: only your account sees its data"}</td></tr>
<tr><th scope="row">Own port for plain NMEA</th><td>${s.plainPort ?? "none"}</td></tr>
<tr><th scope="row">Addresses allowed to send</th><td>${s.allowFrom ? s.allowFrom.join(", ") : "any"}</td></tr>
<tr><th scope="row">The service dials</th><td>${s.connect ?? "nothing (your receiver sends)"}</td></tr>
</tbody></table>`;
}

const NOTICES: Record<string, string> = {
  rotated: "The secret is rotated: the old one stops working within half a minute.",
  deleted: "The station is deleted: it accepts nothing more (within half a minute). What it delivered stays in your account.",
};

/**
 * Receiving stations: the list with counters, a page per station with its settings and the
 * recipe (which can be found again; the secret itself only at creation and rotation),
 * rotating the secret and deleting the station, each after a confirm step. Forms follow
 * POST/redirect/GET.
 */
export function registerStationPages(app: FastifyInstance, ctx: WebContext, baseOf: (req: FastifyRequest) => string, portsOf: () => StationPorts): void {
  async function listPage(req: FastifyRequest, reply: FastifyReply, user: SessionUser, error?: string, status = 200, notice?: string) {
    const r = await runAsAccount(ctx.pipeline, meStations, who(req, user));
    return sendPage(
      req,
      reply,
      { title: "Stations", current: "/account/stations" },
      html`${flash("error", error)}${flash("notice", notice)}
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
        (s) => html`<tr><td>${s.id}</td><td><a href="/account/stations/${s.id}">${s.name}</a></td><td>${s.lastHeardAt ? s.lastHeardAt.replace("T", " ").replace(/\.\d{3}Z$/, " UTC") : "never"}</td><td>${s.lines}</td><td>${s.messages}</td><td>${s.positions}</td><td>${s.rejectedLines}</td><td>${s.badChecksums}</td><td>${s.unauthenticated}</td><td>${s.udpLost}</td></tr>`,
      )}</tbody></table>`}`,
      status,
    );
  }

  /** The account's own station with this id, or null (another account's is not found either). */
  async function ownStation(user: SessionUser, raw: string): Promise<Station | null> {
    if (!/^\d{1,9}$/.test(raw)) return null;
    const s = await ctx.pipeline.services.stations.getStation(Number(raw));
    return s && s.accountId === user.accountId ? s : null;
  }

  const notFound = (req: FastifyRequest, reply: FastifyReply) =>
    sendPage(req, reply, { title: "Station not found", current: "/account/stations" }, html`${flash("error", "No such station in this account.")}<p><a href="/account/stations">Back to stations</a></p>`, 404);

  /** A route of one of the user's own stations: signed in, and the station theirs; anything else is the not-found page. */
  const ownRoute = (method: "GET" | "POST", path: string, handle: (req: FastifyRequest, reply: FastifyReply, station: Station) => Promise<unknown>) =>
    app.route({
      method,
      url: `/account/stations/:id${path}`,
      handler: async (req, reply) => {
        const user = await requireUser(req, reply);
        if (!user) return reply;
        const station = await ownStation(user, (req.params as { id: string }).id);
        if (!station) return notFound(req, reply);
        return handle(req, reply, station);
      },
    });

  app.get("/account/stations", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    return listPage(req, reply, user, undefined, 200, NOTICES[String((req.query as Record<string, unknown>).done ?? "")]);
  });

  app.post("/account/stations", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    const name = stationName.safeParse(field(req.body, "name"));
    if (!name.success) return listPage(req, reply, user, `Name ${name.error.issues[0]!.message}.`, 400);
    const { station, secret } = await ctx.pipeline.services.stations.createStation(user.accountId, name.data);
    setFlash(req, reply, { kind: "station-secret", station: String(station.id), secret });
    return reply.redirect(`/account/stations/${station.id}`, 303);
  });

  ownRoute("GET", "", async (req, reply, station) => {
    const made = takeFlash(req, reply);
    const secret = made?.kind === "station-secret" && made.station === String(station.id) ? made.secret : undefined;
    const done = String((req.query as Record<string, unknown>).done ?? "");
    const base = baseOf(req);
    return sendPage(
      req,
      reply,
      { title: `Station ${station.name}`, current: "/account/stations" },
      html`${secret ? shownOnce(`Secret of station ${station.name} (id ${station.id}).`, "new-secret", secret) : ""}
${secret ? "" : flash("notice", NOTICES[done])}
<p><a href="/account/stations">All stations</a></p>
${settings(station)}
${recipes({ base, host: new URL(base).hostname, ports: portsOf(), station })}
<h2>Actions</h2>
<p><a href="/account/stations/${station.id}/rotate" id="rotate-station">Rotate the secret…</a></p>
<p><a href="/account/stations/${station.id}/delete" id="delete-station">Delete this station…</a></p>`,
    );
  });

  // Rotating asks first on a page of its own (works without script): the receiver stops being accepted until it has the new secret.
  ownRoute("GET", "/rotate", async (req, reply, station) => {
    return confirmPage(
      req,
      reply,
      "Rotate station secret",
      html`<p>Give station <strong>${station.name}</strong> a new secret? The old one stops working (within half a minute, as the listeners' cache of stations renews): the receiver is refused until it is set up with the new one.</p>`,
      `/account/stations/${station.id}/rotate`,
      "Rotate secret",
      `/account/stations/${station.id}`,
    );
  });

  ownRoute("POST", "/rotate", async (req, reply, station) => {
    const rotated = await ctx.pipeline.services.stations.rotateSecret(station.id);
    if (!rotated) return notFound(req, reply);
    setFlash(req, reply, { kind: "station-secret", station: String(station.id), secret: rotated.secret });
    return reply.redirect(`/account/stations/${station.id}?done=rotated`, 303);
  });

  ownRoute("GET", "/delete", async (req, reply, station) => {
    return confirmPage(
      req,
      reply,
      "Delete station",
      html`<p>Delete station <strong>${station.name}</strong>? It accepts nothing more (within half a minute)${station.plainPort !== null ? html`, its port ${station.plainPort} is released` : ""}${station.shared ? ", and it is no longer shared" : ""}. The positions it delivered stay in your account.</p>`,
      `/account/stations/${station.id}/delete`,
      "Delete station",
      `/account/stations/${station.id}`,
    );
  });

  ownRoute("POST", "/delete", async (req, reply, station) => {
    if (!(await ctx.pipeline.services.stations.deleteStation(station.id))) return notFound(req, reply);
    return reply.redirect("/account/stations?done=deleted", 303);
  });
}
