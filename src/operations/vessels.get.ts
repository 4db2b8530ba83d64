import { z } from "zod";
import { parseEntityId, slugOf } from "../domain/companies/entity-id.ts";
import { parseVesselId, type VesselId } from "../domain/identifiers.ts";
import { companyPagePath } from "../domain/pages/page-paths.ts";
import { sourced } from "../domain/rights/sourced.ts";
import { navStatusName } from "../domain/tracks/window.ts";
import { mmsiLinkSource } from "../domain/vessels/mmsi-link.ts";
import type { PositionFix, VesselIdentity } from "../interfaces/positions.ts";
import type { VesselNameLink, VesselRecord } from "../interfaces/vessels.ts";
import { defineOperation } from "./operation.ts";
import { vesselIdParam } from "./params.ts";
import { listCoverage } from "../domain/sanctions/coverage.ts";
import { DESIGNATION_FOUND_FIELDS, designationsOf, ListCoverageSchema, vesselPageDesignation } from "./projections/designation-match.ts";
import { POSITION_VIEW_FIELDS } from "./projections/position-view.ts";
import { groupNames, vesselPageUrl } from "./projections/vessel-names.ts";
import { isSanctionsListKey, type SanctionsListKey } from "../domain/sanctions/designation.ts";
import { SanctionedListsSchema, sanctionedCompany } from "./projections/sanctioned-now.ts";
import type { ListedVesselFacts } from "../interfaces/sanctions.ts";
import {
  ListedIdentitySchema,
  ListedParticularsSchema,
  listedIdentity,
  listedParticulars,
  MmsiRowSchema,
  mmsiRowOut,
  mmsisWithListings,
  nameRowOut,
  NameRowSchema,
  namesWithListings,
} from "./projections/listed-facts.ts";
import { eventSummary, VesselEventsSummarySchema } from "./projections/vessel-events.ts";
import { riskIndicators, VesselRiskSchema } from "./projections/risk-indicators.ts";
import { describes, mmsiOnly, notFound, resolveVessel, visibleStations } from "./projections/visible-vessel.ts";

const iso = (t: number) => new Date(t).toISOString();
/** Six decimals (~0.1 m) keep AIS precision and drop binary noise. */
const round = (v: number | null, digits: number) => (v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits);

const VesselPageSchema = z.object({
  identity: z
    .object({
      imo: z.number().int().nullable(),
      mmsi: z.number().int().nullable(),
      name: z.string().nullable(),
      callsign: z.string().nullable(),
      /** The MMSIs the ship used: sighting dates from the registry and stations, and the lists that give each one, dated by their listing. */
      mmsiHistory: z.array(MmsiRowSchema),
      /** What each sanctions-list record of the ship gives as its identity (listed name, call sign), each a fact of its list. */
      listed: z.array(ListedIdentitySchema),
    })
    .nullable(),
  otherNames: z.array(NameRowSchema),
  particulars: z
    .object({
      shipType: z.string().nullable(),
      aisShipType: z.number().int().nullable(),
      lengthM: z.number().nullable(),
      beamM: z.number().nullable(),
      draughtM: z.number().nullable(),
      grossTons: z.number().nullable(),
      deadweightTons: z.number().nullable(),
      yearBuilt: z.number().int().nullable(),
      portOfRegistry: z.string().nullable(),
      sources: z.array(z.string()),
      /** What each sanctions-list record of the ship gives: type, flag, tonnage, build year; each a fact of its list. */
      listed: z.array(ListedParticularsSchema),
    })
    .nullable(),
  lastPosition: z
    .object({
      ...POSITION_VIEW_FIELDS,
      navStatus: z.string(),
      source: z.string(),
      /** The name of the source entry that governs it (a public feed's, or receiving stations'). */
      sourceName: z.string().nullable(),
      /** Seconds between the fix and the answer: how old the position is. */
      ageSeconds: z.number().int(),
    })
    .nullable(),
  portCalls: z.array(z.object({ unlocode: z.string(), arrival: z.string(), departure: z.string().nullable(), source: z.string() })),
  /** Behaviour events and port calls over the plan's history window: how many, and the latest (GET .../events has them all). */
  events: VesselEventsSummarySchema,
  /**
   * Risk indicators: dated building blocks, not a score. Each counts what you may be shown over
   * the plan's history window and says what it could not judge (docs/vessel-events.md#risk-indicators).
   */
  risk: VesselRiskSchema,
  inspections: z.array(z.object({ date: z.string(), type: z.string(), port: z.string(), authority: z.string(), origin: z.string(), sources: z.array(z.string()) })),
  emissions: z.array(z.object({ year: z.number().int(), co2T: z.number().nullable(), fuelT: z.number().nullable(), timeAtSeaH: z.number().nullable() })).nullable(),
  sanctions: z.array(
    z.object({
      ...DESIGNATION_FOUND_FIELDS,
      active: z.boolean(),
      matchedOn: z.enum(["imo", "mmsi"]),
      sourceUrl: z.string(),
    }),
  ),
  /** Which lists `sanctions` was read from, as of when; a list never loaded is `missing`, so an empty `sanctions` is not a clearance. */
  sanctionsCoverage: z.array(ListCoverageSchema),
  companies: z.array(
    z.object({
      role: z.string(),
      name: z.string(),
      sources: z.array(z.string()),
      entityId: z.string(),
      evidence: z.string(),
      api: z.string(),
      page: z.string(),
      /** The lists that designate the company itself (its own status; its page has the details). */
      sanctioned: SanctionedListsSchema,
    }),
  ),
});

