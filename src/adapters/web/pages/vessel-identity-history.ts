/**
 * A ship's identity over time on one table: every name, flag, call sign and MMSI the vessel
 * answer holds, each with its source and a date that says what it is. A station's date is
 * when it heard the ship, a dataset's is the version that had it, a list's is its listing
 * and the versions that say it: a list's date never poses as a sighting.
 */
import { type Html, html } from "../../shared/html.ts";
import { utc } from "./page-parts.ts";
import type { VesselData } from "./vessel-dossier.ts";

type Listing = VesselData["otherNames"][number]["listed"][number];
export type ListingDates = Omit<Listing, "as">;

export const NAME_ROLE_WORDS: Record<Listing["as"], string> = { name: "listed name", alias: "also known as", former_name: "former name" };

/** What a list's statement is dated by, in words: its own listing date and the versions of the list that say it. Never a sighting. */
export function listingWhen(l: ListingDates): string {
  const listed = l.listedAt ? `listed on ${l.listedAt}` : "listing date not published";
  const versions = l.firstInVersionOf === l.lastInVersionOf ? `in the list's version of ${l.firstInVersionOf}` : `in the list's versions of ${l.firstInVersionOf} to ${l.lastInVersionOf}`;
  return `${listed}; ${versions}${l.delistedAt ? `; delisted ${l.delistedAt}` : ""}`;
}

/** A sighting's dates: "heard" for stations, the dataset versions for registry sources; null dates are not sightings. */
function sightedWhen(sources: readonly string[], first: string | null, last: string | null): string | null {
  if (first === null || last === null) return null;
  if (sources.every((s) => s.startsWith("station:"))) return first === last ? `heard ${utc(first)}` : `heard ${utc(first)} to ${utc(last)}`;
  const [a, b] = [first.slice(0, 10), last.slice(0, 10)];
  return a === b ? `seen in the version of ${a}` : `seen in the versions of ${a} to ${b}`;
}

interface Row {
  what: "Name" | "Flag" | "Call sign" | "MMSI";
  value: string;
  /** What this row is (current, former, listed...), in words. */
  role: string;
  when: string;
  source: Html;
}

const listSource = (l: { source: string; recordId: string }) => html`<code>${l.source}</code> record ${l.recordId}`;
/** Sources as a person reads them (their names, page-parts.ts `sourceName`). */
export type SourceNames = (ids: readonly string[]) => string;

/** Sighted rows of a name or an MMSI, then one row per list that gives it. */
function rowsOf(what: Row["what"], value: string, role: string, r: { firstSeen: string | null; lastSeen: string | null; sources: string[]; listed: (ListingDates & { as?: Listing["as"] })[] }, named: SourceNames): Row[] {
  const out: Row[] = [];
  const sighted = sightedWhen(r.sources, r.firstSeen, r.lastSeen);
  const seenBy = r.sources.filter((s) => !r.listed.some((l) => l.source === s));
  if (sighted && seenBy.length > 0) out.push({ what, value, role, when: sighted, source: html`${named(seenBy)}` });
  for (const l of r.listed) out.push({ what, value, role: l.as ? NAME_ROLE_WORDS[l.as] : "as listed", when: listingWhen(l), source: listSource(l) });
  return out;
}

function historyRows(d: VesselData, named: SourceNames): Row[] {
  const rows: Row[] = [];
  const i = d.identity;
  for (const l of i?.listed ?? []) rows.push({ what: "Name", value: l.name, role: "listed name", when: listingWhen(l), source: listSource(l) });
  for (const n of d.otherNames) rows.push(...rowsOf("Name", n.name, "other name", n, named));
  for (const l of d.particulars?.listed ?? []) {
    if (l.flag) rows.push({ what: "Flag", value: `${l.flag}${l.flagIso2 ? ` (${l.flagIso2})` : ""}`, role: "flag as listed", when: listingWhen(l), source: listSource(l) });
    for (const f of l.formerFlags) rows.push({ what: "Flag", value: f, role: "former flag", when: listingWhen(l), source: listSource(l) });
  }
  for (const l of i?.listed ?? []) if (l.callSign) rows.push({ what: "Call sign", value: l.callSign, role: "as listed", when: listingWhen(l), source: listSource(l) });
  for (const m of i?.mmsiHistory ?? []) {
    const mmsi = String(m.mmsi).padStart(9, "0");
    rows.push(...rowsOf("MMSI", mmsi, m.mmsi === i?.mmsi ? "current MMSI" : "MMSI used", { ...m, listed: m.listed }, named));
  }
  return rows;
}

export function identityHistory(d: VesselData, named: SourceNames): Html {
  if (!d.identity) return html`<h2 id="identity-h">Identity history</h2><p>Withheld (see below).</p>`;
  const rows = historyRows(d, named);
  return html`<h2 id="identity-h">Identity history</h2>
${rows.length === 0
  ? html`<p id="identity-history-none">No names, flags, call signs or MMSIs on record beyond the above.</p>`
  : html`<div class="table-box" role="region" tabindex="0" aria-labelledby="identity-history-caption"><table id="identity-history"><caption id="identity-history-caption">Names, flags, call signs and MMSIs over time from every source (the current ones are at the top of the page): "heard" is a station's reception, "seen in the version of" a dataset's, "listed" a sanctions list's statement (not a sighting)</caption><thead><tr><th scope="col">What</th><th scope="col">Value</th><th scope="col">As</th><th scope="col">Dated</th><th scope="col">Source</th></tr></thead>
<tbody>${rows.map((r) => html`<tr data-what="${r.what}"><td>${r.what}</td><td>${r.value}</td><td>${r.role}</td><td>${r.when}</td><td>${r.source}</td></tr>`)}</tbody></table></div>`}`;
}
