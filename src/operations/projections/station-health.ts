import { z } from "zod";
import type { StationCounters } from "../../interfaces/positions.ts";

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
    invalidPositions: n("positions_invalid") + n("positions_future") + n("positions_jump"),
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
