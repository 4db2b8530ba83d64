import { flagsGet } from "../../../operations/flags.get.ts";
import { portPagePath } from "../../../domain/pages/page-paths.ts";
import { portsList } from "../../../operations/ports.list.ts";
import { html } from "../../shared/html.ts";
import { facts, sourcesSection, withheldSection } from "./page-parts.ts";
import { entityAnswer, type PageResult, type PublicPageKind, type Visit } from "./public-page.ts";

/** Ports listed on a flag page; the rest are a query away in the API. */
const PORTS_SHOWN = 100;

export const flagPage: PublicPageKind = {
  routes: ["/flag/:iso2"],
  async render(v: Visit): Promise<PageResult> {
    const r = await entityAnswer(v, flagsGet, { iso2: v.params.iso2 ?? "" });
    if (!r.ok) return r.result;
    const { top, data: d } = r;
    const ports = await v.call(portsList, { query: { country: top.iso2, limit: String(PORTS_SHOWN) } });

    const c = d.country;
    const foc = d.flagOfConvenience;
    const title = `Flag of ${(top.name as string | null) ?? top.iso2}`;
    return {
      kind: "page",
      options: { title },
      body: html`<p class="hint">Flag registry · ISO 3166 ${String(top.iso2)} · <a href="/api/v1/flags/${String(top.iso2)}">as JSON</a></p>
<h2>Registry</h2>
${c
  ? facts([
      ["Country", (c.officialName as string | undefined) ?? (c.name as string | undefined)],
      ["ISO codes", `${String(c.iso2 ?? "")} / ${String(c.iso3 ?? "")} / ${String(c.numeric ?? "")}`],
      ["Region", [c.region, c.subRegion].filter(Boolean).join(", ")],
      ["Sovereignty", c.sovereignty as string | undefined],
    ])
  : html`<p>Withheld (see below).</p>`}
<h2>Maritime Identification Digits</h2>
${d.mids === null
  ? html`<p>Withheld (see below).</p>`
  : d.mids.mids.length === 0
    ? html`<p>No MMSI prefix allocated to this country.</p>`
    : html`<p id="mids">MMSIs of this flag start with ${d.mids.mids.join(", ")}${d.mids.allocatedTo.length > 0 ? ` (allocated to ${d.mids.allocatedTo.join(", ")})` : ""}.</p>`}
<h2>Flag of convenience</h2>
${foc ? html`<p id="foc">${foc.listed === true ? "Listed" : foc.listed === false ? "Not listed" : "Status"} by the ITF as a flag of convenience${typeof foc.note === "string" ? `: ${foc.note}` : "."}</p>` : html`<p>No flag-of-convenience status that may be shown.</p>`}
<h2>Fleet and ports</h2>
<p>The ships registered under this flag are not on record yet.</p>
${!ports.ok
  ? html`<p>The ports could not be listed: ${ports.error.message}</p>`
  : ports.data.length === 0
    ? html`<p>No ports of this country on record.</p>`
    : html`<details><summary>Ports (${ports.data.length}${ports.nextCursor ? "+" : ""})</summary><ul id="ports">${ports.data.map((p) => html`<li><a href="${portPagePath(p.unlocode)}">${p.name}</a> (${p.unlocode})</li>`)}</ul></details>`}
${withheldSection([...r.withheld, ...(ports.ok ? ports.withheld.filter((e) => e.section === "ports") : [])], v.ctx.pipeline.services.sources, v.principal.entitlements.commercialUse)}
${sourcesSection(ports.ok ? [r, ports] : [r])}`,
    };
  },
};
