import { portsGet } from "../../../operations/ports.get.ts";
import { html } from "../../shared/html.ts";
import { facts, MAP_ASSETS, mapFigure, sourcesSection, withheldSection } from "./page-parts.ts";
import { entityAnswer, type PageResult, type PublicPageKind, type Visit } from "./public-page.ts";

/** World Port Index field names ("maxVesselLengthM") in words ("Max vessel length m"); a few dozen names, each worded once. */
const WORDED = new Map<string, string>();
function words(key: string): string {
  let w = WORDED.get(key);
  if (w === undefined) {
    const lower = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/_/g, " ").toLowerCase();
    w = lower.charAt(0).toUpperCase() + lower.slice(1);
    if (WORDED.size < 1000) WORDED.set(key, w);
  }
  return w;
}

function factText(v: unknown): string | null {
  if (v === null || v === undefined || v === "") return null;
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

export const portPage: PublicPageKind = {
  routes: ["/port/:unlocode"],
  async render(v: Visit): Promise<PageResult> {
    const r = await entityAnswer(v, portsGet, { unlocode: v.params.unlocode ?? "" });
    if (!r.ok) return r.result;
    const { top, data: d } = r;
    const id = d.identity;
    const title = `${top.name ?? top.unlocode}${top.country ? ` (${top.country})` : ""}`;
    const harbour = d.harbour ? Object.entries(d.harbour).filter(([, x]) => factText(x) !== null) : [];
    return {
      kind: "page",
      options: { title, ...MAP_ASSETS },
      body: html`<p class="hint">Port · UN/LOCODE ${String(top.unlocode)} · <a href="/api/v1/ports/${String(top.unlocode)}">as JSON</a></p>
<h2>Identity</h2>
${id
  ? facts([
      ["Name", id.name],
      ["UN/LOCODE", String(top.unlocode)],
      ["Country", d.flag ? html`<a href="${d.flag.page}">${d.flag.iso2}</a>` : null],
      ["Subdivision", id.subdivisionName ? `${id.subdivisionName} (${id.subdivision})` : id.subdivision],
      ["IATA code", id.iata],
      ["UN/LOCODE edition", id.edition],
    ])
  : html`<p>Withheld (see below).</p>`}
<h2>Functions</h2>
${id ? html`<ul id="functions">${id.functionNames.map((f) => html`<li>${f}</li>`)}</ul>` : html`<p>Withheld (see below).</p>`}
<h2>Location</h2>
${d.coordinates
  ? html`<p id="coordinates">${d.coordinates.lat.toFixed(4)}, ${d.coordinates.lon.toFixed(4)} (source: ${d.coordinates.source})</p>
${mapFigure("port-map", { points: [{ lon: d.coordinates.lon, lat: d.coordinates.lat, label: title }] }, `The port's position.`)}`
  : html`<p id="coordinates">No coordinates that may be shown.</p>`}
<h2>Harbour facts</h2>
${harbour.length > 0 ? html`<dl id="harbour">${harbour.map(([k, x]) => html`<dt>${words(k)}</dt><dd>${factText(x)}</dd>`)}</dl>` : html`<p>No World Port Index facts for this port${d.harbour === null && r.withheld.some((e) => e.section === "harbour") ? " may be shown (see below)" : ""}.</p>`}
<h2>Recent calls</h2>
<p>No port calls on record.</p>
${withheldSection(r.withheld, v.ctx.pipeline.services.sources, v.principal.entitlements.commercialUse)}
${sourcesSection([r])}`,
    };
  },
};
