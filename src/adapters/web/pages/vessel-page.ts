import type { WithheldEntry } from "../../../domain/rights/sourced.ts";
import { portPagePath } from "../../../domain/pages/page-paths.ts";
import type { DataOf } from "../../../operations/answer.ts";
import { vesselsGet } from "../../../operations/vessels.get.ts";
import { vesselsTrack } from "../../../operations/vessels.track.ts";
import { vesselsEvents } from "../../../operations/vessels.events.ts";
import { activeDesignations, dossierHeader, RISK_SECTION_WORDS, type VesselData } from "./vessel-dossier.ts";
import { type EventRow, eventMarks, eventsTimeline } from "./vessel-events-timeline.ts";
import { identityHistory, listingWhen, type ListingDates, NAME_ROLE_WORDS, type SourceNames } from "./vessel-identity-history.ts";
import { type Html, html } from "../../shared/html.ts";
import { barChart, facts, MAP_ASSETS, type MapContent, mapFigure, orUnknown, sanctionedMark, sourceName, sourcesSection, utc, withheldSection } from "./page-parts.ts";
import { entityAnswer, type PageResult, type PublicPageKind, type Visit } from "./public-page.ts";

/** The track as the page reads it: the operation's own types. */
type TrackPoint = DataOf<typeof vesselsTrack>[number];

/** Hours of track a page shows: the day open to everyone, or the week the API allows at most when the plan has history. */
const OPEN_HOURS = 24;
const MAX_HOURS = 168;
/** Track rows the page lists under the map (the newest); a day at the densest is 1,440 points. */
const TABLE_ROWS = 100;
/** Events the timeline lists at most (one page of the events list); the rest are in the API. */
const EVENT_ROWS = 100;
/** The vessel page's own rules (dossier header, map beside the timeline), apart from the site's stylesheet. */
const DOSSIER_STYLE = "/assets/vessel-dossier.css";

/** `{imo}`, `{imo}-{slug}` or `mmsi-{mmsi}`: the API id, or null when the address is none of these. */
function vesselIdOf(ref: string): string | null {
  const mmsi = /^mmsi-(\d{9})$/i.exec(ref);
  if (mmsi) return `mmsi-${mmsi[1]}`;
  const imo = /^(\d{7})(?:-[a-z0-9-]*)?$/i.exec(ref);
  return imo ? imo[1]! : null;
}

const PARTICULARS: [string, string, string][] = [
  ["shipType", "Ship type", ""],
  ["aisShipType", "AIS ship type code", ""],
  ["lengthM", "Length", " m"],
  ["beamM", "Beam", " m"],
  ["draughtM", "Draught", " m"],
  ["grossTons", "Gross tonnage", ""],
  ["deadweightTons", "Deadweight", " t"],
  ["yearBuilt", "Year built", ""],
  ["portOfRegistry", "Port of registry", ""],
];

/** The lists that give a name or an MMSI, each with what its date means. */
function listedCell(listed: readonly (ListingDates & { as?: keyof typeof NAME_ROLE_WORDS; current?: boolean })[]): Html {
  if (listed.length === 0) return html`<td>none</td>`;
  return html`<td>${listed.map(
    (l, i) =>
      html`${i > 0 ? html`<br>` : ""}<code>${l.source}</code> record ${l.recordId}${l.as ? ` (${NAME_ROLE_WORDS[l.as]})` : ""}${l.current === false ? " (no longer in the record)" : ""}: ${listingWhen(l)}`,
  )}</td>`;
}

/** Sighting dates, or a dash where only lists give the row: a list's date is not a sighting. */
const seen = (iso: string | null) => (iso === null ? "not sighted" : utc(iso));

