import { z } from "zod";
import type { BBox } from "../../domain/alerts/geometry.ts";
import { PORT_CALL_METHOD } from "../../domain/derived/port-call-detector.ts";
import { SERVED_EVENT_TYPES, type ServedEventType, VESSEL_EVENT_TYPES, type VesselEventType } from "../../domain/derived/vessel-event.ts";
import { sourced } from "../../domain/rights/sourced.ts";
import { DAY_MS, FREE_HISTORY_MS } from "../../domain/tracks/window.ts";
import type { StoredPortCall, StoredVesselEvent } from "../../interfaces/derived.ts";
import type { PortRow } from "../../interfaces/reference.ts";
import type { VisibleStations } from "../../interfaces/vessels.ts";
import type { OperationContext } from "../operation.ts";
import { CURSOR_DESCRIPTION, cursorParam, decodeCursor, encodeCursor, intParam, timeParam } from "../params.ts";
import { callWindow, type CallWindow } from "./port-calls.ts";

/**
 * Behaviour events (domain/derived/vessel-event.ts) and port calls as one list, in one row
 * shape: the vessel's events, an area's, and the summary on the vessel answer. Each row rests
 * on the station whose fixes made it (`station:<id>`, and whatever governs that station), so
 * the rights filter withholds it, and counts it, when that station's data may not leave.
 */

export const EVENT_TYPE_RULE = `use a comma list of ${SERVED_EVENT_TYPES.join(", ")}`;

/** `type`: a comma list of the served types; default all of them. */
export const eventTypesParam = z
  .string()
  .optional()
  .transform((v, ctx): ServedEventType[] => {
    if (v === undefined) return [...SERVED_EVENT_TYPES];
    const out = new Set<string>();
    for (const raw of v.split(",")) {
      const k = raw.trim().toLowerCase();
      if (k === "") continue;
      if (!(SERVED_EVENT_TYPES as readonly string[]).includes(k)) {
        ctx.addIssue({ code: "custom", message: `has \`${k.slice(0, 40)}\`; ${EVENT_TYPE_RULE}` });
        return z.NEVER;
      }
      out.add(k);
    }
    if (out.size === 0) {
      ctx.addIssue({ code: "custom", message: `must name at least one type; ${EVENT_TYPE_RULE}` });
      return z.NEVER;
    }
    return SERVED_EVENT_TYPES.filter((k) => out.has(k));
  })
  .describe(`Event types, comma-separated: ${SERVED_EVENT_TYPES.join(", ")}; default all.`);

export const BBOX_RULE =
  "must be `minLon,minLat,maxLon,maxLat` in decimal degrees: four numbers, longitudes -180..180, latitudes -90..90, each minimum below its maximum (split an area crossing the antimeridian in two)";

/** `bbox=minLon,minLat,maxLon,maxLat`, WGS 84 degrees (the order of GeoJSON and of a zone's `bbox`). */
export const bboxParam = z
  .string()
  .max(200, { error: BBOX_RULE })
  .transform((v, ctx): BBox => {
    const parts = v.split(",").map((p) => p.trim());
    const nums = parts.map((p) => (/^-?\d+(\.\d+)?$/.test(p) ? Number(p) : Number.NaN));
    const [minLon, minLat, maxLon, maxLat] = nums as [number, number, number, number];
    const ok =
      nums.length === 4 &&
      nums.every(Number.isFinite) &&
      minLon >= -180 &&
      maxLon <= 180 &&
      minLat >= -90 &&
      maxLat <= 90 &&
      minLon < maxLon &&
      minLat < maxLat;
    if (!ok) {
      ctx.addIssue({ code: "custom", message: BBOX_RULE });
      return z.NEVER;
    }
    return { minLon, minLat, maxLon, maxLat };
  })
  .describe("The area: `minLon,minLat,maxLon,maxLat` in decimal degrees, e.g. 19.0,59.0,23.0,61.0.");

