import { flagsGet } from "../../../operations/flags.get.ts";
import { portPagePath, vesselPagePath } from "../../../domain/pages/page-paths.ts";
import type { DataOf } from "../../../operations/answer.ts";
import { portsList } from "../../../operations/ports.list.ts";
import { type Html, html } from "../../shared/html.ts";
import { facts, listLabel, sourcesSection, withheldSection } from "./page-parts.ts";
import { entityAnswer, type PageResult, type PublicPageKind, type Visit } from "./public-page.ts";

/** Ports listed on a flag page; the rest are a query away in the API. */
const PORTS_SHOWN = 100;

type FlagData = DataOf<typeof flagsGet>;

/** Types listed per source before the rest are summed as "other types". */
const TYPES_SHOWN = 6;

/** The ships each source places under the flag, by the type it gives: each source counts its own, never added up across sources. */
function fleetSection(bySource: FlagData["vessels"]): Html {
  if (bySource.length === 0) return html`<p id="fleet-none">No loaded source places ships under this flag.</p>`;
  return html`<table id="flag-vessels"><caption>Ships each source places under this flag (a ship may be in several sources)</caption><thead><tr><th scope="col">Source</th><th scope="col">Ships</th><th scope="col">By type</th></tr></thead>
<tbody>${bySource.map((s) => {
    const shown = s.byType.slice(0, TYPES_SHOWN);
    const rest = s.byType.slice(TYPES_SHOWN).reduce((n, t) => n + t.count, 0);
    const types = [...shown.map((t) => `${t.type ?? "type not given"}: ${t.count.toLocaleString("en-GB")}`), ...(rest > 0 ? [`other types: ${rest.toLocaleString("en-GB")}`] : [])];
    return html`<tr><td><code>${s.source}</code></td><td>${s.total.toLocaleString("en-GB")}</td><td>${types.join("; ")}</td></tr>`;
  })}</tbody></table>`;
}

/** A designated ship's key across lists: one ship designated by two lists counts once. */
const shipKey = (v: FlagData["sanctioned"][number]["vessels"][number], list: string) => (v.imo !== null ? `imo:${v.imo}` : v.mmsi !== null ? `mmsi:${v.mmsi}` : `${list}:${v.recordId}`);

function shipLink(v: FlagData["sanctioned"][number]["vessels"][number]): Html {
  const id = v.imo !== null ? ({ kind: "imo", imo: v.imo } as const) : v.mmsi !== null ? ({ kind: "mmsi", mmsi: v.mmsi } as const) : null;
  return id ? html`<a href="${vesselPagePath(id, v.name)}">${v.name}</a>` : html`${v.name}`;
}

/** Names beyond this many fold away: a flag of convenience can have hundreds. */
const NAMES_OPEN = 20;

function names(vessels: FlagData["sanctioned"][number]["vessels"]): Html {
  const links = html`${vessels.map((v, i) => html`${i > 0 ? ", " : ""}${shipLink(v)}${v.imo !== null ? ` (IMO ${v.imo})` : ""}`)}`;
  return vessels.length <= NAMES_OPEN ? links : html`<details><summary>${vessels.length.toLocaleString("en-GB")} ships</summary>${links}</details>`;
}

/** The ships under this flag a list designates now (the flag as the list publishes it), counted once across lists. */
function designatedSection(lists: FlagData["sanctioned"]): Html {
  const ships = new Set(lists.flatMap((l) => l.vessels.map((v) => shipKey(v, l.list))));
  const count = html`<p id="flag-designated"><strong>${ships.size.toLocaleString("en-GB")}</strong> ${ships.size === 1 ? "ship" : "ships"} under this flag ${ships.size === 1 ? "is" : "are"} designated now on the lists loaded that you may see (the flag as each list publishes it).</p>`;
  if (lists.length === 0) return count;
  return html`${count}
<table id="flag-sanctioned"><caption>Designated ships per list</caption><thead><tr><th scope="col">List</th><th scope="col">Ships</th><th scope="col">Names</th></tr></thead>
<tbody>${lists.map((l) => html`<tr data-list="${l.list}"><td>${listLabel(l.list)}</td><td>${l.count.toLocaleString("en-GB")}</td><td>${names(l.vessels)}</td></tr>`)}</tbody></table>`;
}

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
<h2>Fleet</h2>
${fleetSection(d.vessels)}
<h2>Designated ships</h2>
${designatedSection(d.sanctioned)}
<h2>Ports</h2>
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
