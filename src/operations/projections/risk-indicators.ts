/**
 * The vessel answer's risk indicators (docs/vessel-events.md#risk-indicators): dated building
 * blocks, not a score. Each counts what the caller may be shown, over the plan's history
 * window, and says what it could not judge: facts of a source the caller may not be shown
 * (`sources_withheld`), no station the caller may be shown heard the ship in the window
 * (`no_coverage`), a sanctions list never loaded, held only as an extract, or withheld
 * (`lists_not_checked`). Rights are asked of `ctx.rights` before counting, as the events
 * summary does; what was left out is declared in `withheld` per indicator, and each
 * indicator is a sourced part of the answer, so the envelope names the sources it rests on.
 */
import { z } from "zod";
import jurisdictionsFile from "../../../config/sanctioned-jurisdictions.json" with { type: "json" };
import { formatVesselId, isValidImo, type VesselId } from "../../domain/identifiers.ts";
import { sourced } from "../../domain/rights/sourced.ts";
import { checkedInFull, type ListCoverage, listsChecked, screeningCertainty } from "../../domain/sanctions/coverage.ts";
import { designationList, SANCTIONS_LISTS, type SanctionsListKey } from "../../domain/sanctions/designation.ts";
import { jurisdictionCodes, jurisdictionOfCall, parseJurisdictions } from "../../domain/sanctions/jurisdictions.ts";
import { mmsiLinkSource } from "../../domain/vessels/mmsi-link.ts";
import type { PositionFix, VesselIdentity } from "../../interfaces/positions.ts";
import type { ListedVesselFacts, SanctionsListState } from "../../interfaces/sanctions.ts";
import { midOf } from "../../domain/identifiers.ts";
import type { VisibleStations } from "../../interfaces/vessels.ts";
import type { OperationContext } from "../operation.ts";
import { findDesignations, type Match } from "./designation-match.ts";
import { historyWindow } from "./vessel-events.ts";

/** The comprehensively sanctioned jurisdictions the port-call indicator judges by, with their basis. */
export const SANCTIONED_JURISDICTIONS = parseJurisdictions(jurisdictionsFile);

export const RISK_INDICATOR_IDS = [
  "sanctioned_now",
  "was_sanctioned",
  "encounters_with_sanctioned",
  "ais_gaps",
  "loitering",
  "identity_changes",
  "identity_conflicts",
  "flag_mismatch",
  "port_calls_sanctioned_jurisdictions",
] as const;
export type RiskIndicatorId = (typeof RISK_INDICATOR_IDS)[number];

export const NOT_JUDGED_REASONS = ["sources_withheld", "no_coverage", "lists_not_checked"] as const;
type NotJudged = { reason: (typeof NOT_JUDGED_REASONS)[number]; sources: string[] };

const ListsCheckedSchema = z.object({ full: z.array(z.string()), extract: z.array(z.string()), notChecked: z.array(z.string()) });

export const RiskIndicatorSchema = z.object({
  id: z.enum(RISK_INDICATOR_IDS),
  /** Designations (sanctioned_now, was_sanctioned), events or port calls counted. */
  count: z.number().int(),
  /** The newest date among what was counted: a listing, a delisting, an event's or a call's start; null when nothing was. */
  latest: z.string().nullable(),
  /** The sources of what was counted. */
  sources: z.array(z.string()),
  /** False when something the indicator rests on could not be judged for you: then `count` is what could, and `notJudged` says what not. */
  judged: z.boolean(),
  notJudged: z.object({ reason: z.enum(NOT_JUDGED_REASONS), sources: z.array(z.string()) }).optional(),
  /** The lists of the designations counted (sanctioned_now, was_sanctioned), as `data.sanctions` names them. */
  lists: z.array(z.string()).optional(),
  /** Screening's certainty for the ship (sanctioned_now): match, clear, or incomplete. */
  certainty: z.enum(["match", "clear", "incomplete"]).optional(),
  /** How each list was checked for you, as screening gives it (the indicators that rest on the lists). */
  listsChecked: ListsCheckedSchema.optional(),
  /** The jurisdictions the counted calls were in (port_calls_sanctioned_jurisdictions), ids of config/sanctioned-jurisdictions.json. */
  jurisdictions: z.array(z.string()).optional(),
  /** Each MMSI heard whose MID stands for other countries than the flag an active designation gives (flag_mismatch). */
  mismatches: z
    .array(z.object({ mmsi: z.number().int(), midCountries: z.array(z.string()), list: z.string(), listedFlag: z.string(), heard: z.string(), source: z.string() }))
    .optional(),
});

export const VesselRiskSchema = z.object({
  /** The plan's history window the event and port-call indicators count over (the sanctions indicators are as of the lists' versions). */
  window: z.object({ from: z.string(), to: z.string() }),
  indicators: z.array(RiskIndicatorSchema),
});

