import { z } from "zod";
import { TRANSIT_METHOD, TRANSIT_VERSION } from "../../domain/derived/transit-detector.ts";
import { categoryOf, countedTransits, type CountedTransit, transitConfidence, type VesselCategory, WINDOWS } from "../../domain/derived/transit-counts.ts";
import type { Waterway } from "../../domain/derived/waterway.ts";
import type { StoredCrossing } from "../../interfaces/derived.ts";
import type { VisibleStations } from "../../interfaces/vessels.ts";
import type { OperationContext } from "../operation.ts";
import { waterwayPagePath } from "../../domain/pages/page-paths.ts";
import { sourced } from "../../domain/rights/sourced.ts";

/** What the waterway list and the transit series share: identity, gate, counting and confidence. */

const HOUR = 3_600_000;

export const CountSchema = z.object({
  total: z.number().int(),
  byDirection: z.record(z.string(), z.number().int()),
  byCategory: z.record(z.string(), z.number().int()),
});

export const WaterwayIdentitySchema = z.object({
  id: z.string(),
  /** PortWatch's name for its chokepoints (null when PortWatch is withheld), the service's own for extra waterways. */
  name: z.string().nullable(),
  portwatch: z.object({ id: z.string(), name: z.string() }).nullable(),
  point: z.object({ lat: z.number(), lon: z.number() }).nullable(),
  page: z.string(),
  gate: z.object({
    type: z.literal("LineString"),
    coordinates: z.array(z.tuple([z.number(), z.number()])),
    drawn: z.string(),
    status: z.string(),
    directions: z.array(z.string()),
    maxGapMinutes: z.number().int(),
  }),
});

export const ConfidenceSchema = z.object({
  level: z.enum(["high", "medium", "low", "none"]),
  coverage: z.number(),
  continuityMinutes: z.number().nullable(),
  unobservedRatio: z.number().nullable(),
  window: z.string(),
});

/** `crossings` and `unobserved` are counts of the stations' data: null where a station behind them may not be shown. */
export const InputsSchema = z.object({ sources: z.array(z.string()), crossings: z.number().int().nullable(), unobserved: z.number().int().nullable(), gate: z.string() });

/** The source of a PortWatch chokepoint's name, point and id (config/sources.json); extra waterways are the service's own data. */
export const PORTWATCH_SOURCE = "portwatch";

export function identityOf(ctx: OperationContext, w: Waterway) {
  // A PortWatch chokepoint's name and point are PortWatch's facts: shown, and attributed, only where PortWatch may be.
  const fromPortwatch = <T>(value: T) => (w.portwatch ? sourced("identity", [PORTWATCH_SOURCE], value, { whenWithheld: "null", leaf: true }) : value);
  return {
    id: w.id,
    name: fromPortwatch(w.name),
    portwatch: w.portwatch ? sourced("identity", [PORTWATCH_SOURCE], { id: w.id, name: w.name }, { whenWithheld: "null", leaf: true }) : null,
    point: fromPortwatch(w.point),
    page: `${ctx.baseUrl}${waterwayPagePath(w.id, w.slug)}`,
    gate: {
      type: "LineString" as const,
      coordinates: w.gate.line.map(([lon, lat]) => [lon, lat] as [number, number]),
      drawn: w.gateDrawn,
      status: w.gateStatus,
      directions: [w.gate.directions.leftToRight, w.gate.directions.rightToLeft],
      maxGapMinutes: w.gate.maxGapMinutes,
    },
  };
}

export interface GateFacts {
  transits: Map<string, CountedTransit[]>;
  crossings: Map<string, StoredCrossing[]>;
  categories: Map<number, VesselCategory>;
  covered: Map<string, number>;
  stations: Map<string, number[]>;
}

/** Crossings of visible stations since `since`, counted with the 48-hour rule per gate, and what confidence rests on. */
export async function gateFacts(ctx: OperationContext, visible: VisibleStations, since: number, confidenceSince: number, gateId?: string): Promise<GateFacts> {
  const d = ctx.services.derived;
  const [all, covered, stations] = await Promise.all([d.crossings(visible, since - 2 * 24 * HOUR, gateId), d.coveredHours(visible, confidenceSince), d.gateStations(visible, since)]);
  const crossings = new Map<string, StoredCrossing[]>();
  for (const c of all) crossings.set(c.gateId, [...(crossings.get(c.gateId) ?? []), c]);
  const transits = new Map<string, CountedTransit[]>();
  // The 48-hour rule looks back before the window, so a vessel counted just before it is not counted again inside.
  for (const [g, list] of crossings) transits.set(g, countedTransits(list).filter((t) => t.time >= since));
  // Confidence speaks of the crossings of its own window.
  for (const [g, list] of crossings) crossings.set(g, list.filter((c) => c.time >= confidenceSince));
  const mmsis = [...new Set(all.map((c) => c.mmsi))];
  const categories = new Map<number, VesselCategory>();
  for (const i of await ctx.services.positions.identities(visible, mmsis)) if (i.shipType !== null || !categories.has(i.mmsi)) categories.set(i.mmsi, categoryOf(i.shipType));
  for (const c of all) if (!(stations.get(c.gateId) ?? []).includes(c.stationId)) stations.set(c.gateId, [...(stations.get(c.gateId) ?? []), c.stationId]);
  return { transits, crossings, categories, covered, stations };
}

/** The stations behind a gate's counts, coverage and confidence: every fact computed from them rests on all of them. */
export function stationsOf(f: GateFacts, gateId: string): string[] {
  return (f.stations.get(gateId) ?? []).map((s) => `station:${s}`);
}

/**
 * Confidence of a gate's counts over the window `gateFacts` was asked for, from coverage, step
 * lengths and unobserved crossings: computed from the stations' data, so shown only where
 * every one of them may be (a coverage figure tells of a hidden station as a count does).
 */
export function confidenceOf(f: GateFacts, gateId: string, windowMs: number, windowName: string) {
  const list = f.crossings.get(gateId) ?? [];
  const observed = list.filter((c) => c.observed);
  const c = transitConfidence(f.covered.get(gateId) ?? 0, windowMs / HOUR, observed.map((x) => x.gapMs), observed.length, list.length - observed.length);
  return sourced("confidence", stationsOf(f, gateId), { ...c, window: windowName }, { whenWithheld: "null", leaf: true });
}

/** What the counts rest on: the stations (named, as withheld entries name them), their crossings (counted: shown as the counts are) and the gate. */
export function inputsOf(f: GateFacts, w: Waterway) {
  const list = f.crossings.get(w.id) ?? [];
  const sources = stationsOf(f, w.id);
  const counted = (n: number) => sourced("inputs", sources, n, { whenWithheld: "null", leaf: true });
  return {
    sources,
    crossings: counted(list.filter((c) => c.observed).length),
    unobserved: counted(list.filter((c) => !c.observed).length),
    gate: `gates.json ${w.gateStatus}`,
  };
}

export const METHOD = { method: TRANSIT_METHOD, version: TRANSIT_VERSION };
export const LONGEST_WINDOW_MS = WINDOWS["30d"];
