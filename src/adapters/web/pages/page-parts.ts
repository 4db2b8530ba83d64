import { TYPE_AND_FLAG_SECTION } from "../../../domain/rights/caller-rights.ts";
import type { SourceRegistry } from "../../../domain/rights/source.ts";
import type { WithheldEntry } from "../../../domain/rights/sourced.ts";
import type { Answer } from "../../../operations/answer.ts";
import { type Html, html, raw } from "../../shared/html.ts";

/** Pieces several public pages share: the withheld section, sources, facts lists, maps and charts. */

/** The scripts and styles of a page with a map (Leaflet and the bundled land, all served here). */
export const MAP_ASSETS = { scripts: ["/vendor/leaflet/leaflet.js", "/assets/basemap.js", "/assets/entity-map.js"], styles: ["/vendor/leaflet/leaflet.css"] };

/** A fact or "not known": empty values are said plainly instead of leaving a blank. */
export function orUnknown(v: string | number | null | undefined, unit = ""): string {
  return v === null || v === undefined || v === "" ? "not known" : `${typeof v === "number" ? v.toLocaleString("en-GB") : v}${unit}`;
}

/** A definition list of the facts that are present (label, value). */
export function facts(rows: [string, Html | string | number | null | undefined][]): Html {
  return html`<dl>${rows.map(([k, v]) => html`<dt>${k}</dt><dd>${v === null || v === undefined || v === "" ? "not known" : v}</dd>`)}</dl>`;
}

/** "3 h 12 min ago", "2 days ago": how old a fact is, as of the page's rendering. */
export function ageOf(iso: string, now: number): string {
  const ms = Math.max(0, now - Date.parse(iso));
  const min = Math.floor(ms / 60_000);
  if (min < 1) return "less than a minute ago";
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h ${min % 60} min ago`;
  return `${Math.floor(h / 24)} days ago`;
}

export function utc(iso: string | null | undefined): string {
  return iso ? iso.replace("T", " ").replace(/(:\d\d)(\.\d{3})?Z$/, "$1 UTC") : "not known";
}

/**
 * Why a visitor without an account sees few or no positions: AIS comes from receiving
 * stations, and without an account only shared stations' last 24 hours may be shown.
 */
export function visitorPositionsNote(): Html {
  return html`<span class="visitor-positions">Positions come from receiving stations: without an account you see only stations their owners share, over the last 24 hours. <a href="/login">Sign in</a> to see your own stations and your plan's history.</span>`;
}

/**
 * A source as a person reads it: its name from the sources file ("EU MRV emissions" rather
 * than `emsa_mrv`); a private station, governed by the file's `station` entry, is that entry's
 * name and its number. An id the service does not know is shown as it is.
 */
export function sourceName(registry: SourceRegistry, id: string): string {
  const s = registry.get(id);
  if (!s) return id;
  const station = /^station:(\d+)$/.exec(id);
  return station && s.id !== id ? `${s.name} (station ${station[1]})` : s.name;
}

/**
 * Why a section is missing, in words: which source does not permit which use. The sources
 * file says what each permits; a source it does not know permits nothing.
 */
function whyWithheld(registry: SourceRegistry, sourceId: string, commercialPlan: boolean): string {
  const s = registry.get(sourceId);
  if (!s) return "is not a source this service knows, so nothing from it is shown";
  const p = s.permissions;
  if (!(p.web ?? p.api)) return "does not permit showing its facts on web pages";
  if (commercialPlan && !p.commercial) return "does not permit commercial use, which your plan includes";
  return "does not permit this use";
}

