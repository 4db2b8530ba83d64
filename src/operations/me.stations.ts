import { z } from "zod";
import type { StationCounters } from "../ports/positions.ts";
import { defineOperation } from "./operation.ts";

export const StationHealthSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  shared: z.boolean(),
  createdAt: z.string(),
  lastHeardAt: z.string().nullable(),
  lines: z.number().int(),
  messages: z.number().int(),
  messagesByType: z.record(z.string(), z.number().int()),
  positions: z.number().int(),
  invalidPositions: z.number().int(),
  staticReports: z.number().int(),
  rejectedLines: z.number().int(),
  badChecksums: z.number().int(),
  droppedFragments: z.number().int(),
  unauthenticated: z.number().int(),
  udpLost: z.number().int(),
  /** Every counter as stored, for what the summary above leaves out (e.g. `reason:bad_fill`). */
  counters: z.record(z.string(), z.number().int()),
});

export type StationHealth = z.infer<typeof StationHealthSchema>;

/** The owner's view of a station's ingest counters (also used by `mds stations list`). */
export function stationHealth(station: { id: number; name: string; shared: boolean; createdAt: number }, c: StationCounters | undefined): StationHealth {
  const n = (k: string) => c?.counters[k] ?? 0;
  const byType: Record<string, number> = {};
  for (const [k, v] of Object.entries(c?.counters ?? {})) if (k.startsWith("type:")) byType[k.slice(5)] = v;
  return {
    id: station.id,
    name: station.name,
    shared: station.shared,
    createdAt: new Date(station.createdAt).toISOString(),
    lastHeardAt: c?.lastHeardAt ? new Date(c.lastHeardAt).toISOString() : null,
    lines: n("lines"),
    messages: n("messages"),
    messagesByType: byType,
    positions: n("positions"),
    invalidPositions: n("positions_invalid") + n("positions_future"),
    staticReports: n("statics"),
    rejectedLines: n("rejected") + n("oversized_lines"),
    badChecksums: n("reason:bad_checksum"),
    // Fragments that never became a message: timed out or replaced, out of order, evicted.
    droppedFragments: n("reason:fragment_missing") + n("reason:fragment_out_of_order") + n("reason:pending_overflow"),
    unauthenticated: n("unauthenticated"),
    udpLost: n("udp_lost"),
    counters: { ...(c?.counters ?? {}) },
  };
}

export const meStations = defineOperation({
  id: "me.stations",
  method: "GET",
  path: "/api/v1/me/stations",
  summary: "Your receiving stations and their ingest health",
  description:
    "The account's receiving stations with what each has delivered: lines, messages by type, positions stored, lines rejected (bad checksums and other reasons), " +
    "dropped fragments, failed authentications (datagrams signed for the station with a wrong key) and UDP datagrams lost. Free.",
  auth: "key",
  input: z.strictObject({}),
  output: { data: z.array(StationHealthSchema) },
  responseType: "my_stations",
  apiVersion: "1",
  cost: 0,
  async run(ctx) {
    const p = ctx.principal;
    if (p.kind !== "key") throw new Error("me.stations runs only for keys");
    const stations = await ctx.services.stations.listStations(p.accountId);
    const counters = new Map((await ctx.services.positions.counters(stations.map((s) => s.id))).map((c) => [c.stationId, c]));
    return { data: stations.map((s) => stationHealth(s, counters.get(s.id))) };
  },
});