type Indicator = z.infer<typeof RiskIndicatorSchema>;

export interface RiskInput {
  mmsis: readonly number[];
  visible: VisibleStations;
  /** The ship's designations as the answer's `sanctions` has them (screening's match). */
  designations: readonly Match[];
  states: readonly SanctionsListState[];
  coverage: readonly ListCoverage[];
  /** The ship's newest fix per visible station, and its identities as visible stations heard them: who heard it when. */
  fixes: readonly PositionFix[];
  identities: readonly VesselIdentity[];
  /** What the designations' records say of the ship (flag among it), as the answer's `identity.listed` has it. */
  listedFacts: readonly ListedVesselFacts[];
}

const iso = (t: number) => new Date(t).toISOString();
const station = (id: number) => `station:${id}`;
const maxOf = (values: readonly string[]) => (values.length === 0 ? null : values.reduce((a, b) => (b > a ? b : a)));
const familyOrder = (lists: Iterable<SanctionsListKey>) => SANCTIONS_LISTS.filter((l) => [...lists].includes(l));

export async function riskIndicators(ctx: OperationContext, input: RiskInput) {
  const window = historyWindow(ctx);
  const allowed = (stationId: number) => ctx.rights.may([station(stationId)]);
  const { countries, codes } = jurisdictionCodes(SANCTIONED_JURISDICTIONS);
  const facts = await ctx.services.derived.vesselRiskFacts(input.mmsis, { visible: input.visible, ...window, callCountries: countries, callCodes: codes });

  // Which stations heard the ship in the window: without one the caller may be shown, a zero says nothing.
  const heard = new Set<number>();
  for (const f of input.fixes) if (f.time >= window.from) heard.add(f.stationId);
  for (const i of input.identities) if (i.updatedAt >= window.from) heard.add(i.stationId);
  for (const e of facts.events) heard.add(e.stationId);
  const heardShown = [...heard].filter(allowed);
  const heardHidden = [...heard].filter((s) => !allowed(s)).sort((a, b) => a - b);
  const coverageGap: NotJudged | undefined =
    heardShown.length > 0 ? undefined : heardHidden.length > 0 ? { reason: "sources_withheld", sources: heardHidden.map(station) } : { reason: "no_coverage", sources: [] };

  /** An indicator counted from per-station rows: the shown ones counted, the others withheld and named. */
  const fromStations = (id: RiskIndicatorId, rows: readonly { stationId: number; count: number; latest: number }[], extra: Partial<Indicator> = {}): Indicator => {
    let count = 0;
    let latest: number | null = null;
    const shown = new Set<number>();
    const hidden = new Map<number, number>();
    for (const r of rows) {
      if (allowed(r.stationId)) {
        count += r.count;
        latest = latest === null ? r.latest : Math.max(latest, r.latest);
        shown.add(r.stationId);
      } else hidden.set(r.stationId, (hidden.get(r.stationId) ?? 0) + r.count);
    }
    for (const [s, n] of hidden) ctx.rights.withholdRows(`risk.${id}`, [station(s)], n);
    const hiddenSources = [...hidden.keys()].sort((a, b) => a - b).map(station);
    const notJudged: NotJudged | undefined = hiddenSources.length > 0 ? { reason: "sources_withheld", sources: hiddenSources } : coverageGap;
    return indicator(id, count, latest === null ? null : iso(latest), [...shown].sort((a, b) => a - b).map(station), notJudged, extra);
  };
  const ofType = (type: string) => facts.events.filter((e) => e.type === type);

  // The lists as screening checks them for this caller: a list it may not be shown is not checked.
  const checked = listsChecked(input.coverage, (list) => ctx.rights.may([list]));
  const seen = new Set<string>([...checked.full, ...checked.extract]);
  const listsGap: NotJudged | undefined = checkedInFull(checked) ? undefined : { reason: "lists_not_checked", sources: [...checked.extract, ...checked.notChecked] };

  const active = input.designations.filter((m) => m.hit.active && seen.has(m.hit.list));
  const activeLists = new Set(active.map((m) => designationList(m.hit).list));
  const sanctionedNow = indicator(
    "sanctioned_now",
    new Set(active.map((m) => m.hit.id)).size,
    maxOf(active.map((m) => m.hit.listedAt ?? m.hit.firstSeen)),
    familyOrder(active.map((m) => m.hit.list)),
    listsGap,
    { lists: [...activeLists].sort(), certainty: screeningCertainty(active.length > 0, checked), listsChecked: checked },
  );
  // Delisted from a list that no longer designates the ship at all (a record replaced on the same list is not "was").
  const past = input.designations.filter((m) => !m.hit.active && seen.has(m.hit.list) && !activeLists.has(designationList(m.hit).list));
  const wasSanctioned = indicator(
    "was_sanctioned",
    new Set(past.map((m) => m.hit.id)).size,
    maxOf(past.flatMap((m) => (m.hit.delistedAt ? [m.hit.delistedAt] : []))),
    familyOrder(past.map((m) => m.hit.list)),
    listsGap,
    { lists: [...new Set(past.map((m) => designationList(m.hit).list))].sort(), listsChecked: checked },
  );

  const encounters = await encountersWithSanctioned(ctx, input, facts.encounters, allowed, seen, coverageGap, listsGap, checked);

  const calls = facts.calls.flatMap((c) => {
    const j = jurisdictionOfCall(SANCTIONED_JURISDICTIONS, c.unlocode, c.arrival);
    return j ? [{ stationId: c.stationId, count: 1, latest: c.arrival, jurisdiction: j.id }] : [];
  });
  const portCalls = fromStations("port_calls_sanctioned_jurisdictions", calls, {
    jurisdictions: [...new Set(calls.filter((c) => allowed(c.stationId)).map((c) => c.jurisdiction))].sort(),
  });

  const indicators = [
    sanctionedNow,
    wasSanctioned,
    encounters,
    fromStations("ais_gaps", ofType("ais_gap")),
    fromStations("loitering", ofType("loitering")),
    fromStations("identity_changes", ofType("identity_change")),
    fromStations("identity_conflicts", ofType("identity_conflict")),
    await flagMismatch(ctx, input, allowed, seen, coverageGap ?? listsGap),
    portCalls,
  ];
  return {
    window: { from: iso(window.from), to: iso(ctx.now) },
    // Each indicator rests on the sources of what it counted (all cleared above): they join the answer's sources and attribution.
    indicators: indicators.map((i) => sourced("risk", i.sources, i, { whenWithheld: "omit", leaf: true })),
  };
}