/** Section names as the answers give them, in words for the page. */
const SECTION_WORDS: Record<string, string> = {
  identity: "Identity",
  "identity.mmsiHistory": "MMSI history",
  "identity.listed": "Identity as sanctions lists give it",
  "particulars.listed": "Particulars as sanctions lists give them",
  otherNames: "Other names",
  particulars: "Particulars",
  lastPosition: "Last position",
  positions: "Track positions",
  emissions: "Emissions",
  sanctions: "Sanctions designations",
  companies: "Companies",
  coordinates: "Coordinates",
  harbour: "Harbour facts",
  history: "History",
  depth: "Depth",
  country: "Country",
  mids: "Maritime Identification Digits",
  flagOfConvenience: "Flag of convenience status",
  vessels: "Vessels",
  sanctioned: "Designated ships",
  events: "Events",
  fleet: "Fleet",
  ports: "Ports",
  flags: "Flags",
};

/**
 * The withheld section: every part left out of this page, with each blocking source, what it
 * does not permit, and how many rows where rows were counted. Always present, so a visitor
 * can tell "nothing withheld" from "nothing known". A page may name its own sections (`pageWords`).
 */
export function withheldSection(all: readonly WithheldEntry[], registry: SourceRegistry, commercialPlan: boolean, pageWords: Readonly<Record<string, string>> = {}): Html {
  // A page built from several answers may hear of one part twice (the vessel's identity from its page and its track): one line each.
  const merged = new Map<string, WithheldEntry>();
  for (const e of all) {
    const key = `${e.section}\u0000${e.sources.join(",")}`;
    const had = merged.get(key);
    if (!had) merged.set(key, { ...e });
    else if (e.rows !== undefined) had.rows = (had.rows ?? 0) + e.rows;
  }
  // Parts left out by a rule of the answer's shape (type and flag are never in search hits) are no source's refusal: said apart, in their own words.
  const byRule = [...merged.values()].filter((e) => e.section === TYPE_AND_FLAG_SECTION);
  const entries = [...merged.values()].filter((e) => e.section !== TYPE_AND_FLAG_SECTION);
  const rule = byRule.map(
    (e) =>
      html`<p class="hint" id="not-in-hits" data-section="${e.section}">Vessel type and flag are not part of search results${e.rows !== undefined ? ` (${e.rows.toLocaleString("en-GB")} ${e.rows === 1 ? "vessel" : "vessels"} listed)` : ""}: open a vessel's page to see them${e.sources.length > 0 ? html`; for these vessels they come from ${e.sources.map((s, i) => html`${i > 0 ? ", " : ""}${sourceName(registry, s)}`)}` : ""}. This is how search results are made, not a restriction of any source.</p>`,
  );
  if (entries.length === 0) return html`${rule}<section aria-labelledby="withheld-h"><h2 id="withheld-h">Withheld</h2><p id="withheld-none">Nothing on this page is withheld.</p></section>`;
  return html`${rule}<section aria-labelledby="withheld-h" id="withheld"><h2 id="withheld-h">Withheld</h2>
<p>Some facts are not shown here because their sources do not permit it.</p>
<ul>${entries.map((e) => {
    const what = pageWords[e.section] ?? SECTION_WORDS[e.section] ?? e.section;
    const rows = e.rows !== undefined ? ` (${e.rows.toLocaleString("en-GB")} ${e.rows === 1 ? "row" : "rows"})` : "";
    return html`<li data-section="${e.section}"><strong>${what}</strong>${rows}: ${e.sources.map((s, i) => html`${i > 0 ? "; " : ""}source <strong title="${s}">${sourceName(registry, s)}</strong> ${whyWithheld(registry, s, commercialPlan)}`)}.</li>`;
  })}</ul></section>`;
}

/** Attribution and licences of what the page shows, from the sources of the answers behind it. */
export function sourcesSection(answers: readonly Pick<Answer, "sources">[]): Html {
  const attribution = [...new Set(answers.flatMap((a) => a.sources.map((s) => s.attribution)))];
  const license = [...new Set(answers.flatMap((a) => a.sources.map((s) => s.license)))];
  if (attribution.length === 0) return html``;
  return html`<section aria-labelledby="sources-h"><h2 id="sources-h">Sources</h2><ul>${attribution.map((a) => html`<li>${a}</li>`)}</ul>
<details><summary>Licences</summary><ul>${license.map((l) => html`<li>${l}</li>`)}</ul></details></section>`;
}

