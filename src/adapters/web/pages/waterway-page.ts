import type { z } from "zod";
import type { DataOf } from "../../../operations/answer.ts";
import type { ConfidenceSchema, InputsSchema } from "../../../operations/projections/waterways.ts";
import { waterwaysList } from "../../../operations/waterways.list.ts";
import { waterwaysTransits } from "../../../operations/waterways.transits.ts";
import { type Html, html } from "../../shared/html.ts";
import type { SourceRegistry } from "../../../domain/rights/source.ts";
import { barChart, facts, MAP_ASSETS, mapFigure, sourceName, sourcesSection, utc, visitorPositionsNote, withheldSection } from "./page-parts.ts";
import { problemOf, type PageResult, type PublicPageKind, type Visit } from "./public-page.ts";

/** The answers as the page reads them: the operations' own types. */
type Waterway = DataOf<typeof waterwaysList>[number];
type Transits = DataOf<typeof waterwaysTransits>;
type Confidence = z.infer<typeof ConfidenceSchema>;
type Inputs = z.infer<typeof InputsSchema>;

/**
 * The waterway an address names: its id alone or followed by a slug. Ids hold hyphens
 * (kiel-canal), so the longest id the address starts with wins.
 */
function waterwayOf(ref: string, all: readonly Waterway[]): Waterway | undefined {
  const lower = ref.toLowerCase();
  let best: Waterway | undefined;
  for (const w of all) if ((lower === w.id || lower.startsWith(`${w.id}-`)) && (!best || w.id.length > best.id.length)) best = w;
  return best;
}

const WINDOWS = ["24h", "7d", "30d"] as const;
const WINDOW_WORDS: Record<(typeof WINDOWS)[number], string> = { "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days" };

/**
 * No station whose data the visitor may see covers the gate: a count would read "0 transits"
 * where the truth is "not known". The confidence says so (level none, or no coverage).
 */
function uncovered(c: Confidence | null): boolean {
  return c !== null && (c.level === "none" || c.coverage === 0);
}

/** Said instead of zeros when nothing covers the gate, with why for a visitor without an account. */
function noCoverage(id: string, anonymous: boolean): Html {
  return html`<p id="${id}" class="notice">No coverage: no receiving station whose data you may see covers this gate, so the transits are not known (not zero).${anonymous ? html` ${visitorPositionsNote()}` : ""}</p>`;
}

function countsTable(w: Waterway, anonymous: boolean): Html {
  if (w.counts === null) return html`<p id="counts">Withheld (see below).</p>`;
  if (uncovered(w.confidence)) return noCoverage("counts", anonymous);
  const counts = w.counts;
  const dirs = w.gate.directions;
  return html`<table id="counts"><caption>Transits counted at the gate, as of ${utc(counts.asOf)}</caption><thead><tr><th scope="col">Window</th>${dirs.map((d) => html`<th scope="col">${d}</th>`)}<th scope="col">Total</th></tr></thead>
<tbody>${WINDOWS.map((k) => html`<tr><th scope="row">${WINDOW_WORDS[k]}</th>${dirs.map((d) => html`<td>${(counts[k].byDirection[d] ?? 0).toLocaleString("en-GB")}</td>`)}<td>${counts[k].total.toLocaleString("en-GB")}</td></tr>`)}</tbody></table>`;
}

function seriesSection(t: Transits, directions: string[], anonymous: boolean): Html {
  if (t.series === null) return html`<p id="series">Withheld (see below).</p>`;
  if (uncovered(t.confidence)) return noCoverage("series", anonymous);
  const series = t.series;
  // Bars are labelled by day of month; the range is said once beside them.
  const range = series.length > 0 ? html`<p class="hint" id="series-range">Per UTC day, ${series[0]!.date} to ${series.at(-1)!.date}.</p>` : html``;
  return html`${barChart("Transits per day", series.map((s) => ({ label: s.date.slice(8, 10), value: s.total })), "vessels", 28)}
${range}
<details><summary>The same as a table</summary><table id="series"><caption>Transits per UTC day</caption><thead><tr><th scope="col">Date</th>${directions.map((d) => html`<th scope="col">${d}</th>`)}<th scope="col">Total</th></tr></thead>
<tbody>${series.map((s) => html`<tr><th scope="row">${s.date}</th>${directions.map((d) => html`<td>${s.byDirection[d] ?? 0}</td>`)}<td>${s.total}</td></tr>`)}</tbody></table></details>`;
}

