import { z } from "zod";
import { AppError } from "../domain/errors.ts";
import { formatVesselId, isValidImo, parseVesselId, type VesselId } from "../domain/identifiers.ts";
import { sourced } from "../domain/rights/sourced.ts";
import { SANCTIONS_LIST_NAMES, SANCTIONS_LISTS } from "../domain/sanctions/designation.ts";
import { navStatusName } from "../domain/tracks/window.ts";
import { normalizeName } from "../domain/vessels/names.ts";
import type { PositionFix, VesselIdentity } from "../ports/positions.ts";
import type { IdentifierHit } from "../ports/sanctions.ts";
import type { VesselNameLink, VesselRecord, VisibleStations } from "../ports/vessels.ts";
import { defineOperation, type OperationContext } from "./operation.ts";

export const VESSEL_ID_RULE = "must be a checksum-valid 7-digit IMO number (e.g. 9074729) or `mmsi-` followed by the 9-digit MMSI (e.g. mmsi-244123456)";

export const vesselIdParam = z.string().transform((v, ctx): VesselId => {
  const id = parseVesselId(v);
  if (!id) {
    ctx.addIssue({ code: "custom", message: VESSEL_ID_RULE });
    return z.NEVER;
  }
  return id;
});

/** The stations whose data the caller may see: the account's own and shared ones. */
export function visibleStations(ctx: OperationContext): Promise<number[]> {
  return ctx.services.vessels.visibleStations(ctx.principal.kind === "key" ? ctx.principal.accountId : null);
}

/** A ship as the caller may see it: the registry's record, or only what visible stations heard (not linked yet). */
export interface ResolvedVessel {
  record: VesselRecord | null;
  imo: number | null;
  /** Every MMSI linked to the ship that the caller may see, the current one first. */
  mmsis: number[];
  /**
   * MMSIs another ship has used since: fixes of such an MMSI after this time (epoch ms) are
   * the other ship's, not this one's.
   */
  until: Map<number, number>;
  /** The id the vessel's links use: the IMO when known. */
  canonicalId: string;
}

/**
 * Finds the ship an id names, among what the caller may see. A ship only a private
 * station of another account heard is not found: for that caller it does not exist.
 */
export async function resolveVessel(ctx: OperationContext, id: VesselId, visible: VisibleStations): Promise<ResolvedVessel | null> {
  const vessels = ctx.services.vessels;
  const record = id.kind === "imo" ? await vessels.findByImo(id.imo, visible) : await vessels.findByMmsi(id.mmsi, visible);
  if (!record) {
    // Heard by a visible station but not linked yet (the registry refreshes every minute).
    if (id.kind === "mmsi" && (await vessels.heardBy(id.mmsi, visible))) return { record: null, imo: null, mmsis: [id.mmsi], until: new Map(), canonicalId: formatVesselId(id) };
    return null;
  }
  const lastSeen = new Map<number, number>();
  for (const l of record.identifiers) {
    if (l.kind !== "mmsi") continue;
    const m = Number(l.value);
    lastSeen.set(m, Math.max(lastSeen.get(m) ?? 0, l.lastSeen));
  }
  // An MMSI passed on to another ship (seen with it later) is this ship's only up to its own last sighting.
  const until = new Map<number, number>();
  for (const u of await vessels.mmsiUsers([...lastSeen.keys()], visible)) {
    if (u.vesselId === record.vesselId) continue;
    const mine = lastSeen.get(u.mmsi)!;
    if (u.lastSeen > mine) until.set(u.mmsi, mine);
  }
  const rank = (m: number) => (id.kind === "mmsi" && m === id.mmsi ? 2 : until.has(m) ? 0 : 1);
  // Asked by MMSI, that MMSI is the one meant; otherwise the newest one no other ship took over.
  const mmsis = [...lastSeen.entries()].sort((a, b) => rank(b[0]) - rank(a[0]) || b[1] - a[1]).map(([m]) => m);
  const canonical: VesselId = record.imo !== null ? { kind: "imo", imo: record.imo } : { kind: "mmsi", mmsi: record.mmsiKey ?? mmsis[0]! };
  return { record, imo: record.imo, mmsis, until, canonicalId: formatVesselId(canonical) };
}