/** The page shows the latest calls of the last 90 days. */
const RECENT_CALLS = 10;
const RECENT_CALLS_MS = 90 * 86_400_000;

export const vesselsGet = defineOperation({
  id: "vessels.get",
  method: "GET",
  path: "/api/v1/vessels/{id}",
  tool: "get_vessel",
  summary: "A vessel's page",
  description:
    "The page of one ship, by checksum-valid IMO number or `mmsi-` + 9-digit MMSI: identity with the MMSIs it used, other names, particulars " +
    "(with what each sanctions list's record gives: names, former names, MMSIs, call sign, type and flag, each a fact of its list under `listed`, dated by the listing, never as a sighting), " +
    "the last position your own (or shared) stations heard, behaviour events over your plan's history (`events`: count and the latest 5), " +
    "risk indicators (`risk`: sanctioned now, was sanctioned, encounters with sanctioned ships, AIS gaps, loitering, identity changes and conflicts, port calls in comprehensively sanctioned jurisdictions; each with a count, the latest date, its sources, and what could not be judged for you), EU MRV emissions per year, sanctions designations (the same as screening gives) and companies (each with `sanctioned`: the lists that designate the company itself). " +
    "Each section carries its sources and is withheld when a source does not permit API use. 1 credit (free without a key).",
  auth: "optional",
  input: z.strictObject({ id: vesselIdParam }),
  output: {
    top: { imo: z.number().int().nullable(), mmsi: z.number().int().nullable(), name: z.string().nullable(), page: z.string(), api: z.string(), generatedAt: z.string() },
    data: VesselPageSchema,
  },
  responseType: "vessel",
  apiVersion: "preview",
  cost: 1,
  async run(ctx, input) {
    const visible = await visibleStations(ctx);
    const resolved = await resolveVessel(ctx, input.id, visible);
    if (!resolved) throw notFound(input.id);
    // Asked by MMSI, the ship the MMSI is linked to (its IMO, and all the registry keys by it:
    // names, particulars, emissions, designations, the page's own URL) is a fact of the link's
    // sources. When the caller may not be shown the link, the answer is about the MMSI alone,
    // and the IMO is listed as withheld.
    const hiddenLink = input.id.kind === "mmsi" && resolved.record?.imo != null ? mmsiLinkSources(resolved.record, input.id.mmsi) : [];
    const linkHidden = hiddenLink.length > 0 && !ctx.rights.may(hiddenLink);
    const v = linkHidden && input.id.kind === "mmsi" ? mmsiOnly(input.id.mmsi) : resolved;
    const record = v.record;
    const [heard, allFixes] = await Promise.all([ctx.services.positions.identities(visible, v.mmsis), ctx.services.vessels.latestFixes(v.mmsis, visible)]);
    // A former MMSI now used by another ship: its broadcasts and fixes since are the other ship's.
    const identities = heard.filter((i) => describes(v, i));
    const fixes = allFixes.filter((f) => f.time <= (v.until.get(f.mmsi) ?? Number.POSITIVE_INFINITY));

    // What visible stations broadcast now joins the registry's history (linked as each report is stored).
    const live = newestIdentity(identities, v.mmsis[0]);
    // What a station broadcast is that station's fact; behind a hidden link it is the hidden IMO.
    const liveImo = !linkHidden && v.record === null && live?.imo ? live.imo : null;
    const imo = v.imo ?? liveImo;
    const mmsi = v.mmsis[0] ?? null;
    // The same designations screening gives for the ship's id: by IMO when known (and the caller
    // may see it: designations by an IMO only a denied station broadcast would name it), else by its MMSI.
    const imoShown = imo !== null && (input.id.kind === "imo" || record !== null || ctx.rights.may([`station:${live!.stationId}`]));
    const sanctionsId: VesselId | null = imoShown && imo !== null ? { kind: "imo", imo } : mmsi !== null ? { kind: "mmsi", mmsi } : null;
    const sanctionStates = await ctx.services.sanctions.listStates();
    const designations = sanctionsId ? await designationsOf(ctx.services.sanctions, sanctionsId, sanctionStates) : [];
    // What those designations' records say of the ship (names, MMSIs, call sign, flag, type), in their order.
    const order = [...new Set(designations.map((d) => d.hit.id))];
    const facts: ListedVesselFacts[] = (await ctx.services.sanctions.listedFacts(order)).sort((a, b) => order.indexOf(a.designationId) - order.indexOf(b.designationId));

    // Names sighted (registry datasets, stations) keep their dates; the lists' names join them
    // from the designations, dated by the listing (the registry's links of a list serve search).
    const names: VesselNameLink[] = (record?.names ?? []).filter((n) => !isSanctionsListKey(n.source));
    for (const i of identities) {
      if (i.name) names.push({ name: i.name, source: `station:${i.stationId}`, stationId: i.stationId, firstSeen: i.updatedAt, lastSeen: i.updatedAt });
    }
    const nameRows = namesWithListings(groupNames(names), facts);
    const current = nameRows[0] ?? null;
    const callsign = live?.callsign
      ? { value: live.callsign, sources: [`station:${live.stationId}`] }
      : newestCallsign(record);

    const mmsiHistory = new Map<number, { firstSeen: number; lastSeen: number; sources: Set<string> }>();
    for (const l of record?.identifiers ?? []) {
      if (l.kind !== "mmsi" || isSanctionsListKey(l.source)) continue;
      const m = Number(l.value);
      const h = mmsiHistory.get(m) ?? { firstSeen: l.firstSeen, lastSeen: l.lastSeen, sources: new Set<string>() };
      h.firstSeen = Math.min(h.firstSeen, l.firstSeen);
      h.lastSeen = Math.max(h.lastSeen, l.lastSeen);
      h.sources.add(l.source);
      mmsiHistory.set(m, h);
    }

    // An IMO-to-MMSI link is a fact of the sources that made it: the MMSI of a ship asked
    // by IMO (and the IMO of a ship asked by MMSI) goes out only when one of them is cleared.
    const mmsiOut = mmsi === null ? null : input.id.kind === "mmsi" && input.id.mmsi === mmsi ? mmsi : sourced("identity", mmsiLinkSources(record, mmsi), mmsi, { whenWithheld: "null", leaf: true });
    const imoOut = linkHidden
      ? sourced("identity", hiddenLink, resolved.imo, { whenWithheld: "null", leaf: true })
      : imo === null || input.id.kind === "imo"
        ? imo
        : record === null
          ? sourced("identity", [`station:${live!.stationId}`], imo, { whenWithheld: "null", leaf: true })
          : sourced("identity", mmsiLinkSources(record, input.id.mmsi), imo, { whenWithheld: "null", leaf: true });
    const identitySources = [...new Set([...(current?.sources ?? []), ...(callsign?.sources ?? [])])].sort();
    const fix = fixes[0];
    const recentCalls = (await ctx.services.derived.vesselCalls(v.mmsis, { visible, from: ctx.now - RECENT_CALLS_MS, to: ctx.now + 1, after: null, limit: 500 })).slice(-RECENT_CALLS);
    const events = await eventSummary(ctx, v.mmsis, visible);
    const sanctionsCoverage = sanctionStates.map((s) => listCoverage(s, ctx.now, ctx.services.sanctions.staleAfterDays));
    const risk = await riskIndicators(ctx, { mmsis: v.mmsis, visible, designations, states: sanctionStates, coverage: sanctionsCoverage, fixes, identities, listedFacts: facts });
    // A ship with an IMO number is tied to companies by it; an MMSI alone (reused over the years) only for a ship without one.
    const inspections = imo === null ? [] : await ctx.services.inspections.forVessel(imo);
    const companies = await ctx.services.companies.forVessel(imo, imo === null && mmsi !== null ? [mmsi] : []);
    // Each company's own status: the records its id resolves to (a list's entity record designates it).
    const companyLists = new Map<string, SanctionsListKey[]>();
    for (const id of new Set(companies.map((c) => c.entityId))) {
      const ref = parseEntityId(id);
      companyLists.set(id, ref ? sanctionedCompany(ctx, await ctx.services.companies.resolve(ref)) : []);
    }

    return {
      top: {
        imo: imoOut,
        mmsi: mmsiOut,
        name: current ? sourced("identity", current.sources, current.name, { whenWithheld: "null", leaf: true }) : null,
        page: vesselPageUrl(ctx, parseVesselId(v.canonicalId)!, current),
        api: `${ctx.baseUrl}/api/v1/vessels/${v.canonicalId}`,
        generatedAt: iso(ctx.now),
      },
      data: {
        // On a page a withheld section stays as a null key, so clients see that it exists.
        identity: sourced(
          "identity",
          identitySources,
          {
            imo: imoOut,
            mmsi: mmsiOut,
            name: current?.name ?? null,
            callsign: callsign?.value ?? null,
            mmsiHistory: mmsisWithListings(
              [...mmsiHistory.entries()].sort((a, b) => b[1].lastSeen - a[1].lastSeen).map(([m, h]) => ({ mmsi: m, firstSeen: h.firstSeen, lastSeen: h.lastSeen, sources: [...h.sources].sort() })),
              facts,
            ).map(mmsiRowOut),
            listed: listedIdentity(facts),
          },
          { whenWithheld: "null" },
        ),
        otherNames: nameRows.slice(1).map((r) => nameRowOut("otherNames", r)),
        particulars: particularsOf(record, live, facts),
        lastPosition: fix ? lastPositionOf(fix, ctx.now, ctx.services.sources.get(`station:${fix.stationId}`)?.name ?? null) : null,
        // The latest calls derived from visible stations (GET .../port-calls has them all, with confidence).
        portCalls: recentCalls.map((c) =>
          sourced("portCalls", [`station:${c.stationId}`], { unlocode: c.unlocode, arrival: iso(c.arrival), departure: c.departure === null ? null : iso(c.departure), source: `station:${c.stationId}` }, { countRows: true, leaf: true }),
        ),
        events,
        risk,
        // Only what an operator imported (`mds import inspections`): none ship with the service.
        inspections: inspections.map((i) =>
          sourced("inspections", [i.source], { date: i.date, type: i.type, port: i.port, authority: i.authority, origin: i.origin, sources: [i.source] }, { countRows: true, leaf: true }),
        ),
        emissions:
          record && record.emissions.length > 0
            ? sourced(
                "emissions",
                ["emsa_mrv"],
                record.emissions.map((e) => ({ year: e.year, co2T: e.co2T, fuelT: e.fuelT, timeAtSeaH: e.timeAtSeaH })),
                { whenWithheld: "null", leaf: true },
              )
            : [],
        sanctions: designations.map(vesselPageDesignation),
        sanctionsCoverage,
        companies: companies.map((c) =>
          sourced(
            "companies",
            [...new Set([c.source, ...(companyLists.get(c.entityId) ?? [])])],
            {
              role: c.link.role,
              name: c.name,
              sources: [c.source],
              entityId: c.entityId,
              evidence: c.link.evidence,
              api: `${ctx.baseUrl}/api/v1/companies/${c.entityId}`,
              page: `${ctx.baseUrl}${companyPagePath(c.entityId, slugOf(c.name))}`,
              sanctioned: companyLists.get(c.entityId) ?? [],
            },
            { countRows: true, leaf: true },
          ),
        ),
      },
    };
  },
});