export const VesselEventRowSchema = z.object({
  type: z.enum(SERVED_EVENT_TYPES),
  /** The vessel as the event's station heard it. */
  vessel: z.object({ imo: z.number().int().nullable(), mmsi: z.number().int(), name: z.string().nullable() }),
  start: z.string(),
  /** Null while the event is still open (in port, a gap not yet closed, a loitering still going). */
  end: z.string().nullable(),
  /** Where it happened, with the source it rests on; a port call's is its port's coordinates (null when their source is withheld). */
  position: z.object({ lat: z.number(), lon: z.number(), source: z.string() }).nullable(),
  /** The other vessel of an encounter, as the same station heard it. */
  counterpart: z.object({ mmsi: z.number().int(), imo: z.number().int().nullable(), name: z.string().nullable() }).optional(),
  details: z.record(z.string(), z.unknown()),
  method: z.string(),
  version: z.string(),
  /** 0..1; a port call's is its level (2..4) over 4, the level itself in `details.confidenceLevel`. */
  confidence: z.number(),
  inputs: z.object({ positions: z.number().int(), maxGapMinutes: z.number(), sources: z.array(z.string()) }),
  sources: z.array(z.string()),
});

export const EVENT_WINDOW_DESCRIPTION =
  "`from`/`to` (ISO 8601) select events by their start; default the last 30 days, no further back than the plan's history (the last 24 hours on plans without history).";

/** The filter, window and paging parameters every event list takes. */
export const EVENT_LIST_INPUT = {
  type: eventTypesParam,
  from: timeParam.optional().describe("Events starting at or after this time, ISO 8601."),
  to: timeParam.optional().describe("Events starting before this time, ISO 8601; default now."),
  limit: intParam(1, 100, 50).describe("Events per page."),
  cursor: cursorParam.optional().describe(CURSOR_DESCRIPTION),
};

export const EVENT_LIST_OUTPUT = {
  output: { data: z.array(VesselEventRowSchema) },
  responseType: "vessel_events",
  apiVersion: "1",
  paged: true,
  cost: 1,
} as const;

/** One item of the merged list: port calls (kind 0) before events (kind 1) of the same start. */
type Item = { kind: 0; start: number; id: string; call: StoredPortCall } | { kind: 1; start: number; id: string; event: StoredVesselEvent };

const EventCursor = z.object({ s: z.number().int(), k: z.union([z.literal(0), z.literal(1)]), i: z.string().max(200) });

export interface EventListInput {
  type: ServedEventType[];
  from?: number;
  to?: number;
  limit: number;
  cursor?: string;
}

/** Where a list reads from: one vessel's MMSIs, or an area. */
export type EventScope = { mmsis: readonly number[] } | { bbox: BBox };

/**
 * One page of the merged list, oldest first by (start, kind, id). Each table is read by its own
 * keyset, so the order within a table is the store's, and a tie across tables goes to port calls.
 */
/** The window and the cursor of a list, checked before anything is read (a bad one is a 400 whatever the vessel). */
export function eventListArgs(ctx: OperationContext, input: EventListInput) {
  const window = callWindow(ctx, input);
  const after = input.cursor ? decodeCursor(input.cursor, EventCursor) : null;
  return { window, after };
}

