import { cellsAround, gapHours, gapId, openGapOf } from "../../domain/derived/gap-detector.ts";
import type { VesselEvent } from "../../domain/derived/vessel-event.ts";
import type { DerivedCommit, DerivedStore } from "../../interfaces/derived.ts";

/** Vessels last heard longer ago than this are not judged again: a gap that old was judged while it grew. */
export const OPEN_GAP_LOOKBACK_MS = 7 * 24 * 3_600_000;
/** Candidates judged per sweep (the oldest silences first); the rest wait for the next sweep. */
const CANDIDATES = 5_000;

export interface OpenGapsJudged {
  events: VesselEvent[];
  /** The states the judgement read: the commit is refused if ingest moved one on meanwhile. */
  basis: NonNullable<DerivedCommit["basis"]>;
}

/**
 * The AIS gaps open at `now` (docs/vessel-events.md): each (station, vessel) silent for the
 * gap's minimum or more, within the look-back, not already recorded open, whose station kept
 * hearing vessels near its last position in at least half of the hours since. Live
 * derivation sweeps for them every few minutes and `mds derive` once at the end of its walk,
 * through this one function, so both find the same gaps at the same `now`.
 */
export async function judgeOpenGaps(store: Pick<DerivedStore, "silentVessels" | "openGapIds" | "heardHours">, now: number, minSilenceMs: number): Promise<OpenGapsJudged> {
  const since = now - OPEN_GAP_LOOKBACK_MS;
  const [silent, open] = await Promise.all([store.silentVessels(since, now - minSilenceMs, CANDIDATES), store.openGapIds(since)]);
  const events: VesselEvent[] = [];
  const basis: OpenGapsJudged["basis"] = [];
  for (const last of silent) {
    if (open.has(gapId(last.stationId, last.mmsi, last.time))) continue;
    const hours = gapHours({ ...last, start: last.time, end: now, from: [last.lat, last.lon], to: [last.lat, last.lon] });
    if (hours.length === 0) continue;
    const heard = await store.heardHours(last.stationId, cellsAround(last.lat, last.lon), hours);
    const gap = openGapOf(last, now, minSilenceMs, heard.size);
    if (!gap) continue;
    events.push(gap);
    basis.push({ stationId: last.stationId, mmsi: last.mmsi, time: last.stateTime });
  }
  return { events, basis };
}