/** The source the link of this MMSI to the ship is judged by (mmsiLinkSource), from the record's links in the order it holds them. */
function mmsiLinkSources(record: VesselRecord | null, mmsi: number): string[] {
  return mmsiLinkSource((record?.identifiers ?? []).filter((l) => l.kind === "mmsi" && Number(l.value) === mmsi).map((l) => l.source));
}

function newestIdentity(identities: readonly VesselIdentity[], mmsi: number | undefined): VesselIdentity | null {
  let best: VesselIdentity | null = null;
  for (const i of identities) {
    // The ship's current MMSI first: an identity of a former MMSI is history.
    const better = best === null || (i.mmsi === mmsi && best.mmsi !== mmsi) || (i.mmsi === best.mmsi && i.updatedAt > best.updatedAt);
    if (better) best = i;
  }
  return best;
}

function newestCallsign(record: VesselRecord | null): { value: string; sources: string[] } | null {
  // A list's call sign is in `identity.listed`, dated by its listing.
  const links = (record?.identifiers ?? []).filter((l) => l.kind === "callsign" && !isSanctionsListKey(l.source)).sort((a, b) => b.lastSeen - a.lastSeen);
  const first = links[0];
  return first ? { value: first.value, sources: [first.source] } : null;
}

function lastPositionOf(f: PositionFix, now: number, sourceName: string | null) {
  const source = `station:${f.stationId}`;
  return sourced(
    "lastPosition",
    [source],
    {
      time: iso(f.time),
      lat: round(f.lat, 6)!,
      lon: round(f.lon, 6)!,
      sog: round(f.sog, 1),
      cog: round(f.cog, 1),
      heading: f.heading,
      navStatus: navStatusName(f.navStatus),
      source,
      sourceName,
      ageSeconds: Math.max(0, Math.floor((now - f.time) / 1000)),
    },
    { whenWithheld: "null", leaf: true },
  );
}

