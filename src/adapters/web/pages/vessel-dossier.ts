/**
 * The top of a vessel page: what an analyst must see at a glance, above the fold at 1280 px.
 * Who the ship is (name, IMO, MMSI, call sign, flag, type), whether a list designates it now
 * (with the lists and since when) or which lists were checked as of when (stale, extract and
 * missing lists marked, so a no-match never reads as a clearance), the risk indicators as dated
 * chips, and the last position with its age. Everything comes from the vessel answer.
 */
import { flagPagePath } from "../../../domain/pages/page-paths.ts";
import type { DataOf, TopOf } from "../../../operations/answer.ts";
import type { vesselsGet } from "../../../operations/vessels.get.ts";
import { type Html, html } from "../../shared/html.ts";
import { ageOf, utc, visitorPositionsNote } from "./page-parts.ts";

export type VesselData = DataOf<typeof vesselsGet>;
type VesselTop = TopOf<typeof vesselsGet>;
type Designation = VesselData["sanctions"][number];
type Coverage = VesselData["sanctionsCoverage"][number];
type Indicator = VesselData["risk"]["indicators"][number];

const DAY_MS = 86_400_000;

/** The active designations the answer found: a ship with one is sanctioned, whatever else the page says. */
export function activeDesignations(d: VesselData): Designation[] {
  return d.sanctions.filter((s) => s.active);
}

/** "listed on 2023-04-12" or, where the list publishes no date, when this service first loaded the designation. */
function since(s: Designation): string {
  return s.listedAt ? `listed on ${s.listedAt}` : `listing date not published, first loaded here ${s.firstSeenAt.slice(0, 10)}`;
}

/** How old a list's as-of date is, in days, when it is more than a day. */
function ageWords(asOf: string, now: number): string {
  const days = Math.floor((now - Date.parse(asOf)) / DAY_MS);
  return days >= 2 ? ` (${days.toLocaleString("en-GB")} days old)` : "";
}

/** A list as checked, in words: its as-of date and age, and whether it is an extract or has not been updated lately. */
function coverageWords(c: Coverage, now: number): string {
  if (c.status === "missing" || !c.asOf) return `${c.listName}: not loaded, not checked`;
  const marks = [c.extract ? "an extract only, not the whole list" : "", c.stale ? "not updated lately" : ""].filter((m) => m);
  return `${c.listName} as of ${c.asOf}${ageWords(c.asOf, now)}${marks.length > 0 ? `: ${marks.join("; ")}` : ""}`;
}

function statusLine(d: VesselData, now: number): Html {
  const active = activeDesignations(d);
  const coverage = html`<ul class="coverage" id="status-lists">${d.sanctionsCoverage.map(
    (c) => html`<li data-list="${c.list}" data-status="${c.status}"${c.status === "current" ? "" : html` class="coverage-gap"`}>${coverageWords(c, now)}</li>`,
  )}</ul>`;
  if (active.length > 0) {
    const asOf = (s: Designation) => {
      const c = d.sanctionsCoverage.find((x) => x.list === s.family);
      return c?.asOf ? `; the list as of ${c.asOf}${ageWords(c.asOf, now)}${c.extract ? ", an extract" : ""}${c.stale ? ", not updated lately" : ""}` : "";
    };
    return html`<div class="status status-sanctioned" id="status"><p><strong>Sanctioned</strong>: ${active.map(
      (s, i) => html`${i > 0 ? "; " : ""}${s.listName} (record ${s.recordId}${s.program ? `, ${s.program}` : ""}), ${since(s)}${asOf(s)}`,
    )}.</p><details><summary>Lists checked</summary>${coverage}</details></div>`;
  }
  const checked = d.sanctionsCoverage.some((c) => c.status !== "missing");
  const said = checked ? "No designation on the lists checked" : "Not checked: no sanctions list is loaded";
  const partial = d.sanctionsCoverage.some((c) => c.status !== "current");
  return html`<div class="status status-none" id="status"><p><strong>${said}</strong>${checked && partial ? "; not every list is current and complete, so this is not a clearance" : ""}:</p>${coverage}</div>`;
}

/** Indicator ids in words, in the answer's order. */
const INDICATOR_WORDS: Record<Indicator["id"], string> = {
  sanctioned_now: "Sanctioned now",
  was_sanctioned: "Formerly sanctioned",
  encounters_with_sanctioned: "Encounters with sanctioned ships",
  ais_gaps: "AIS gaps",
  loitering: "Loitering",
  identity_changes: "Identity changes",
  identity_conflicts: "Identity conflicts",
  flag_mismatch: "MMSI of another flag than listed",
  port_calls_sanctioned_jurisdictions: "Port calls in sanctioned jurisdictions",
};

/** The risk indicators' withheld rows (`risk.<id>`) in words, for the page's Withheld section. */
export const RISK_SECTION_WORDS: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(INDICATOR_WORDS).map(([id, words]) => [`risk.${id}`, `Risk indicator: ${words}`]));

