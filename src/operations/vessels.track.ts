import { z } from "zod";
import { AppError } from "../domain/errors.ts";
import { sourced } from "../domain/rights/sourced.ts";
import {
  ARCHIVE_SLOT_MS,
  archiveBoundary,
  bucketIndex,
  bucketMsFor,
  checkHistory,
  creditsFor,
  formatIsoTime,
  MAX_HOURS,
  navStatusName,
  resolveWindow,
} from "../domain/tracks/window.ts";
import { mmsiLinkSource } from "../domain/vessels/mmsi-link.ts";
import { ArchiveUnavailableError, type TrackPoint } from "../interfaces/tracks.ts";
import { defineOperation, type OperationContext } from "./operation.ts";
import { intParam, timeParam } from "./params.ts";
import { vesselIdParam } from "./params.ts";
import { notFound, visibleStations } from "./projections/visible-vessel.ts";

const TrackPointSchema = z.object({
  time: z.string(),
  lat: z.number(),
  lon: z.number(),
  sog: z.number().nullable(),
  cog: z.number().nullable(),
  /** Absent on archived points (older than 90 days). */
  navStatus: z.string().optional(),
  source: z.string(),
});

interface Window {
  from: number;
  to: number;
  bucketMs: number;
}

/**
 * One representative point per bucket (the last fix in it) of one vessel among the given
 * stations: the recent positions, and for the part of the window older than 90 days the
 * archive plus what compaction has not moved yet, both at the archive's 10-minute
 * resolution without navigational status.
 */
type Point = TrackPoint & { archived?: boolean };

async function trackOf(ctx: OperationContext, mmsis: readonly number[], until: ReadonlyMap<number, number>, w: Window, stationIds: readonly number[]): Promise<Point[]> {
  const boundary = archiveBoundary(ctx.now);
  // One MMSI (the usual case) needs no merging: its points come one per bucket, in order.
  const single = mmsis.length === 1 && w.from >= boundary;
  const buckets = new Map<number, Point>();
  const put = (p: Point) => {
    const b = bucketIndex(p.time, w.bucketMs);
    const had = buckets.get(b);
    if (!had || p.time > had.time) buckets.set(b, p);
  };
  for (const mmsi of mmsis) {
    // Fixes of an MMSI another ship took over are this ship's only up to its own last sighting with it.
    const end = Math.min(w.to, (until.get(mmsi) ?? Number.POSITIVE_INFINITY) + 1);
    const recent: Point[] = end > w.from ? await ctx.services.tracks.lastPerBucket({ mmsi, from: w.from, to: end, bucketMs: w.bucketMs, stationIds }) : [];
    if (single) return recent;
    const old = recent.filter((p) => p.time < boundary);
    for (const p of recent) if (p.time >= boundary) put(p);
    if (w.from >= boundary) continue;
    // Before the boundary: archived slots, and fixes compaction has not moved yet reduced to their slots as well.
    const archived = await ctx.services.archive.read({ mmsi, from: w.from, to: Math.max(w.from, Math.min(end, boundary)), stationIds });
    const slots = new Map<string, TrackPoint>();
    for (const p of [...archived, ...old]) {
      const key = `${p.stationId}:${Math.floor(p.time / ARCHIVE_SLOT_MS)}`;
      const had = slots.get(key);
      if (!had || p.time > had.time) slots.set(key, p);
    }
    for (const p of slots.values()) put({ ...p, navStatus: null, archived: true });
  }
  return [...buckets.values()].sort((a, b) => a.time - b.time);
}

/**
 * How many points each of these stations alone would give the track: as many as trackOf
 * returns for it. A window within the last 90 days is counted in storage (distinct buckets
 * per station); one reaching the archive is worked out as trackOf does, since there the
 * archive's slots and the fixes compaction has not moved yet are merged per slot first.
 */
async function withheldCounts(ctx: OperationContext, mmsis: readonly number[], until: ReadonlyMap<number, number>, w: Window, stationIds: readonly number[]): Promise<Map<number, number>> {
  if (stationIds.length === 0) return new Map();
  if (w.from >= archiveBoundary(ctx.now)) {
    const ranges = mmsis.map((mmsi) => ({ mmsi, to: Math.min(w.to, (until.get(mmsi) ?? Number.POSITIVE_INFINITY) + 1) }));
    return ctx.services.tracks.bucketCounts({ ranges, from: w.from, bucketMs: w.bucketMs, stationIds });
  }
  const counts = new Map<number, number>();
  for (const s of stationIds) counts.set(s, (await trackOf(ctx, mmsis, until, w, [s])).length);
  return counts;
}