export async function eventPage(ctx: OperationContext, scope: EventScope, input: EventListInput, args: ReturnType<typeof eventListArgs>, visible: VisibleStations) {
  const { window, after } = args;
  const d = ctx.services.derived;
  const want = input.limit + 1;
  const eventTypes = VESSEL_EVENT_TYPES.filter((t) => input.type.includes(t)) as VesselEventType[];

  // After a port call at s: calls after it by (arrival, id), events from s on. After an event at s: calls after s, events after it.
  const callsFrom = after?.k === 1 ? Math.max(window.from, after.s + 1) : window.from;
  const callsAfter = after?.k === 0 ? { arrival: after.s, id: after.i } : null;
  const eventsFrom = after?.k === 0 ? Math.max(window.from, after.s) : window.from;
  const eventsAfter = after?.k === 1 ? { start: after.s, id: after.i } : null;

  const callQuery = { visible, from: callsFrom, to: window.to, after: callsAfter, limit: want };
  const eventQuery = { visible, from: eventsFrom, to: window.to, types: eventTypes, after: eventsAfter, limit: want };
  const readCalls = input.type.includes("port_call") && callsFrom < window.to;
  const [calls, events] = await Promise.all([
    readCalls ? ("mmsis" in scope ? d.vesselCalls(scope.mmsis, callQuery) : d.areaCalls(scope.bbox, callQuery)) : [],
    "mmsis" in scope ? d.vesselEvents(scope.mmsis, eventQuery) : d.areaEvents(scope.bbox, eventQuery),
  ]);
  const items = mergeItems(calls, events).slice(0, want);
  const last = items[input.limit - 1];
  const next = items.length > input.limit && last ? encodeCursor({ s: last.start, k: last.kind, i: last.id }) : null;
  return { items: items.slice(0, input.limit), next };
}

/** Both lists in (start, kind) order; each list keeps its own order within a start. */
function mergeItems(calls: readonly StoredPortCall[], events: readonly StoredVesselEvent[]): Item[] {
  const a: Item[] = calls.map((call) => ({ kind: 0, start: call.arrival, id: call.id, call }));
  const b: Item[] = events.map((event) => ({ kind: 1, start: event.start, id: event.id, event }));
  const out: Item[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]!.start <= b[j]!.start)) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}

/** The latest events of a vessel (port calls included), newest first: the vessel answer's summary. */
export async function latestItems(ctx: OperationContext, mmsis: readonly number[], window: CallWindow, stations: VisibleStations, limit: number): Promise<Item[]> {
  if (stations.length === 0) return [];
  const d = ctx.services.derived;
  const [calls, events] = await Promise.all([
    d.vesselCalls(mmsis, { visible: stations, ...window, after: null, limit, newestFirst: true }),
    d.vesselEvents(mmsis, { visible: stations, ...window, types: VESSEL_EVENT_TYPES, after: null, limit, newestFirst: true }),
  ]);
  return mergeItems([...calls].reverse(), [...events].reverse())
    .reverse()
    .slice(0, limit);
}

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

/**
 * Rows of one page: each item as one sourced row of its station, the vessel (and an
 * encounter's counterpart) as that station heard it. In an area's list a port call is there
 * because its port's coordinates lie in the box, so it rests on their source as well.
 */