/** What a map shows: a track (longitude, latitude pairs, oldest first) and points. */
export interface MapContent {
  track?: [number, number][];
  points?: { lon: number; lat: number; label: string }[];
  /** Lines drawn as they are (a waterway's gate, a GeoJSON LineString's coordinates). */
  lines?: { coordinates: [number, number][]; label: string }[];
  /** A vessel's events (encounter, port call...) as small marks; the page's timeline lists the same. */
  events?: { lon: number; lat: number; label: string; type: string }[];
}

/**
 * A map figure: the script draws it from the data attribute (same-origin land, no tiles).
 * Without script the figure stays hidden and the page's tables say the same in text.
 */
export function mapFigure(id: string, content: MapContent, caption: string): Html {
  return html`<figure class="map-figure entity-map" hidden id="${id}-figure" data-map="${JSON.stringify(content)}"><div id="${id}" class="map"></div><figcaption>${caption} Land: Made with Natural Earth.</figcaption></figure>`;
}

/**
 * A small bar chart as inline SVG (no script, no chart library): one bar per year, the
 * value written above it; the table beside it carries the same figures for screen readers.
 */
export function barChart(title: string, bars: { label: string; value: number | null }[], unit: string, barWidth = 64): Html {
  const present = bars.filter((b) => b.value !== null) as { label: string; value: number }[];
  if (present.length === 0) return html``;
  const max = Math.max(...present.map((b) => b.value), 1);
  const w = barWidth;
  const h = 160;
  const width = bars.length * w + 20;
  const fmt = (v: number) => (v >= 10_000 ? `${Math.round(v / 1000).toLocaleString("en-GB")}k` : Math.round(v).toLocaleString("en-GB"));
  const id = `chart-${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  const parts = bars.map((b, i) => {
    const x = 10 + i * w;
    if (b.value === null) return `<text x="${x + w / 2}" y="${h + 16}" text-anchor="middle">${b.label}</text><text x="${x + w / 2}" y="${h - 4}" text-anchor="middle">n/a</text>`;
    const bh = Math.max(1, Math.round((b.value / max) * (h - 30)));
    return `<rect x="${x + 8}" y="${h - bh}" width="${w - 16}" height="${bh}" class="bar"></rect><text x="${x + w / 2}" y="${h - bh - 4}" text-anchor="middle">${fmt(b.value)}</text><text x="${x + w / 2}" y="${h + 16}" text-anchor="middle">${b.label}</text>`;
  });
  // Labels are years and numbers formatted here: nothing from outside is written into the SVG unescaped.
  return html`<svg class="chart" role="img" aria-labelledby="${id}" viewBox="0 0 ${width} ${h + 24}" width="${width}" height="${h + 24}"><title id="${id}">${title} (${unit})</title>${raw(parts.join(""))}</svg>`;
}

/** A sanctions list family as a short label on pages (the answers give the family keys). */
const LIST_LABELS: Readonly<Record<string, string>> = { ofac: "OFAC", uk: "UK", eu: "EU", canada: "Canada", "new-zealand": "New Zealand" };
export const listLabel = (list: string): string => LIST_LABELS[list] ?? list;

/**
 * "Sanctioned (OFAC, UK)" where a ship or a company is named away from its own page (a search
 * hit, a fleet row, a vessel's company); nothing when no list designates it: an empty mark is
 * no clearance, and the thing's own page says which lists were checked.
 */
export function sanctionedMark(lists: readonly string[] | undefined): Html {
  if (!lists || lists.length === 0) return html``;
  return html` <strong class="sanctioned-mark">Sanctioned</strong> (${lists.map(listLabel).join(", ")})`;
}