/** Each source's own identity records behind the history table: the registry's and stations' sightings, and each list's record. */
function identityRecords(d: VesselData, named: SourceNames): Html {
  const i = d.identity;
  if (!i) return html``;
  return html`<details id="identity-records"><summary>Each source's identity records</summary>
${i.mmsiHistory.length > 0
  ? html`<div class="table-box" role="region" tabindex="0" aria-labelledby="mmsi-history-caption"><table id="mmsi-history"><caption id="mmsi-history-caption">MMSIs this ship used: first and last seen by the registry's datasets and stations; the lists that give an MMSI are dated by their listing</caption><thead><tr><th scope="col">MMSI</th><th scope="col">First seen</th><th scope="col">Last seen</th><th scope="col">Sources</th><th scope="col">Sanctions lists giving it</th></tr></thead>
<tbody>${i.mmsiHistory.map((m) => html`<tr><td>${String(m.mmsi).padStart(9, "0")}</td><td>${seen(m.firstSeen)}</td><td>${seen(m.lastSeen)}</td><td>${named(m.sources)}</td>${listedCell(m.listed)}</tr>`)}</tbody></table></div>`
  : ""}
${i.listed.length > 0
  ? html`<div class="table-box" role="region" tabindex="0" aria-labelledby="listed-identity-caption"><table id="listed-identity"><caption id="listed-identity-caption">The ship's identity as sanctions lists give it</caption><thead><tr><th scope="col">List</th><th scope="col">Listed name</th><th scope="col">Call sign</th><th scope="col">Dated</th></tr></thead>
<tbody>${i.listed.map((l) => html`<tr><td><code>${l.source}</code> record ${l.recordId}</td><td>${l.name}</td><td>${orUnknown(l.callSign)}</td><td>${listingWhen(l)}</td></tr>`)}</tbody></table></div>`
  : ""}
${d.otherNames.length === 0
  ? html`<p>No other names on record.</p>`
  : html`<div class="table-box" role="region" tabindex="0" aria-labelledby="other-names-caption"><table id="other-names"><caption id="other-names-caption">Names this ship was known by: first and last seen by the registry's datasets and stations; the lists that give a name are dated by their listing</caption><thead><tr><th scope="col">Name</th><th scope="col">First seen</th><th scope="col">Last seen</th><th scope="col">Sources</th><th scope="col">Sanctions lists giving it</th></tr></thead>
<tbody>${d.otherNames.map((n) => html`<tr><td>${n.name}</td><td>${seen(n.firstSeen)}</td><td>${seen(n.lastSeen)}</td><td>${named(n.sources)}</td>${listedCell(n.listed)}</tr>`)}</tbody></table></div>`}
</details>`;
}