function indicator(id: RiskIndicatorId, count: number, latest: string | null, sources: string[], notJudged: NotJudged | undefined, extra: Partial<Indicator> = {}): Indicator {
  return { id, count, latest, sources, judged: notJudged === undefined, ...(notJudged ? { notJudged } : {}), ...extra };
}

/**
 * Encounters whose counterpart is sanctioned now: an active designation on a list the caller
 * may be shown, matched (by screening's rule) on the counterpart's MMSI, on the IMO the
 * event's station heard it broadcast, or on the IMO the registry links the MMSI to (when the
 * caller may be shown that link). Three reads whatever the number of counterparts.
 */
async function encountersWithSanctioned(
  ctx: OperationContext,
  input: RiskInput,
  rows: readonly { stationId: number; counterpartMmsi: number; count: number; latest: number }[],
  allowed: (stationId: number) => boolean,
  seen: ReadonlySet<string>,
  coverageGap: NotJudged | undefined,
  listsGap: NotJudged | undefined,
  checked: ReturnType<typeof listsChecked>,
): Promise<Indicator> {
  const shownRows = rows.filter((r) => allowed(r.stationId));
  const hiddenRows = rows.filter((r) => !allowed(r.stationId));
  const hidden = new Map<number, number>();
  for (const r of hiddenRows) hidden.set(r.stationId, (hidden.get(r.stationId) ?? 0) + r.count);
  for (const [s, n] of hidden) ctx.rights.withholdRows("risk.encounters_with_sanctioned", [station(s)], n);

  const counterparts = [...new Set(shownRows.map((r) => r.counterpartMmsi))];
  const shownStations = [...new Set(shownRows.map((r) => r.stationId))];
  const [heard, registry] =
    counterparts.length === 0 ? [[], []] : await Promise.all([ctx.services.positions.identities(shownStations, counterparts), ctx.services.vessels.mmsiImos(counterparts, input.visible)]);
  const heardImo = new Map<string, number>();
  for (const i of heard) if (i.imo !== null && isValidImo(i.imo)) heardImo.set(`${i.stationId}:${i.mmsi}`, i.imo);
  // The ship that used the MMSI last (mmsiImos sorts it first), with the source its link is judged by.
  const linked = new Map<number, { imo: number; source: string[] }>();
  for (const u of registry) if (!linked.has(u.mmsi)) linked.set(u.mmsi, { imo: u.imo, source: mmsiLinkSource(u.sources) });

  const ids = new Map<string, VesselId>();
  for (const m of counterparts) ids.set(`mmsi-${m}`, { kind: "mmsi", mmsi: m });
  for (const imo of [...heardImo.values(), ...[...linked.values()].map((l) => l.imo)]) ids.set(String(imo), { kind: "imo", imo });
  const found = ids.size === 0 ? new Map<string, Match[]>() : await findDesignations(ctx.services.sanctions, [...ids.values()], SANCTIONS_LISTS, input.states);
  const activeOn = (id: VesselId) => (found.get(formatVesselId(id)) ?? []).filter((m) => m.hit.active && seen.has(m.hit.list)).map((m) => m.hit.list);

  let count = 0;
  let latest: number | null = null;
  const sources = new Set<string>();
  const lists = new Set<SanctionsListKey>();
  const hiddenLinks = new Set<string>();
  let unmatched = false;
  for (const r of shownRows) {
    const matchedLists = [...activeOn({ kind: "mmsi", mmsi: r.counterpartMmsi })];
    const imo = heardImo.get(`${r.stationId}:${r.counterpartMmsi}`);
    if (imo !== undefined) matchedLists.push(...activeOn({ kind: "imo", imo }));
    const link = linked.get(r.counterpartMmsi);
    const rest: string[] = [];
    if (link && link.imo !== imo) {
      const onLink = activeOn({ kind: "imo", imo: link.imo });
      if (ctx.rights.may(link.source)) {
        if (matchedLists.length === 0 && onLink.length > 0) rest.push(...link.source);
        if (matchedLists.length === 0) matchedLists.push(...onLink);
      } else if (matchedLists.length === 0) for (const s of link.source) hiddenLinks.add(s);
    }
    if (matchedLists.length === 0) {
      unmatched = true;
      continue;
    }
    count += r.count;
    latest = latest === null ? r.latest : Math.max(latest, r.latest);
    sources.add(station(r.stationId));
    for (const s of rest) sources.add(s);
    for (const l of matchedLists) lists.add(l);
  }
  const hiddenSources = [...hidden.keys()].sort((a, b) => a - b).map(station);
  const notJudged: NotJudged | undefined =
    hiddenSources.length > 0
      ? { reason: "sources_withheld", sources: hiddenSources }
      : (coverageGap ?? (unmatched ? (listsGap ?? (hiddenLinks.size > 0 ? { reason: "sources_withheld", sources: [...hiddenLinks].sort() } : undefined)) : undefined));
  const stations = [...sources].filter((s) => s.startsWith("station:")).sort();
  const others = [...sources].filter((s) => !s.startsWith("station:")).sort();
  return indicator("encounters_with_sanctioned", count, latest === null ? null : iso(latest), [...stations, ...familyOrder(lists), ...others], notJudged, { listsChecked: checked });
}