export const vesselsTrack = defineOperation({
  id: "vessels.track",
  method: "GET",
  path: "/api/v1/vessels/{id}/track",
  tool: "get_vessel_track",
  summary: "A vessel's track",
  description:
    "Positions of one ship over a window: the last `hours` (1 to 168, default 24) or `from`/`to` (ISO 8601; `to` defaults to now), at most 7 days, " +
    "not before 2026-06-01. The last 24 hours are open to every plan; older windows need the plan's history. Points are bucketed to at most 1,500 " +
    "(`window.bucketSeconds`; bucket edges at multiples of that length in UTC), one per bucket, each with its `source` station; positions older than 90 days come from the archive at 10-minute " +
    "resolution without `navStatus`. Only stations you own or that are shared are read. 1 credit per day of track, days rounded up.",
  auth: "key",
  input: z.strictObject({
    id: vesselIdParam,
    hours: intParam(1, MAX_HOURS).optional().describe("The last N hours of track; not together with `from`/`to`."),
    from: timeParam.optional().describe("Window start, ISO 8601 timestamp; as far back as the plan allows."),
    to: timeParam.optional().describe("Window end, ISO 8601 timestamp; default now."),
  }),
  output: {
    top: {
      imo: z.number().int().nullable(),
      mmsi: z.number().int().nullable(),
      window: z.object({ from: z.string(), to: z.string(), bucketSeconds: z.number().int() }),
    },
    data: z.array(TrackPointSchema),
  },
  responseType: "vessel_track",
  apiVersion: "1",
  // The window's rules that need the clock are checked here, before anything is charged.
  cost: (input, now) => creditsFor(resolveWindow(input, now)),
  async run(ctx, input) {
    const window = resolveWindow(input, ctx.now);
    checkHistory(window, ctx.now, ctx.principal.entitlements.historyDays, ctx.principal.entitlements.plans);
    const visible = await visibleStations(ctx);
    const id = input.id;
    const found = await ctx.services.vessels.findMmsis(id, visible);
    // Heard by a visible station but not linked into the registry yet (a report stored a moment ago).
    if (!found && !(id.kind === "mmsi" && (await ctx.services.vessels.heardBy(id.mmsi, visible)))) throw notFound(id);
    const links = found?.mmsis ?? [];
    // An MMSI another ship was seen with later is this ship's only up to its own last sighting with it.
    const until = new Map(links.filter((l) => l.otherLastSeen !== null && l.otherLastSeen > l.lastSeen).map((l) => [l.mmsi, l.lastSeen]));
    // Asked by MMSI: that MMSI's whole track, whoever used it. By IMO: every MMSI the ship used
    // (an MMSI change mid-window stays one track), the current one first.
    const mmsis =
      id.kind === "mmsi"
        ? [id.mmsi]
        : [...links].sort((a, b) => Number(until.has(a.mmsi)) - Number(until.has(b.mmsi)) || b.lastSeen - a.lastSeen).map((l) => l.mmsi);
    if (id.kind === "mmsi") until.clear();
    const w = { ...window, bucketMs: bucketMsFor(window) };

    // A bucket is filled from any station the caller may see, so which feeds may be served
    // must be known before choosing: the same judgement the pipeline's filter applies. The
    // points the others would give are counted, not read, and listed as withheld rows per station.
    const allowed = visible.filter((s) => ctx.rights.may([`station:${s}`]));
    const denied = visible.filter((s) => !allowed.includes(s));

    let points: Point[];
    try {
      points = await trackOf(ctx, mmsis, until, w, allowed);
      const counts = await withheldCounts(ctx, mmsis, until, w, denied);
      for (const s of denied) ctx.rights.withholdRows("positions", [`station:${s}`], counts.get(s) ?? 0);
    } catch (e) {
      if (e instanceof ArchiveUnavailableError) {
        throw new AppError("archive_unavailable", "This window reaches back more than 90 days, and the position archive cannot be reached right now; retry later, or ask for the last 90 days. Not charged.");
      }
      throw e;
    }

    const sources = new Map<number, string[]>();
    const point = (p: Point) => {
      let source = sources.get(p.stationId);
      if (!source) sources.set(p.stationId, (source = [`station:${p.stationId}`]));
      // AIS resolves 1/10000 minute (~0.19 m); six decimals keep that and drop binary noise.
      const time = formatIsoTime(p.time);
      const lat = Math.round(p.lat * 1e6) / 1e6;
      const lon = Math.round(p.lon * 1e6) / 1e6;
      const sog = p.sog === null ? null : Math.round(p.sog * 10) / 10;
      const cog = p.cog === null ? null : Math.round(p.cog * 10) / 10;
      // Archived points have no navigational status at all (spec 2.4), not a null one.
      const row = p.archived ? { time, lat, lon, sog, cog, source: source[0]! } : { time, lat, lon, sog, cog, navStatus: navStatusName(p.navStatus), source: source[0]! };
      return sourced("positions", source, row, { countRows: true, leaf: true });
    };
    // The IMO-to-MMSI link is a fact of the sources that made it: the one the caller did not
    // ask by goes out only when a source of the link is cleared.
    const mmsi = mmsis[0] ?? null;
    const imo = found?.imo ?? null;
    let link: string[] = [];
    if (found && imo !== null && mmsi !== null) {
      const users = await ctx.services.vessels.mmsiUsers([mmsi], visible);
      link = mmsiLinkSource(users.filter((u) => u.vesselId === found.vesselId).flatMap((u) => u.sources));
    }
    const linkedOnly = <T>(v: T) => (link.length > 0 ? sourced("identity", link, v, { whenWithheld: "null", leaf: true }) : v);
    return {
      top: {
        imo: id.kind === "mmsi" ? linkedOnly(imo) : imo,
        mmsi: id.kind === "imo" ? linkedOnly(mmsi) : mmsi,
        window: { from: new Date(w.from).toISOString(), to: new Date(w.to).toISOString(), bucketSeconds: w.bucketMs / 1000 },
      },
      data: points.map(point),
    };
  },
});