function particularsSection(p: VesselData["particulars"], withheld: boolean, named: SourceNames): Html {
  if (!p) return html`<h2>Particulars</h2><p>${withheld ? "Withheld (see below)." : "No particulars on record."}</p>`;
  const own = p as unknown as Record<string, unknown>;
  const ownShown = p.sources.length > 0;
  return html`<h2>Particulars</h2>${ownShown
    ? html`${facts(PARTICULARS.map(([k, label, unit]) => [label, own[k] === null || own[k] === undefined ? null : orUnknown(own[k] as string | number, unit)]))}
<p class="hint">Sources: ${named(p.sources)}</p>`
    : html`<p>No particulars from the registry's datasets or stations.</p>`}
${p.listed.length > 0
  ? html`<div class="table-box" role="region" tabindex="0" aria-labelledby="listed-particulars-caption"><table id="listed-particulars"><caption id="listed-particulars-caption">Particulars as sanctions lists give them</caption><thead><tr><th scope="col">List</th><th scope="col">Type</th><th scope="col">Flag</th><th scope="col">Former flags</th><th scope="col">Tonnage</th><th scope="col">Gross tonnage</th><th scope="col">Year built</th><th scope="col">Dated</th></tr></thead>
<tbody>${p.listed.map(
      (l) =>
        html`<tr><td><code>${l.source}</code> record ${l.recordId}</td><td>${orUnknown(l.vesselType)}</td><td>${orUnknown(l.flag)}${l.flagIso2 ? ` (${l.flagIso2})` : ""}</td><td>${l.formerFlags.length > 0 ? l.formerFlags.join(", ") : "none given"}</td><td>${orUnknown(l.tonnage)}</td><td>${orUnknown(l.grossTonnage)}</td><td>${orUnknown(l.yearBuilt)}</td><td>${listingWhen(l)}</td></tr>`,
    )}</tbody></table></div>`
  : ""}`;
}

interface EventsShown {
  rows: EventRow[];
  more: boolean;
}

/** The track map, larger, with the events marked on it and their timeline beside it; the positions as a table below. */
function trackSection(id: string, d: VesselData, track: TrackPoint[] | null, events: EventsShown, window: { from: string; to: string } | null, hours: number, withheld: ReadonlySet<string>, named: SourceNames): Html {
  const lp = d.lastPosition;
  const heading = html`<h2 id="track-h">Track and events</h2>`;
  const timeline = eventsTimeline(events.rows, { count: d.events.count, more: events.more, api: `/api/v1/vessels/${id}/events`, named });
  if (track === null) return html`${heading}<p>The track could not be read right now.</p>${timeline}`;
  // Five decimals (about 1 m) are plenty for a drawing and keep a day of track light.
  const r5 = (v: number) => Math.round(v * 1e5) / 1e5;
  const marks = eventMarks(events.rows);
  const content: MapContent = { track: track.map((p): [number, number] => [r5(p.lon), r5(p.lat)]), points: lp ? [{ lon: lp.lon, lat: lp.lat, label: "Last position" }] : [], events: marks };
  const listed = track.slice(-TABLE_ROWS).reverse();
  const span = window ? `${utc(window.from)} to ${utc(window.to)}` : `the last ${hours} hours`;
  const nothing = track.length === 0 && !lp && marks.length === 0;
  const map = nothing
    ? html`<p id="track-empty">No track in ${span}${withheld.has("positions") ? " that may be shown here; the positions are withheld (see below)" : ""}.</p>`
    : html`${mapFigure("vessel-map", content, `Track over ${span}: ${track.length.toLocaleString("en-GB")} points${lp ? ", the last position marked" : ""}${marks.length > 0 ? `, ${marks.length} ${marks.length === 1 ? "event" : "events"} marked (listed beside the map)` : ""}. The same positions are listed in the table below.`)}
${track.length === 0 ? html`<p id="track-empty">No track in ${span}${withheld.has("positions") ? "; the positions are withheld (see below)" : lp ? "; the map shows the last position" : ""}.</p>` : ""}`;
  return html`${heading}
<div class="track-and-events"><div class="track-map">${map}</div>${timeline}</div>
${track.length === 0
  ? ""
  : html`<details><summary>Track positions (${listed.length < track.length ? `the latest ${listed.length} of ${track.length.toLocaleString("en-GB")}` : track.length})</summary><div class="table-box" role="region" tabindex="0" aria-labelledby="track-caption"><table id="track"><caption id="track-caption">Track over ${span}, newest first${listed.length < track.length ? html`; every point is in the <a href="/api/v1/vessels/${id}/track">track API</a>` : ""}</caption><thead><tr><th scope="col">Time</th><th scope="col">Latitude</th><th scope="col">Longitude</th><th scope="col">Speed (kn)</th><th scope="col">Source</th></tr></thead>
<tbody>${listed.map((p) => html`<tr><td>${utc(p.time)}</td><td>${p.lat.toFixed(4)}</td><td>${p.lon.toFixed(4)}</td><td>${orUnknown(p.sog)}</td><td>${named([p.source])}</td></tr>`)}</tbody></table></div></details>`}`;
}

function portCallsSection(calls: VesselData["portCalls"], named: SourceNames): Html {
  return html`<h2>Port calls</h2>${calls.length === 0
    ? html`<p>No port calls on record.</p>`
    : html`<div class="table-box" role="region" tabindex="0" aria-labelledby="port-calls-caption"><table id="port-calls"><caption id="port-calls-caption">Reported port calls</caption><thead><tr><th scope="col">Port</th><th scope="col">Arrival</th><th scope="col">Departure</th><th scope="col">Source</th></tr></thead>
<tbody>${calls.map((c) => html`<tr><td><a href="${portPagePath(c.unlocode)}">${c.unlocode}</a></td><td>${utc(c.arrival)}</td><td>${utc(c.departure)}</td><td>${named([c.source])}</td></tr>`)}</tbody></table></div>`}`;
}

function emissionsSection(e: VesselData["emissions"]): Html {
  if (e === null) return html`<h2>Emissions</h2><p>Withheld (see below).</p>`;
  if (e.length === 0) return html`<h2>Emissions</h2><p>No EU MRV emissions report on record.</p>`;
  return html`<h2>Emissions</h2>
${barChart("CO₂ emitted per year", e.map((r) => ({ label: String(r.year), value: r.co2T })), "tonnes")}
<div class="table-box" role="region" tabindex="0" aria-labelledby="emissions-caption"><table id="emissions"><caption id="emissions-caption">EU MRV reports per year</caption><thead><tr><th scope="col">Year</th><th scope="col">CO₂ (t)</th><th scope="col">Fuel (t)</th><th scope="col">Time at sea (h)</th></tr></thead>
<tbody>${e.map((r) => html`<tr><td>${r.year}</td><td>${orUnknown(r.co2T)}</td><td>${orUnknown(r.fuelT)}</td><td>${orUnknown(r.timeAtSeaH)}</td></tr>`)}</tbody></table></div>`;
}

/** "Block (programme RUSSIA-EO14024) (Executive Order 14024); ..." or "none stated": an empty list states none, it is not a clearance. */
function measuresText(measures: VesselData["sanctions"][number]["measures"]): string {
  if (measures.length === 0) return "none stated by the list";
  return measures
    .map((m) => {
      const basis = m.legalBasis ? [m.legalBasis.instrument, m.legalBasis.provision].filter((x) => x).join(", ") : null;
      return basis ? `${m.text} (${basis})` : m.text;
    })
    .join("; ");
}

function sanctionsSection(d: VesselData): Html {
  const checked = d.sanctionsCoverage.filter((c) => c.status !== "missing");
  const missing = d.sanctionsCoverage.filter((c) => c.status === "missing");
  const extracts = d.sanctionsCoverage.filter((c) => c.status === "extract");
  const listed = checked.map((c) => `${c.listName} (as of ${c.asOf}${c.status === "extract" ? ", an extract only" : c.status === "stale" ? ", not updated lately" : ""})`);
  const coverage = html`<p class="hint" id="sanctions-coverage">${checked.length > 0 ? `Lists checked: ${listed.join("; ")}. ` : ""}${missing.length > 0 ? `Not checked (never loaded): ${missing.map((c) => c.listName).join("; ")}.` : ""}</p>`;
  if (d.sanctions.length === 0) {
    const clear = missing.length === 0 && extracts.length === 0 && checked.length > 0;
    const said = checked.length === 0 ? "No sanctions list is loaded, so this ship was not checked." : clear ? "No designation of this ship on the lists checked." : "No designation found on the lists checked; not every list was checked in full, so this is not a clearance.";
    return html`<h2>Sanctions</h2><p id="sanctions-none">${said}</p>${coverage}`;
  }
  return html`<h2>Sanctions</h2>
<div class="table-box" role="region" tabindex="0" aria-labelledby="sanctions-caption"><table id="sanctions"><caption id="sanctions-caption">Sanctions designations</caption><thead><tr><th scope="col">List</th><th scope="col">Name listed</th><th scope="col">Programme</th><th scope="col">Measures (legal basis)</th><th scope="col">Listed</th><th scope="col">Status</th><th scope="col">Matched on</th><th scope="col">Source</th></tr></thead>
<tbody>${d.sanctions.map((s) => html`<tr><td>${s.listName}</td><td>${s.name}</td><td>${orUnknown(s.program)}</td><td>${measuresText(s.measures)}</td><td>${orUnknown(s.listedAt)}</td><td>${s.active ? "active" : `delisted ${s.delistedAt ?? ""}`}</td><td>${s.matchedOn.toUpperCase()}</td><td><a href="${s.sourceUrl}" rel="noopener">record ${s.recordId}</a></td></tr>`)}</tbody></table></div>
${coverage}`;
}

function companiesSection(c: VesselData["companies"], listsLoaded: boolean, named: SourceNames): Html {
  return html`<h2>Companies</h2>${c.length === 0
    ? html`<p>No companies on record.</p>`
    : html`<div class="table-box" role="region" tabindex="0" aria-labelledby="companies-caption"><table id="companies"><caption id="companies-caption">Companies linked to this ship, each with its own designation status (its page has the lists checked)</caption><thead><tr><th scope="col">Role</th><th scope="col">Company</th><th scope="col">Status</th><th scope="col">Evidence</th><th scope="col">Sources</th></tr></thead>
<tbody>${c.map((x) => html`<tr><td>${x.role.replace(/_/g, " ")}</td><td><a href="${x.page}">${x.name}</a></td><td>${x.sanctioned.length > 0 ? sanctionedMark(x.sanctioned) : listsLoaded ? "no designation of the company on the lists checked" : "not checked: no sanctions list is loaded"}</td><td><q>${x.evidence}</q></td><td>${named(x.sources)}</td></tr>`)}</tbody></table></div>`}`;
}

export const vesselPage: PublicPageKind = {
  routes: ["/vessel/:ref"],
  async render(v: Visit): Promise<PageResult> {
    const id = vesselIdOf(v.params.ref ?? "");
    if (!id) return { kind: "problem", status: 404, title: "Not found", message: `${JSON.stringify(v.params.ref)} is not a vessel address: a vessel page is /vessel/{IMO number}-{name} or /vessel/mmsi-{9-digit MMSI}.` };
    const r = await entityAnswer(v, vesselsGet, { id });
    if (!r.ok) return r.result;
    const top = r.top;

    // A plan with history sees the week the API gives at most in one window; everyone else the open day.
    const historyDays = v.principal.entitlements.historyDays;
    const hours = historyDays === null || historyDays > 0 ? MAX_HOURS : OPEN_HOURS;
    const [t, ev] = await Promise.all([
      v.call(vesselsTrack, { params: { id }, query: { hours: String(hours) } }),
      v.call(vesselsEvents, { params: { id }, query: { limit: String(EVENT_ROWS) } }),
    ]);
    const d = r.data;
    // Without the events list (an error), the answer's own latest few, oldest first as the list has them.
    const events = ev.ok ? { rows: ev.data, more: ev.nextCursor !== null } : { rows: [...d.events.latest].reverse(), more: d.events.count > d.events.latest.length };
    const answers = [r, ...(t.ok ? [t] : []), ...(ev.ok ? [ev] : [])];
    // The vessel answer already counts the events a station may not show over the whole history: the list's count of the same rows is not added to it.
    const counted = new Set(r.withheld.filter((e) => e.section === "events").map((e) => e.sources.join(",")));
    const withheld: WithheldEntry[] = [...r.withheld, ...(t.ok ? t.withheld : []), ...(ev.ok ? ev.withheld.filter((e) => !(e.section === "events" && counted.has(e.sources.join(",")))) : [])];
    const sections = new Set(withheld.map((e) => e.section));
    const name = top.name ?? (top.imo ? `IMO ${top.imo}` : `MMSI ${String(top.mmsi).padStart(9, "0")}`);
    const window = t.ok ? t.top.window : null;
    const now = v.ctx.clock.now();
    const registry = v.ctx.pipeline.services.sources;
    const named: SourceNames = (ids) => ids.map((s) => sourceName(registry, s)).join(", ");
    return {
      kind: "page",
      // A sanctioned ship says so in its title too: in a tab, a bookmark, a history list.
      options: { title: activeDesignations(d).length > 0 ? `${name} (sanctioned)` : name, ...MAP_ASSETS, styles: [...MAP_ASSETS.styles, DOSSIER_STYLE] },
      body: html`<div class="vessel-dossier"><p class="hint">Vessel${top.imo ? ` · IMO ${top.imo}` : ""}${top.mmsi ? ` · MMSI ${String(top.mmsi).padStart(9, "0")}` : ""} · as of ${utc(top.generatedAt)} · <a href="/api/v1/vessels/${id}">as JSON</a></p>
${dossierHeader(top, d, now, sections, v.principal.kind === "anonymous")}
${trackSection(id, d, t.ok ? t.data : null, events, window, hours, sections, named)}
${sanctionsSection(d)}
${identityHistory(d, named)}
${identityRecords(d, named)}
${companiesSection(d.companies, d.sanctionsCoverage.some((c) => c.status !== "missing"), named)}
${particularsSection(d.particulars, sections.has("particulars"), named)}
${portCallsSection(d.portCalls, named)}
${emissionsSection(d.emissions)}
${withheldSection(withheld, v.ctx.pipeline.services.sources, v.principal.entitlements.commercialUse, RISK_SECTION_WORDS)}
${sourcesSection(answers)}</div>`,
    };
  },
};
