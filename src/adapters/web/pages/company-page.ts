import { companiesGet } from "../../../operations/companies.get.ts";
import type { DataOf } from "../../../operations/answer.ts";
import { html } from "../../shared/html.ts";
import { facts, sanctionedMark, sourcesSection, withheldSection } from "./page-parts.ts";
import { entityAnswer, type PageResult, type PublicPageKind, type Visit } from "./public-page.ts";

/** Roles as the answer gives them, in words. */
const ROLE_WORDS: Record<string, string> = { registered_owner: "Registered owner", operator: "Operator", manager: "Manager", linked: "Linked (role not stated)" };

/** A list's check in words: only "not designated" is a no-match on company records, and even that clears nothing. */
const CHECK_WORDS: Record<DataOf<typeof companiesGet>["designationChecks"][number]["status"], (asOf: string | null, loaded: number) => string> = {
  designated: (asOf) => `Designated (list as of ${asOf})`,
  not_designated: (asOf, loaded) => `Not designated: none of the ${loaded} company designations loaded (as of ${asOf}) is this company`,
  no_company_records: (asOf) => `Not checked: no company records loaded from this list (as of ${asOf}), only ships`,
  list_not_loaded: () => "Not checked: this list has not been loaded",
  withheld: () => "Not shown: this list may not be shown to you",
};

/** "2 of the 5 ships are designated now": one ship tied by two sources counts once. With no list loaded, nothing was checked. */
function fleetDesignated(fleet: DataOf<typeof companiesGet>["fleet"], listsLoaded: boolean): string {
  if (!listsLoaded) return "No sanctions list is loaded, so no ship of this fleet was checked.";
  const all = new Set(fleet.map((f) => f.vessel.id));
  const designated = new Set(fleet.filter((f) => f.sanctioned.length > 0).map((f) => f.vessel.id));
  if (designated.size === 0) return `None of the ${all.size === 1 ? "1 ship" : `${all.size} ships`} is designated on the lists checked (each ship's page says which lists, as of when).`;
  return `${designated.size} of the ${all.size === 1 ? "1 ship" : `${all.size} ships`} ${designated.size === 1 ? "is" : "are"} designated now by a sanctions list.`;
}

export const companyPage: PublicPageKind = {
  routes: ["/company/:ref"],
  async render(v: Visit): Promise<PageResult> {
    // companies.get resolves a bare id, any of the company's ids and the page form; anything else than its `page` redirects there.
    const r = await entityAnswer(v, companiesGet, { entityId: v.params.ref ?? "" });
    if (!r.ok) return r.result;
    const { top, data: d } = r;
    const name = top.name ?? `Company ${top.id}`;
    const listsLoaded = d.designationChecks.some((c) => c.status !== "list_not_loaded" && c.status !== "withheld");
    return {
      kind: "page",
      options: { title: name },
      body: html`<p class="hint">Company · ${String(top.id)} · <a href="/api/v1/companies/${String(top.id)}">as JSON</a></p>
<h2>Identity</h2>
${d.records.length === 0
  ? html`<p>Withheld (see below).</p>`
  : html`<table id="records"><caption>What each source states</caption><thead><tr><th scope="col">Source</th><th scope="col">Name</th><th scope="col">Other names</th><th scope="col">Company IMO</th><th scope="col">LEI</th><th scope="col">Country</th><th scope="col">Address</th></tr></thead>
<tbody>${d.records.map((x) => html`<tr><td><code>${x.source}</code></td><td>${x.name}</td><td>${x.aliases.length > 0 ? x.aliases.join("; ") : "none"}</td><td>${x.companyImo ?? "not known"}</td><td>${x.lei ?? "not known"}</td><td>${x.country ?? "not known"}</td><td>${x.address ?? "not known"}</td></tr>`)}</tbody></table>`}
<h2>Identifiers</h2>
${facts([["Entity id", String(top.id)], ["Also known by", d.ids.filter((i) => i !== top.id).join(", ") || "no other id"]])}
<h2>Designations</h2>
${d.designations.length === 0
  ? ""
  : html`<ul id="designations">${d.designations.map((x) => html`<li><strong>${x.list.toUpperCase()}</strong> record ${x.recordId}: ${x.name}${x.programs.length > 0 ? ` (programmes ${x.programs.join(", ")})` : ""}${x.listedAt ? `, listed ${x.listedAt}` : ""}</li>`)}</ul>`}
<table id="designation-checks"><caption>What each list could say of this company</caption><thead><tr><th scope="col">List</th><th scope="col">Result</th></tr></thead>
<tbody>${d.designationChecks.map((c) => html`<tr data-list="${c.list}" data-status="${c.status}"><td>${c.list.toUpperCase()}</td><td>${CHECK_WORDS[c.status](c.asOf, c.companyDesignationsLoaded)}</td></tr>`)}</tbody></table>
<h2>Fleet</h2>
${d.fleet.length === 0
  ? html`<p id="fleet-none">No ship tied to this company by a source that may be shown.</p>`
  : html`<p id="fleet-designated">${fleetDesignated(d.fleet, listsLoaded)}</p>
<table id="fleet"><caption>Ships a source ties to this company, and which of them a sanctions list designates now</caption><thead><tr><th scope="col">Ship</th><th scope="col">IMO / MMSI</th><th scope="col">Role</th><th scope="col">Designated</th><th scope="col">Evidence</th><th scope="col">Source</th></tr></thead>
<tbody>${d.fleet.map((f) => html`<tr${f.sanctioned.length > 0 ? html` data-sanctioned="${f.sanctioned.join(",")}"` : ""}><td><a href="${f.vessel.page}">${f.vessel.name ?? f.vessel.id}</a></td><td>${f.vessel.imo !== null ? `IMO ${f.vessel.imo}` : `MMSI ${String(f.vessel.mmsi)}`}</td><td>${ROLE_WORDS[f.role] ?? f.role}</td><td>${f.sanctioned.length > 0 ? sanctionedMark(f.sanctioned) : listsLoaded ? "no designation on the lists checked" : "not checked"}</td><td><q>${f.evidence}</q></td><td>${f.sources.map((s, i) => html`${i > 0 ? ", " : ""}<code>${s}</code>`)}</td></tr>`)}</tbody></table>`}
${withheldSection(r.withheld, v.ctx.pipeline.services.sources, v.principal.entitlements.commercialUse)}
${sourcesSection([r])}`,
    };
  },
};