/** Whether an AIS identity row describes this ship: with the same IMO, or with none for a ship known by MMSI. */
export function describes(v: ResolvedVessel, i: VesselIdentity): boolean {
  if (v.record === null) return true;
  if (v.imo !== null) return i.imo === v.imo;
  return i.imo === null || !isValidImo(i.imo);
}

export function notFound(id: VesselId): AppError {
  return new AppError("not_found", id.kind === "imo" ? `No vessel with IMO ${id.imo} is known.` : `No vessel with MMSI ${String(id.mmsi).padStart(9, "0")} is known.`);
}

const iso = (t: number) => new Date(t).toISOString();
/** Six decimals (~0.1 m) keep AIS precision and drop binary noise. */
const round = (v: number | null, digits: number) => (v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits);

interface NameGroup {
  name: string;
  sources: string[];
  firstSeen: number;
  lastSeen: number;
}

/** Names grouped by their normal form (one ship's "Star" and "STAR" are one name), newest first. */
function groupNames(names: readonly VesselNameLink[]): NameGroup[] {
  const groups = new Map<string, NameGroup & { spellingSeen: number }>();
  for (const n of names) {
    const key = normalizeName(n.name);
    const g = groups.get(key);
    if (!g) {
      groups.set(key, { name: n.name, sources: [n.source], firstSeen: n.firstSeen, lastSeen: n.lastSeen, spellingSeen: n.lastSeen });
      continue;
    }
    if (!g.sources.includes(n.source)) g.sources.push(n.source);
    g.firstSeen = Math.min(g.firstSeen, n.firstSeen);
    g.lastSeen = Math.max(g.lastSeen, n.lastSeen);
    if (n.lastSeen > g.spellingSeen) {
      g.name = n.name;
      g.spellingSeen = n.lastSeen;
    }
  }
  return [...groups.values()].map(({ spellingSeen: _, ...g }) => ({ ...g, sources: g.sources.sort() })).sort((a, b) => b.lastSeen - a.lastSeen || a.name.localeCompare(b.name));
}

/** The designations screening gives for this ship's id (screen.ts: by IMO, or by MMSI for IMO-less designations). */
async function sanctionsOf(ctx: OperationContext, imo: number | null, mmsi: number | null): Promise<{ hit: IdentifierHit; matchedOn: "imo" | "mmsi" }[]> {
  const store = ctx.services.sanctions;
  const lists = [...SANCTIONS_LISTS];
  const out: { hit: IdentifierHit; matchedOn: "imo" | "mmsi" }[] = [];
  if (imo !== null) {
    const states = await store.listStates();
    const byImo = (await store.findByIdentifiers({ imos: [imo], mmsis: [], lists, states })).filter((h) => h.kind === "imo");
    for (const hit of byImo) out.push({ hit, matchedOn: "imo" });
    const linked = [...new Set(byImo.flatMap((h) => h.allMmsis))];
    if (linked.length > 0) {
      const seen = new Set(out.map((m) => m.hit.id));
      for (const hit of await store.findByIdentifiers({ imos: [], mmsis: linked, lists, states })) {
        if (hit.kind !== "mmsi" || hit.allImos.length > 0 || seen.has(hit.id)) continue;
        seen.add(hit.id);
        out.push({ hit, matchedOn: "mmsi" });
      }
    }
  } else if (mmsi !== null) {
    for (const hit of await store.findByIdentifiers({ imos: [], mmsis: [mmsi], lists })) if (hit.kind === "mmsi") out.push({ hit, matchedOn: "mmsi" });
  }
  const order = new Map(SANCTIONS_LISTS.map((l, i) => [l, i]));
  return out.sort((a, b) => Number(b.hit.active) - Number(a.hit.active) || order.get(a.hit.list)! - order.get(b.hit.list)! || a.hit.id - b.hit.id);
}

const NameRowSchema = z.object({ name: z.string(), firstSeen: z.string(), lastSeen: z.string(), sources: z.array(z.string()) });

