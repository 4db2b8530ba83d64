import { searchPagePath } from "../../../domain/pages/page-paths.ts";
import { search } from "../../../operations/search.ts";
import { html } from "../../shared/html.ts";
import { sanctionedMark, withheldSection } from "./page-parts.ts";
import { type PageResult, type PublicPageKind, type Visit } from "./public-page.ts";

/** Each kind search finds, in words; a kind added to search without a word here shows its own name. */
const KIND_WORDS: Readonly<Record<string, string>> = { vessel: "Vessel", port: "Port", flag: "Flag", company: "Company", wreck: "Wreck", waterway: "Waterway" };

/** Search vessels, ports and flags; the form works without script (GET /search?q=). */
export const searchPage: PublicPageKind = {
  routes: [searchPagePath()],
  async render(v: Visit): Promise<PageResult> {
    const raw = v.query.q;
    const q = typeof raw === "string" ? raw : "";
    const form = html`<form method="get" action="${searchPagePath()}" role="search" class="inline"><label for="q">Name, IMO, MMSI, UN/LOCODE or country</label> <input id="q" name="q" value="${q}" maxlength="100" required> <button type="submit" id="search-go">Search</button></form>`;
    if (q === "" && raw === undefined) return { kind: "page", options: { title: "Search" }, body: form };
    const r = await v.call(search, { query: { q } });
    if (!r.ok) {
      return { kind: "page", status: r.error.status, options: { title: "Search" }, body: html`${form}<p class="error" role="alert" id="search-error">${r.error.message}</p>` };
    }
    return {
      kind: "page",
      options: { title: `Search: ${q}` },
      body: html`${form}
${r.data.length === 0
  ? html`<p id="no-hits">Nothing found for “${q}”.</p>`
  : html`<ol id="hits">${r.data.map((h) => html`<li><a href="${h.page}">${h.name}</a> <span class="hint">${KIND_WORDS[h.kind] ?? h.kind}${h.imo !== null ? ` · IMO ${h.imo}` : ""}${h.mmsi !== null ? ` · MMSI ${String(h.mmsi).padStart(9, "0")}` : ""}${h.kind !== "vessel" ? ` · ${h.id}` : ""}</span>${sanctionedMark(h.sanctioned)}</li>`)}</ol>`}
${r.withheld.length > 0 ? withheldSection(r.withheld, v.ctx.pipeline.services.sources, v.principal.entitlements.commercialUse) : ""}`,
    };
  },
};
