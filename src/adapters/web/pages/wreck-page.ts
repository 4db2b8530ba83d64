import { wrecksGet } from "../../../operations/wrecks.get.ts";
import { html } from "../../shared/html.ts";
import { facts, MAP_ASSETS, mapFigure, sourcesSection, withheldSection } from "./page-parts.ts";
import { entityAnswer, type PageResult, type PublicPageKind, type Visit } from "./public-page.ts";

export const wreckPage: PublicPageKind = {
  routes: ["/wreck/:ref"],
  async render(v: Visit): Promise<PageResult> {
    // A bare id, an outdated name or the legacy `{slug}-{id}` form all redirect to one canonical address.
    const r = await entityAnswer(v, wrecksGet, { id: v.params.ref ?? "" });
    if (!r.ok) return r.result;
    const { top, data: d } = r;
    const name = d.identity?.name ?? `Wreck ${String(top.id)}`;
    return {
      kind: "page",
      options: { title: name, ...MAP_ASSETS },
      body: html`<p class="hint">Wreck · record ${String(top.id)} · <a href="/api/v1/wrecks/${String(top.id)}">as JSON</a></p>
<h2>Identity</h2>
${d.identity ? facts([["Name", d.identity.name], ["Feature", d.identity.featureType], ["Year sunk", d.identity.yearSunk === null ? null : String(d.identity.yearSunk)]]) : html`<p>Withheld (see below).</p>`}
<h2>Location</h2>
${d.coordinates
  ? html`<p id="coordinates">${d.coordinates.lat.toFixed(4)}, ${d.coordinates.lon.toFixed(4)}${d.coordinates.positionQuality ? ` (position ${d.coordinates.positionQuality})` : ""}</p>
${mapFigure("wreck-map", { points: [{ lon: d.coordinates.lon, lat: d.coordinates.lat, label: name }] }, "Where the wreck lies.")}`
  : html`<p id="coordinates">No position that may be shown.</p>`}
<h2>Depth</h2>
${d.depth ? html`<p>${d.depth.value} ${d.depth.unit ?? "(unit not given)"}${d.depth.metres !== null ? ` (${d.depth.metres} m)` : ""}${d.depth.wireDragClearance ? ", cleared by wire drag" : ""}</p>` : html`<p>No depth on record.</p>`}
<h2>History</h2>
${d.history ? html`<p id="history">${d.history}</p>` : html`<p>No history on record.</p>`}
${withheldSection(r.withheld, v.ctx.pipeline.services.sources, v.principal.entitlements.commercialUse)}
${sourcesSection([r])}`,
    };
  },
};