export const VesselPageSchema = z.object({
  identity: z
    .object({
      imo: z.number().int().nullable(),
      mmsi: z.number().int().nullable(),
      name: z.string().nullable(),
      callsign: z.string().nullable(),
      mmsiHistory: z.array(z.object({ mmsi: z.number().int(), firstSeen: z.string(), lastSeen: z.string(), sources: z.array(z.string()) })),
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
    })
    .nullable(),
  lastPosition: z
    .object({
      time: z.string(),
      lat: z.number(),
      lon: z.number(),
      sog: z.number().nullable(),
      cog: z.number().nullable(),
      heading: z.number().nullable(),
      navStatus: z.string(),
      source: z.string(),
    })
    .nullable(),
  portCalls: z.array(z.object({ unlocode: z.string(), arrival: z.string(), departure: z.string().nullable(), source: z.string() })),
  inspections: z.array(z.object({ date: z.string(), type: z.string(), port: z.string() })),
  emissions: z.array(z.object({ year: z.number().int(), co2T: z.number().nullable(), fuelT: z.number().nullable(), timeAtSeaH: z.number().nullable() })).nullable(),
  sanctions: z.array(
    z.object({
      list: z.string(),
      listName: z.string(),
      recordId: z.string(),
      name: z.string(),
      program: z.string().nullable(),
      listedAt: z.string(),
      delistedAt: z.string().nullable(),
      active: z.boolean(),
      matchedOn: z.enum(["imo", "mmsi"]),
      sourceUrl: z.string(),
    }),
  ),
  companies: z.array(z.object({ role: z.string(), name: z.string(), sources: z.array(z.string()) })),
});