const NOT_JUDGED_WORDS: Record<NonNullable<Indicator["notJudged"]>["reason"], string> = {
  sources_withheld: "rests on sources you may not be shown",
  no_coverage: "no station whose data you may see heard the ship",
  lists_not_checked: "not every list was checked in full",
};

/** "AIS gaps, Loitering (no station ... heard the ship); Sanctioned now (not every list ...)": the indicators grouped by why. */
function notJudgedWords(unjudged: readonly Indicator[]): string {
  const byReason = new Map<string, string[]>();
  for (const i of unjudged) {
    const why = NOT_JUDGED_WORDS[i.notJudged!.reason];
    byReason.set(why, [...(byReason.get(why) ?? []), INDICATOR_WORDS[i.id]]);
  }
  return [...byReason].map(([why, ids]) => `${ids.join(", ")} (${why})`).join("; ");
}

/** Counted indicators as chips with their latest date; what could not be judged said once below them. */
function riskChips(risk: VesselData["risk"]): Html {
  const counted = risk.indicators.filter((i) => i.count > 0);
  const unjudged = risk.indicators.filter((i) => !i.judged && i.notJudged);
  const window = `${risk.window.from.slice(0, 10)} to ${risk.window.to.slice(0, 10)}`;
  return html`<div class="risk" id="risk"><p class="risk-head">Risk indicators <span class="hint">(dated building blocks, not a score; events over ${window})</span></p>
${counted.length === 0
  ? html`<p id="risk-none">None of the indicators counted anything you may be shown.</p>`
  : html`<ul class="chips" id="risk-chips">${counted.map(
      (i) => html`<li class="chip" data-indicator="${i.id}">${INDICATOR_WORDS[i.id]}: ${i.count}${i.latest ? html`, latest <time datetime="${i.latest}">${i.latest.slice(0, 10)}</time>` : ""}</li>`,
    )}</ul>`}
${unjudged.length > 0 ? html`<p class="hint" id="risk-not-judged">Not fully judged: ${notJudgedWords(unjudged)}.</p>` : ""}</div>`;
}

/** The flag and type a source gives, with the source named: a list's flag is what the list says. */
function flagAndType(d: VesselData): { flag: Html | string | null; type: string | null } {
  const p = d.particulars;
  const listed = p?.listed.find((l) => l.flag !== null) ?? null;
  const flag = listed
    ? html`${listed.flagIso2 ? html`<a href="${flagPagePath(listed.flagIso2)}">${listed.flag}</a>` : listed.flag} <span class="hint-inline">(as ${listed.source} lists it)</span>`
    : null;
  const listedType = p?.listed.find((l) => l.vesselType !== null) ?? null;
  const type = p?.shipType ?? (listedType ? `${listedType.vesselType} (as ${listedType.source} lists it)` : p?.aisShipType != null ? `AIS ship type ${p.aisShipType}` : null);
  return { flag, type };
}

function lastPositionLine(d: VesselData, now: number, withheld: ReadonlySet<string>, anonymous: boolean): Html {
  const lp = d.lastPosition;
  if (lp) return html`<p id="last-position">Last heard <strong>${ageOf(lp.time, now)}</strong> (${utc(lp.time)}) at ${lp.lat.toFixed(4)}, ${lp.lon.toFixed(4)}, ${lp.navStatus.replace(/_/g, " ")}; <a href="#track-h">track and events</a>.</p>`;
  return html`<p id="last-position">${withheld.has("lastPosition") ? "The last position is withheld (see below)." : "No position heard by stations whose data you may see."}${anonymous && !withheld.has("lastPosition") ? html` ${visitorPositionsNote()}` : ""}</p>`;
}

/** "T2EU4 (as ofac lists it)" when only a list gives the call sign. */
function callSign(d: VesselData): string | null {
  const i = d.identity;
  if (!i) return null;
  if (i.callsign) return i.callsign;
  const given = [...new Set(i.listed.filter((l) => l.callSign !== null).map((l) => `${l.callSign} (as ${l.source} lists it)`))];
  return given.length > 0 ? given.join("; ") : null;
}

export function dossierHeader(top: VesselTop, d: VesselData, now: number, withheld: ReadonlySet<string>, anonymous: boolean): Html {
  const { flag, type } = flagAndType(d);
  const row = (label: string, value: Html | string | null) => html`<div><dt>${label}</dt><dd>${value ?? "not known"}</dd></div>`;
  return html`<section class="dossier" aria-label="At a glance">
<dl class="dossier-facts" id="dossier-facts">${row("Name", top.name)}${row("IMO number", top.imo === null ? null : String(top.imo))}${row("MMSI", top.mmsi === null ? null : String(top.mmsi).padStart(9, "0"))}${row("Call sign", callSign(d))}${row("Flag", flag)}${row("Type", type)}</dl>
${statusLine(d, now)}
${riskChips(d.risk)}
${lastPositionLine(d, now, withheld, anonymous)}
</section>`;
}
