/**
 * Transit counts from gate crossings, PortWatch-compatible: a vessel is counted at a gate
 * at most once in 48 hours (the first crossing counts, with its direction), over every
 * station the caller may see, so two stations hearing the same ship count it once.
 * Windows are rolling and end at `asOf`; daily series use UTC dates.
 */

export const RECOUNT_AFTER_MS = 48 * 3_600_000;
const DAY = 86_400_000;

export type VesselCategory = "cargo" | "tanker" | "passenger" | "other" | "unknown";

/** AIS "type of ship and cargo" first digit: 7 cargo, 8 tanker, 6 passenger. */
export function categoryOf(shipType: number | null | undefined): VesselCategory {
  if (shipType === null || shipType === undefined || shipType <= 0) return "unknown";
  const tens = Math.floor(shipType / 10);
  if (tens === 7) return "cargo";
  if (tens === 8) return "tanker";
  if (tens === 6) return "passenger";
  return "other";
}

export interface CountableCrossing {
  gateId: string;
  mmsi: number;
  time: number;
  direction: string;
  observed: boolean;
}

export interface CountedTransit {
  gateId: string;
  mmsi: number;
  time: number;
  direction: string;
}

/** The counted transits among crossings (any order): the first observed crossing per vessel and gate, then none for 48 h. */
export function countedTransits(crossings: readonly CountableCrossing[]): CountedTransit[] {
  const sorted = crossings.filter((c) => c.observed).sort((a, b) => a.time - b.time || a.mmsi - b.mmsi);
  const last = new Map<string, number>();
  const out: CountedTransit[] = [];
  for (const c of sorted) {
    const key = `${c.gateId}:${c.mmsi}`;
    const prev = last.get(key);
    if (prev !== undefined && c.time - prev < RECOUNT_AFTER_MS) continue;
    last.set(key, c.time);
    out.push({ gateId: c.gateId, mmsi: c.mmsi, time: c.time, direction: c.direction });
  }
  return out;
}

export interface WindowCount {
  total: number;
  byDirection: Record<string, number>;
  byCategory: Record<VesselCategory, number>;
}

export const WINDOWS = { "24h": DAY, "7d": 7 * DAY, "30d": 30 * DAY } as const;
export type WindowName = keyof typeof WINDOWS;

export function emptyCount(directions: readonly string[]): WindowCount {
  return {
    total: 0,
    byDirection: Object.fromEntries(directions.map((d) => [d, 0])),
    byCategory: { cargo: 0, tanker: 0, passenger: 0, other: 0, unknown: 0 },
  };
}

/** 24 h / 7 d / 30 d counts of one gate's counted transits, ending at `asOf`. */
export function windowCounts(transits: readonly CountedTransit[], directions: readonly string[], categories: ReadonlyMap<number, VesselCategory>, asOf: number): Record<WindowName, WindowCount> {
  const out = { "24h": emptyCount(directions), "7d": emptyCount(directions), "30d": emptyCount(directions) };
  for (const t of transits) {
    if (t.time > asOf) continue;
    for (const name of Object.keys(WINDOWS) as WindowName[]) {
      if (t.time <= asOf - WINDOWS[name]) continue;
      const w = out[name];
      w.total++;
      w.byDirection[t.direction] = (w.byDirection[t.direction] ?? 0) + 1;
      w.byCategory[categories.get(t.mmsi) ?? "unknown"]++;
    }
  }
  return out;
}

export interface DailyCount extends WindowCount {
  date: string;
}

/** One row per UTC day in [from, to), empty days included. */
export function dailySeries(transits: readonly CountedTransit[], directions: readonly string[], categories: ReadonlyMap<number, VesselCategory>, from: number, to: number): DailyCount[] {
  const first = Math.floor(from / DAY) * DAY;
  const days: DailyCount[] = [];
  for (let d = first; d < to; d += DAY) days.push({ date: new Date(d).toISOString().slice(0, 10), ...emptyCount(directions) });
  for (const t of transits) {
    if (t.time < from || t.time >= to) continue;
    const row = days[Math.floor((t.time - first) / DAY)];
    if (!row) continue;
    row.total++;
    row.byDirection[t.direction] = (row.byDirection[t.direction] ?? 0) + 1;
    row.byCategory[categories.get(t.mmsi) ?? "unknown"]++;
  }
  return days;
}

export type ConfidenceLevel = "high" | "medium" | "low" | "none";

export interface TransitConfidence {
  level: ConfidenceLevel;
  /** Share of the window's hours in which a station the caller may see heard any vessel near the gate. */
  coverage: number;
  /** Median step (minutes) across the counted crossings; null without any. */
  continuityMinutes: number | null;
  /** Unobserved crossings / all crossings; null without any. */
  unobservedRatio: number | null;
}

/**
 * High when the gate was heard in at least 95 % of the hours, steps across it were at
 * most 10 minutes and at most 5 % of crossings unobserved; medium down to 80 % / 30 min /
 * 20 %; low below; none when no visible station heard anything near the gate.
 */
export function transitConfidence(coveredHours: number, windowHours: number, gapsMs: readonly number[], observed: number, unobserved: number): TransitConfidence {
  const coverage = windowHours > 0 ? Math.min(1, coveredHours / windowHours) : 0;
  const sorted = [...gapsMs].sort((a, b) => a - b);
  const continuityMinutes = sorted.length > 0 ? Math.round(sorted[Math.floor((sorted.length - 1) / 2)]! / 60_000) : null;
  const all = observed + unobserved;
  const unobservedRatio = all > 0 ? unobserved / all : null;
  let level: ConfidenceLevel;
  if (coveredHours === 0) level = "none";
  else if (coverage >= 0.95 && (continuityMinutes ?? 0) <= 10 && (unobservedRatio ?? 0) <= 0.05) level = "high";
  else if (coverage >= 0.8 && (continuityMinutes ?? 0) <= 30 && (unobservedRatio ?? 0) <= 0.2) level = "medium";
  else level = "low";
  return { level, coverage: Math.round(coverage * 1000) / 1000, continuityMinutes, unobservedRatio: unobservedRatio === null ? null : Math.round(unobservedRatio * 1000) / 1000 };
}