/**
 * The MMSI the ship broadcasts says one flag (its MID), an active designation another: the
 * flag hopping OFAC's and the UK's shipping advisories name. Each MMSI a station the caller
 * may be shown heard is read against each active designation on a list the caller may be
 * shown whose record gives a flag; the MID's countries come from the ITU allocations
 * (`itu_mid`), so a MID shared by a country and its territories is no mismatch.
 */
async function flagMismatch(
  ctx: OperationContext,
  input: RiskInput,
  allowed: (stationId: number) => boolean,
  seen: ReadonlySet<string>,
  gap: NotJudged | undefined,
): Promise<Indicator> {
  if (!ctx.rights.may(["itu_mid"])) return indicator("flag_mismatch", 0, null, [], { reason: "sources_withheld", sources: ["itu_mid"] });
  // Each MMSI heard, when each station last heard it.
  const heard = new Map<string, { mmsi: number; stationId: number; time: number }>();
  const hear = (mmsi: number, stationId: number, time: number) => {
    const key = `${stationId}:${mmsi}`;
    if (allowed(stationId) && (heard.get(key)?.time ?? -1) < time) heard.set(key, { mmsi, stationId, time });
  };
  for (const f of input.fixes) hear(f.mmsi, f.stationId, f.time);
  for (const i of input.identities) hear(i.mmsi, i.stationId, i.updatedAt);
  const listed = input.listedFacts.filter((f) => f.active && seen.has(f.list) && f.record.flagIso2 !== null);
  const mismatches: NonNullable<Indicator["mismatches"]> = [];
  const stations = new Set<number>();
  const lists = new Set<SanctionsListKey>();
  let latest: number | null = null;
  for (const h of heard.values()) {
    const countries = await ctx.services.flags.countriesOfMid(midOf(h.mmsi));
    if (countries.length === 0) continue;
    for (const f of listed) {
      const flag = f.record.flagIso2!.toUpperCase();
      if (countries.includes(flag)) continue;
      mismatches.push({ mmsi: h.mmsi, midCountries: countries, list: designationList(f).list, listedFlag: flag, heard: iso(h.time), source: station(h.stationId) });
      stations.add(h.stationId);
      lists.add(f.list);
      latest = latest === null ? h.time : Math.max(latest, h.time);
    }
  }
  const sources = [...[...stations].sort((a, b) => a - b).map(station), ...familyOrder(lists), ...(mismatches.length > 0 ? ["itu_mid"] : [])];
  return indicator("flag_mismatch", mismatches.length, latest === null ? null : iso(latest), sources, gap, { mismatches });
}