export const vesselsGet = defineOperation({
  id: "vessels.get",
  method: "GET",
  path: "/api/v1/vessels/{id}",
  tool: "get_vessel",
  summary: "A vessel's page",
  description:
    "The page of one ship, by checksum-valid IMO number or `mmsi-` + 9-digit MMSI: identity with the MMSIs it used, other names, particulars, " +
    "the last position your own (or shared) stations heard, EU MRV emissions per year, sanctions designations (the same as screening gives) and companies. " +
    "Each section carries its sources and is withheld when a source does not permit API use. 1 credit (free without a key).",
  auth: "optional",
  input: z.strictObject({ id: vesselIdParam }),
  output: {
    top: { imo: z.number().int().nullable(), mmsi: z.number().int().nullable(), name: z.string().nullable(), page: z.string(), api: z.string(), generatedAt: z.string() },
    data: VesselPageSchema,
  },
  responseType: "vessel",
  apiVersion: "preview",
  cost: () => 1,
  async run(ctx, input) {
    const visible = await visibleStations(ctx);
    const v = await resolveVessel(ctx, input.id, visible);
    if (!v) throw notFound(input.id);
    const record = v.record;
    const [heard, allFixes] = await Promise.all([ctx.services.positions.identities(visible, v.mmsis), ctx.services.vessels.latestFixes(v.mmsis, visible)]);
    // A former MMSI now used by another ship: its broadcasts and fixes since are the other ship's.
    const identities = heard.filter((i) => describes(v, i));
    const fixes = allFixes.filter((f) => f.time <= (v.until.get(f.mmsi) ?? Number.POSITIVE_INFINITY));

    // What visible stations broadcast now joins the registry's history (which a refresh brings up to date each minute).
    const live = newestIdentity(identities, v.mmsis[0]);
    const imo = v.imo ?? (live?.imo && v.record === null ? live.imo : null);
    const names: VesselNameLink[] = [...(record?.names ?? [])];
    for (const i of identities) {
      if (i.name) names.push({ name: i.name, source: `station:${i.stationId}`, stationId: i.stationId, firstSeen: i.updatedAt, lastSeen: i.updatedAt });
    }
    const groups = groupNames(names);
    const current = groups[0] ?? null;
    const callsign = live?.callsign
      ? { value: live.callsign, sources: [`station:${live.stationId}`] }
      : newestCallsign(record);
    const mmsi = v.mmsis[0] ?? null;

    const mmsiHistory = new Map<number, { firstSeen: number; lastSeen: number; sources: Set<string> }>();
    for (const l of record?.identifiers ?? []) {
      if (l.kind !== "mmsi") continue;
      const m = Number(l.value);
      const h = mmsiHistory.get(m) ?? { firstSeen: l.firstSeen, lastSeen: l.lastSeen, sources: new Set<string>() };
      h.firstSeen = Math.min(h.firstSeen, l.firstSeen);
      h.lastSeen = Math.max(h.lastSeen, l.lastSeen);
      h.sources.add(l.source);
      mmsiHistory.set(m, h);
    }

    const identitySources = [...new Set([...(current?.sources ?? []), ...(callsign?.sources ?? [])])].sort();
    const fix = fixes[0];
    const designations = await sanctionsOf(ctx, imo, imo === null ? mmsi : null);

    return {
      top: {
        imo,
        mmsi,
        name: current ? sourced("identity", current.sources, current.name, { whenWithheld: "null", leaf: true }) : null,
        page: `${ctx.baseUrl}/vessel/${v.canonicalId}`,
        api: `${ctx.baseUrl}/api/v1/vessels/${v.canonicalId}`,
        generatedAt: iso(ctx.now),
      },
      data: {
        // On a page a withheld section stays as a null key, so clients see that it exists.
        identity: sourced(
          "identity",
          identitySources,
          {
            imo,
            mmsi,
            name: current?.name ?? null,
            callsign: callsign?.value ?? null,
            mmsiHistory: [...mmsiHistory.entries()]
              .sort((a, b) => b[1].lastSeen - a[1].lastSeen)
              .map(([m, h]) => {
                const sources = [...h.sources].sort();
                return sourced("identity.mmsiHistory", sources, { mmsi: m, firstSeen: iso(h.firstSeen), lastSeen: iso(h.lastSeen), sources }, { countRows: true, leaf: true });
              }),
          },
          { whenWithheld: "null" },
        ),
        otherNames: groups
          .slice(1)
          .map((g) => sourced("otherNames", g.sources, { name: g.name, firstSeen: iso(g.firstSeen), lastSeen: iso(g.lastSeen), sources: g.sources }, { countRows: true, leaf: true })),
        particulars: particularsOf(record, live),
        lastPosition: fix ? lastPositionOf(fix) : null,
        // Port calls and inspections need sources the service does not hold yet: empty, not an error.
        portCalls: [],
        inspections: [],
        emissions:
          record && record.emissions.length > 0
            ? sourced(
                "emissions",
                ["emsa_mrv"],
                record.emissions.map((e) => ({ year: e.year, co2T: e.co2T, fuelT: e.fuelT, timeAtSeaH: e.timeAtSeaH })),
                { whenWithheld: "null", leaf: true },
              )
            : [],
        sanctions: designations.map(({ hit, matchedOn }) =>
          sourced(
            "sanctions",
            [hit.list],
            {
              list: hit.list,
              listName: SANCTIONS_LIST_NAMES[hit.list],
              recordId: hit.recordId,
              name: hit.name,
              program: hit.program,
              listedAt: hit.listedAt ?? hit.firstSeen,
              delistedAt: hit.delistedAt,
              active: hit.active,
              matchedOn,
              sourceUrl: hit.sourceUrl,
            },
            { countRows: true, leaf: true },
          ),
        ),
        companies: (record?.fleet ?? [])
          .filter((f) => f.operator)
          .map((f) => sourced("companies", [f.source], { role: "operator", name: f.operator!, sources: [f.source] }, { countRows: true, leaf: true })),
      },
    };
  },
});

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
  const links = (record?.identifiers ?? []).filter((l) => l.kind === "callsign").sort((a, b) => b.lastSeen - a.lastSeen);
  const first = links[0];
  return first ? { value: first.value, sources: [first.source] } : null;
}

function lastPositionOf(f: PositionFix) {
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
    },
    { whenWithheld: "null", leaf: true },
  );
}

/** Particulars from the fleet list, the latest MRV report and the ship's own broadcast, with the sources of what is shown. */
function particularsOf(record: VesselRecord | null, live: VesselIdentity | null) {
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
  if (sources.size === 0) return null;
  const list = [...sources].sort();
  return sourced("particulars", list, { ...p, sources: list }, { whenWithheld: "null", leaf: true });
}
