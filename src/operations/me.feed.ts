import { z } from "zod";
import { sourced } from "../domain/rights/sourced.ts";
import type { PositionFix, VesselIdentity } from "../interfaces/positions.ts";
import { defineOperation } from "./operation.ts";
import { intParam } from "./params.ts";
import { POSITION_VIEW_FIELDS } from "./projections/position-view.ts";

/** ITU navigational status 15, "not defined": what a report without a status (Class B) means. */
const NAV_STATUS_NOT_DEFINED = 15;

const FeedRowSchema = z.object({
  station: z.object({ id: z.number().int(), name: z.string() }),
  mmsi: z.number().int(),
  ...POSITION_VIEW_FIELDS,
  navStatus: z.number().int(),
  name: z.string().nullable(),
  callsign: z.string().nullable(),
  imo: z.number().int().nullable(),
  shipType: z.number().int().nullable(),
  destination: z.string().nullable(),
});

/** The identity to show with a fix: the fix's own station's, else the freshest another own station heard. */
function identityFor(fix: PositionFix, candidates: VesselIdentity[] | undefined): VesselIdentity | null {
  if (!candidates || candidates.length === 0) return null;
  let best: VesselIdentity | null = null;
  for (const c of candidates) {
    if (c.stationId === fix.stationId) return c;
    if (best === null || c.updatedAt > best.updatedAt) best = c;
  }
  return best;
}

/** AIS resolves 1/10000 minute (~0.19 m); six decimals (~0.11 m) keep that and drop binary noise. */
function round(v: number | null, digits: number): number | null {
  if (v === null) return null;
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

export const meFeed = defineOperation({
  id: "me.feed",
  method: "GET",
  path: "/api/v1/me/feed",
  tool: "get_my_feed",
  summary: "Latest positions heard by your own stations",
  description:
    "The latest position, with the identity when it was broadcast, of each vessel heard by the receiving stations of the key's account within `maxAge` minutes, newest first. " +
    "Only the account's own stations are read, never anyone else's and never public data. Needs a plan with private feeds (Pro, Team). " +
    "`navStatus` is the ITU code; 15 (not defined) for reports that carry none (Class B). `sog`, `cog`, `heading` are null when not available.",
  auth: "key",
  feature: "privateFeed",
  input: z.strictObject({
    maxAge: intParam(1, 1440, 60).describe("Only positions received within this many minutes."),
  }),
  output: { data: z.array(FeedRowSchema), top: { private: z.literal(true), maxAgeMinutes: z.number().int() } },
  responseType: "my_feed",
  apiVersion: "1",
  cost: 1,
  async run(ctx, input) {
    const p = ctx.principal;
    if (p.kind === "anonymous") throw new Error("me.feed runs only for an account's credentials");
    // Ownership decides what is read; the rights filter then sees each row's station as its source.
    const stations = await ctx.services.stations.listStations(p.accountId);
    const names = new Map(stations.map((s) => [s.id, s.name]));
    const fixes = await ctx.services.positions.latest([...names.keys()], ctx.now - input.maxAge * 60_000);

    // One row per vessel: the newest fix among the account's stations (fixes come newest first).
    const seen = new Set<number>();
    const rows: PositionFix[] = [];
    for (const f of fixes) {
      if (seen.has(f.mmsi)) continue;
      seen.add(f.mmsi);
      rows.push(f);
    }
    const byMmsi = new Map<number, VesselIdentity[]>();
    for (const id of await ctx.services.positions.identities([...names.keys()], rows.map((r) => r.mmsi))) {
      const list = byMmsi.get(id.mmsi);
      if (list) list.push(id);
      else byMmsi.set(id.mmsi, [id]);
    }

    return {
      top: { private: true, maxAgeMinutes: input.maxAge },
      data: rows.map((f) => {
        const who = identityFor(f, byMmsi.get(f.mmsi));
        return sourced(
          "positions",
          [`station:${f.stationId}`],
          {
            station: { id: f.stationId, name: names.get(f.stationId) ?? "" },
            mmsi: f.mmsi,
            time: new Date(f.time).toISOString(),
            lat: round(f.lat, 6),
            lon: round(f.lon, 6),
            sog: round(f.sog, 1),
            cog: round(f.cog, 1),
            heading: f.heading,
            navStatus: f.navStatus ?? NAV_STATUS_NOT_DEFINED,
            name: who?.name ?? null,
            callsign: who?.callsign ?? null,
            imo: who?.imo ?? null,
            shipType: who?.shipType ?? null,
            destination: who?.destination ?? null,
          },
          { countRows: true },
        );
      }),
    };
  },
});
