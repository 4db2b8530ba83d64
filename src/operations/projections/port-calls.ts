import { z } from "zod";
import { invalidParameter } from "../../domain/errors.ts";
import { PORT_CALL_METHOD } from "../../domain/derived/port-call-detector.ts";
import { sourced } from "../../domain/rights/sourced.ts";
import { checkHistory } from "../../domain/tracks/window.ts";
import type { StoredPortCall } from "../../interfaces/derived.ts";
import type { VisibleStations } from "../../interfaces/vessels.ts";
import type { OperationContext } from "../operation.ts";
import { CURSOR_DESCRIPTION, cursorParam, decodeCursor, encodeCursor, intParam, timeParam } from "../params.ts";

/** Port calls as every face shows them: the vessel's, the port's and the MCP tool's. */

const DAY = 86_400_000;
/** The default window: the last 30 days, or as far back as the plan's history reaches. */
const DEFAULT_DAYS = 30;

export const PortCallSchema = z.object({
  vessel: z.object({ imo: z.number().int().nullable(), mmsi: z.number().int(), name: z.string().nullable() }),
  port: z.object({ unlocode: z.string(), name: z.string().nullable() }),
  arrival: z.string(),
  departure: z.string().nullable(),
  durationHours: z.number().nullable(),
  berthArrival: z.string().nullable(),
  waitingFrom: z.string().nullable(),
  status: z.enum(["in_port", "departed"]),
  sources: z.array(z.string()),
  method: z.string(),
  version: z.string(),
  confidence: z.object({ level: z.number().int(), arrivalObserved: z.boolean(), departureObserved: z.boolean(), maxGapMinutes: z.number().int(), positions: z.number().int() }),
  inputs: z.object({ geometry: z.string(), sources: z.array(z.string()) }),
});

/** The window and paging parameters every port-call operation takes. */
export const CALL_LIST_INPUT = {
  from: timeParam.optional().describe("Calls arriving at or after this time, ISO 8601."),
  to: timeParam.optional().describe("Calls arriving before this time, ISO 8601; default now."),
  limit: intParam(1, 100, 50).describe("Calls per page."),
  cursor: cursorParam.optional().describe(CURSOR_DESCRIPTION),
};

/** What every port-call operation answers: a page of calls, 1 credit. */
export const CALL_LIST_OUTPUT = {
  output: { data: z.array(PortCallSchema) },
  responseType: "port_calls",
  apiVersion: "1",
  paged: true,
  cost: 1,
} as const;

export const PORT_CALL_WINDOW_DESCRIPTION =
  "`from`/`to` (ISO 8601) select calls by arrival; default the last 30 days, no further back than the plan's history (the last 24 hours on plans without history).";

export interface CallWindow {
  from: number;
  to: number;
}

/** `from`/`to` as asked, else the default; a start older than the plan's history is refused like a track's. */
export function callWindow(ctx: OperationContext, input: { from?: number; to?: number }): CallWindow {
  const now = ctx.now;
  const to = Math.min(input.to ?? now, now);
  const days = ctx.principal.entitlements.historyDays;
  const reach = days === null ? DEFAULT_DAYS : Math.max(1, Math.min(DEFAULT_DAYS, days));
  const from = input.from ?? to - reach * DAY;
  if (from >= to) throw invalidParameter("from", "must be before `to` (and before now)");
  checkHistory({ from, to }, now, days, ctx.principal.entitlements.plans);
  return { from, to };
}

const CallCursor = z.object({ a: z.number().int(), i: z.string().max(200) });

export function afterOf(cursor: string | undefined): { arrival: number; id: string } | null {
  if (!cursor) return null;
  const c = decodeCursor(cursor, CallCursor);
  return { arrival: c.a, id: c.i };
}

export function nextOf(rows: readonly StoredPortCall[], limit: number): string | null {
  const last = rows[limit - 1];
  return rows.length > limit && last ? encodeCursor({ a: last.arrival, i: last.id }) : null;
}

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

/**
 * Rows of one page: each call as one sourced row (its station is its source, so the
 * rights filter withholds it when that station's data may not leave), vessel names and
 * IMOs as the visible stations heard them.
 */
export async function callRows(ctx: OperationContext, calls: readonly StoredPortCall[], visible: VisibleStations) {
  const mmsis = [...new Set(calls.map((c) => c.mmsi))];
  const identities = await ctx.services.positions.identities(visible, mmsis);
  const names = new Map<string, { imo: number | null; name: string | null }>();
  for (const i of identities) names.set(`${i.stationId}:${i.mmsi}`, { imo: i.imo, name: i.name });
  const ports = new Map<string, string | null>();
  for (const code of new Set(calls.map((c) => c.unlocode))) ports.set(code, (await ctx.services.ports.get(code))?.name ?? null);
  return calls.map((c) => {
    const who = names.get(`${c.stationId}:${c.mmsi}`) ?? { imo: null, name: null };
    const source = `station:${c.stationId}`;
    return sourced(
      "portCalls",
      [source],
      {
        vessel: { imo: who.imo, mmsi: c.mmsi, name: who.name },
        port: { unlocode: c.unlocode, name: ports.get(c.unlocode) ?? null },
        arrival: iso(c.arrival)!,
        departure: iso(c.departure),
        durationHours: c.departure === null ? null : Math.round(((c.departure - c.arrival) / 3_600_000) * 10) / 10,
        berthArrival: iso(c.berthArrival),
        waitingFrom: iso(c.waitingFrom),
        status: c.departure === null ? ("in_port" as const) : ("departed" as const),
        sources: [source],
        method: PORT_CALL_METHOD,
        version: c.version,
        confidence: { level: c.confidence, arrivalObserved: c.arrivalObserved, departureObserved: c.departureObserved, maxGapMinutes: c.maxGapMinutes, positions: c.positions },
        inputs: { geometry: c.geometry, sources: [source] },
      },
      { countRows: true, leaf: true },
    );
  });
}