function confidenceFacts(c: Confidence | null, inputs: Inputs, registry: SourceRegistry): Html {
  if (c === null) return facts([["Confidence", "Withheld (see below)"], ["Gate", inputs.gate]]);
  return facts([
    ["Confidence", `${c.level} (window ${c.window})`],
    ["Receiver coverage near the gate", `${Math.round(c.coverage * 100)} %`],
    ["Longest step between positions", c.continuityMinutes === null ? null : `${c.continuityMinutes} min`],
    ["Crossings not observed directly", c.unobservedRatio === null ? null : `${Math.round(c.unobservedRatio * 100)} %`],
    ["Crossings observed / inferred", `${inputs.crossings} / ${inputs.unobserved}`],
    ["Stations", inputs.sources.length > 0 ? inputs.sources.map((id) => sourceName(registry, id)).join(", ") : "none in range"],
    ["Gate", inputs.gate],
  ]);
}

export const waterwayPage: PublicPageKind = {
  routes: ["/waterway/:ref"],
  async render(v: Visit): Promise<PageResult> {
    const list = await v.call(waterwaysList);
    if (!list.ok) return problemOf(list.error);
    const w = waterwayOf(v.params.ref ?? "", list.data);
    if (!w) return problemOf({ status: 404, message: `No waterway ${JSON.stringify(v.params.ref ?? "")}; the chokepoint monitor lists canals and straits by id, e.g. chokepoint9 or kiel-canal.` });
    // Compared as sent, like the other entity pages: a missing or outdated slug goes to the one canonical address.
    if (v.req.url.split("?")[0] !== w.page) return { kind: "moved", to: w.page };
    const series = await v.call(waterwaysTransits, { params: { id: w.id } });
    if (!series.ok) return problemOf(series.error);
    const t = series.data;
    const anonymous = v.principal.kind === "anonymous";
    const registry = v.ctx.pipeline.services.sources;
    return {
      kind: "page",
      options: { title: w.name ?? w.id, ...MAP_ASSETS },
      body: html`<p class="hint">Waterway · ${w.id}${w.portwatch ? ` · IMF PortWatch ${w.portwatch.id}` : ""} · the series as JSON: <a href="/docs/api#waterways.transits">GET /api/v1/waterways/${w.id}/transits</a> with an API key</p>
<h2>Gate</h2>
${mapFigure("waterway-map", { lines: [{ coordinates: w.gate.coordinates, label: `${w.name ?? w.id} gate` }] }, "The line transits are counted at.")}
${facts([["Directions", w.gate.directions.join(" / ")], ["Drawn", w.gate.drawn], ["Status", w.gate.status], ["Ends", w.gate.coordinates.map(([lon, lat]) => `${lat.toFixed(4)}, ${lon.toFixed(4)}`).join(" to ")]])}
<h2>Transits</h2>
${countsTable(w, anonymous)}
<h2>Daily transits</h2>
${seriesSection(t, w.gate.directions, anonymous)}
<h2>How it is counted</h2>
${facts([["Method", w.method], ["Version", w.version]])}
<h3>Last 24 hours</h3>
${confidenceFacts(w.confidence, w.inputs, registry)}
<h3>The daily series (${t.confidence?.window ?? "30d"})</h3>
${confidenceFacts(t.confidence, t.inputs, registry)}
${withheldSection([...(w.counts === null ? list.withheld.filter((e) => ["counts", "confidence", "inputs"].includes(e.section)) : []), ...series.withheld], registry, v.principal.entitlements.commercialUse)}
${sourcesSection([list, series])}`,
    };
  },
};