/**
 * Particulars from the fleet list, the latest MRV report and the ship's own broadcast, with the
 * sources of what is shown; and beside them what each list record gives, each a fact of its list.
 */
function particularsOf(record: VesselRecord | null, live: VesselIdentity | null, facts: readonly ListedVesselFacts[]) {
  const sources = new Set<string>();
  const fleet = record?.fleet[0];
  const mrv = record?.emissions.at(-1);
  const take = <T>(value: T | null | undefined, source: string): T | null => {
    if (value === null || value === undefined) return null;
    sources.add(source);
    return value;
  };
  const dims = (a: number | null, b: number | null) => (a !== null && b !== null && a + b > 0 ? a + b : null);
  const station = live ? `station:${live.stationId}` : "";
  const p = {
    shipType: take(fleet?.shipType, fleet?.source ?? "") ?? take(mrv?.shipType, "emsa_mrv"),
    aisShipType: live ? take(live.shipType, station) : null,
    lengthM: live ? take(dims(live.toBow, live.toStern), station) : null,
    beamM: live ? take(dims(live.toPort, live.toStarboard), station) : null,
    draughtM: live ? take(live.draught && live.draught > 0 ? live.draught : null, station) : null,
    grossTons: take(fleet?.grossTons, fleet?.source ?? ""),
    deadweightTons: take(fleet?.deadweightTons, fleet?.source ?? ""),
    yearBuilt: take(fleet?.yearBuilt, fleet?.source ?? ""),
    portOfRegistry: take(mrv?.portOfRegistry, "emsa_mrv"),
  };
  if (sources.size === 0 && facts.length === 0) return null;
  const list = [...sources].sort();
  // Not a leaf: the list rows inside are judged each by its own list.
  return sourced("particulars", list, { ...p, sources: list, listed: listedParticulars(facts) }, { whenWithheld: "null" });
}