export async function eventRows(ctx: OperationContext, items: readonly Item[], visible: VisibleStations, options: { area: boolean }) {
  const mmsis = new Set<number>();
  for (const it of items) {
    if (it.kind === 0) mmsis.add(it.call.mmsi);
    else {
      mmsis.add(it.event.mmsi);
      if (it.event.counterpartMmsi !== null) mmsis.add(it.event.counterpartMmsi);
    }
  }
  const identities = await ctx.services.positions.identities(visible, [...mmsis]);
  const heard = new Map<string, { imo: number | null; name: string | null }>();
  for (const i of identities) heard.set(`${i.stationId}:${i.mmsi}`, { imo: i.imo, name: i.name });
  const who = (stationId: number, mmsi: number) => ({ mmsi, ...(heard.get(`${stationId}:${mmsi}`) ?? { imo: null, name: null }) });
  const ports = new Map<string, PortRow | null>();
  for (const it of items) if (it.kind === 0 && !ports.has(it.call.unlocode)) ports.set(it.call.unlocode, await ctx.services.ports.get(it.call.unlocode));

  return items.map((it) => {
    if (it.kind === 1) {
      const e = it.event;
      const source = `station:${e.stationId}`;
      const v = who(e.stationId, e.mmsi);
      return sourced(
        "events",
        [source],
        {
          type: e.type,
          vessel: { imo: v.imo, mmsi: v.mmsi, name: v.name },
          start: iso(e.start)!,
          end: iso(e.end),
          // An identity change heard before any position of the ship has no place.
          position: e.lat !== null && e.lon !== null ? { lat: e.lat, lon: e.lon, source } : null,
          ...(e.counterpartMmsi !== null ? { counterpart: who(e.stationId, e.counterpartMmsi) } : {}),
          details: e.details,
          method: e.method,
          version: e.version,
          confidence: e.confidence,
          inputs: { positions: e.inputs.positions, maxGapMinutes: e.inputs.maxGapMinutes, sources: [source] },
          sources: [source],
        },
        { countRows: true, leaf: true },
      );
    }
    const c = it.call;
    const source = `station:${c.stationId}`;
    const port = ports.get(c.unlocode) ?? null;
    const v = who(c.stationId, c.mmsi);
    const coords = port && port.lat !== null && port.lon !== null && port.coordSource !== null ? { lat: port.lat, lon: port.lon, source: port.coordSource } : null;
    const row = {
      type: "port_call" as const,
      vessel: { imo: v.imo, mmsi: v.mmsi, name: v.name },
      start: iso(c.arrival)!,
      end: iso(c.departure),
      // The port's coordinates are a fact of their own source (UN/LOCODE, the World Port Index, a geocoder).
      position: coords ? sourced("events.position", [coords.source], coords, { whenWithheld: "null", leaf: true }) : null,
      details: {
        unlocode: c.unlocode,
        portName: port?.name ?? null,
        status: c.departure === null ? "in_port" : "departed",
        durationHours: c.departure === null ? null : Math.round(((c.departure - c.arrival) / 3_600_000) * 10) / 10,
        berthArrival: iso(c.berthArrival),
        waitingFrom: iso(c.waitingFrom),
        arrivalObserved: c.arrivalObserved,
        departureObserved: c.departureObserved,
        confidenceLevel: c.confidence,
        geometry: c.geometry,
      },
      method: PORT_CALL_METHOD,
      version: c.version,
      confidence: c.confidence / 4,
      inputs: { positions: c.positions, maxGapMinutes: c.maxGapMinutes, sources: [source] },
      sources: [source],
    };
    // In an area's list the call is there because its port lies in the box: that rests on the coordinates' source too.
    const rests = options.area && coords ? [source, coords.source] : [source];
    return sourced("events", rests, row, { countRows: true });
  });
}

/** The summary on the vessel answer: at most this many of the latest events. */
export const LATEST_EVENTS = 5;

export const VesselEventsSummarySchema = z.object({
  /** Events (port calls included) over the plan's history window from stations you may be shown. */
  count: z.number().int(),
  /** The latest of them, newest first. */
  latest: z.array(VesselEventRowSchema),
});

/** The plan's whole history: everything held (history without limit), else its days, at least the last 24 hours. */
export function historyWindow(ctx: OperationContext): CallWindow {
  const days = ctx.principal.entitlements.historyDays;
  const to = ctx.now + 1;
  return { from: days === null ? 0 : ctx.now - Math.max(days * DAY_MS, FREE_HISTORY_MS), to };
}

/**
 * `data.events` of the vessel answer: how many events the stations the caller may be shown
 * hold, and the latest of them. Events of a visible station whose data may not leave are
 * not read: they are counted in `withheld` per station, as the track's points are.
 */
export async function eventSummary(ctx: OperationContext, mmsis: readonly number[], visible: VisibleStations) {
  const window = historyWindow(ctx);
  const counts = await ctx.services.derived.vesselEventCounts(mmsis, { visible, ...window });
  const perStation = new Map<number, number>();
  for (const c of counts) perStation.set(c.stationId, (perStation.get(c.stationId) ?? 0) + c.count);
  const shown: number[] = [];
  let count = 0;
  for (const [stationId, n] of perStation) {
    const sources = [`station:${stationId}`];
    if (ctx.rights.may(sources)) {
      shown.push(stationId);
      count += n;
    } else ctx.rights.withholdRows("events", sources, n);
  }
  const latest = await latestItems(ctx, mmsis, window, shown, LATEST_EVENTS);
  return { count, latest: await eventRows(ctx, latest, visible, { area: false }) };
}
