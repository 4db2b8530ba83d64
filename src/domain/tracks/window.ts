import { AppError, invalidParameter } from "../errors.ts";

/**
 * The rules of a track window (docs/spec-excerpts.md, 4.2 and 8): `hours` or `from`/`to`, at most 7 days,
 * nothing before the history start, the last 24 hours open to every plan and older
 * windows within the plan's history, one credit per day of track.
 */

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
export const MAX_WINDOW_MS = 7 * DAY_MS;
export const DEFAULT_HOURS = 24;
export const MAX_HOURS = 168;
/** The first day the service holds positions for. */
export const HISTORY_START = Date.UTC(2026, 5, 1);
/** Every plan may read this far back. */
export const FREE_HISTORY_MS = DAY_MS;
/** Positions older than this live in the archive. */
export const ARCHIVE_AGE_MS = 90 * DAY_MS;
/** The archive keeps one point per vessel, station and slot of this length. */
export const ARCHIVE_SLOT_MS = 10 * 60_000;
/** Points per track, at most. */
export const MAX_POINTS = 1_500;

export interface TrackWindowInput {
  hours?: number;
  from?: number;
  to?: number;
}

export interface TrackWindow {
  from: number;
  to: number;
}

/**
 * The window an input asks for at `now`. Throws invalid_parameter naming the parameter for
 * every rule that only the clock can check (the schema checked the shapes).
 */
export function resolveWindow(input: TrackWindowInput, now: number): TrackWindow {
  if (input.hours !== undefined && (input.from !== undefined || input.to !== undefined)) {
    throw invalidParameter("hours", "is not allowed together with `from`/`to`; give either `hours` or a `from`/`to` window");
  }
  if (input.from === undefined && input.to === undefined) {
    const hours = input.hours ?? DEFAULT_HOURS;
    return { from: now - hours * HOUR_MS, to: now };
  }
  // A window reaching past now ends now: nothing is known about the future, and it is not charged for.
  const to = Math.min(input.to ?? now, now);
  // `to` alone means the 24 hours before it (no further back than the history start).
  const from = input.from ?? Math.max(to - DEFAULT_HOURS * HOUR_MS, HISTORY_START);
  if (input.to !== undefined && input.to <= HISTORY_START) {
    throw invalidParameter("to", `must be after the history start, ${new Date(HISTORY_START).toISOString()}`);
  }
  if (from < HISTORY_START) {
    throw invalidParameter("from", `must not be before the history start, ${new Date(HISTORY_START).toISOString()}: no positions are held before it`);
  }
  if (from >= now) throw invalidParameter("from", "must be in the past");
  if (from >= to) throw invalidParameter("from", "must be before `to`");
  if (to - from > MAX_WINDOW_MS) {
    throw invalidParameter(input.from !== undefined ? "from" : "to", "gives a window longer than 7 days (168 hours); ask for at most 7 days per call");
  }
  return { from, to };
}

/** One credit per day of track, days rounded up. */
export function creditsFor(window: TrackWindow): number {
  return Math.max(1, Math.ceil((window.to - window.from) / DAY_MS));
}

/**
 * The plan's history gate: the last 24 hours are open to every plan, older windows need
 * `historyDays` (null: everything held). Throws plan_lacks_feature naming `from`.
 */
export function checkHistory(window: TrackWindow, now: number, historyDays: number | null, plans: readonly string[]): void {
  if (window.from >= now - FREE_HISTORY_MS || historyDays === null) return;
  const reach = Math.max(historyDays * DAY_MS, FREE_HISTORY_MS);
  if (window.from >= now - reach) return;
  const what = historyDays > 0 ? `reaches back ${historyDays} days` : "covers the last 24 hours only";
  throw new AppError(
    "plan_lacks_feature",
    `This window starts ${Math.ceil((now - window.from) / DAY_MS)} days ago; the track history of this key's plans (${plans.join(", ") || "none"}) ${what}.`,
    { param: "from", rule: `must be within the plan's track history (${what})`, feature: "trackHistory" },
  );
}

/** Bucket lengths that read well (seconds); the smallest one giving at most MAX_POINTS is used. */
const NICE_BUCKETS_S = [1, 2, 5, 10, 15, 20, 30, 60, 120, 180, 300, 600, 900, 1800, 3600];

/**
 * Buckets of a window at length `bucketMs`. Bucket edges are multiples of the length since
 * the epoch (UTC), so a bucket covers the same span in every request and in every window
 * that contains it (and a whole minute of fixes, whenever the length is whole minutes); the
 * first and the last bucket may be cut by the window's ends.
 */
export function bucketCount(window: TrackWindow, bucketMs: number): number {
  return Math.ceil(window.to / bucketMs) - Math.floor(window.from / bucketMs);
}

/** The bucket a time falls in: its start divided by the length. */
export function bucketIndex(time: number, bucketMs: number): number {
  return Math.floor(time / bucketMs);
}

/** The bucket length of a window: the shortest "nice" one that keeps the buckets at or under MAX_POINTS. */
export function bucketMsFor(window: TrackWindow): number {
  for (const s of NICE_BUCKETS_S) if (bucketCount(window, s * 1000) <= MAX_POINTS) return s * 1000;
  // Not reached for windows of at most 7 days (an hour gives at most 169); one bucket is kept spare for the cut ends.
  return Math.ceil((window.to - window.from) / (MAX_POINTS - 1) / 1000) * 1000;
}

/** Where the archive ends at `now`: positions before it are archived (or on their way there). */
export function archiveBoundary(now: number): number {
  return now - ARCHIVE_AGE_MS;
}

/** ITU-R M.1371 navigational status codes, as the names the track shows. */
const NAV_STATUS = [
  "under_way_using_engine",
  "at_anchor",
  "not_under_command",
  "restricted_manoeuvrability",
  "constrained_by_draught",
  "moored",
  "aground",
  "engaged_in_fishing",
  "under_way_sailing",
  "reserved_hsc",
  "reserved_wig",
  "power_driven_towing_astern",
  "power_driven_pushing_ahead_or_towing_alongside",
  "reserved",
  "ais_sart_active",
  "not_defined",
] as const;

export function navStatusName(code: number | null): string {
  return (code !== null && NAV_STATUS[code]) || "not_defined";
}

/**
 * ISO 8601 timestamp with a zone (`Z` or an offset), or a date alone (midnight UTC).
 * A timestamp without a zone is refused: which clock it means cannot be known.
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?))?$/i;

export function parseIsoTime(text: string): number | null {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  if (h !== undefined && zone === undefined) return null;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h ?? 0);
  const minute = Number(mi ?? 0);
  const second = Number(s ?? 0);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const base = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 2026-02-30 over to March; a date that does not round-trip does not exist.
  if (new Date(base).getUTCDate() !== day) return null;
  const ms = frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0;
  let offset = 0;
  if (zone && zone.toUpperCase() !== "Z") {
    const sign = zone[0] === "-" ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2) || 0);
    if (oh > 14 || om > 59) return null;
    offset = sign * (oh * 60 + om) * 60_000;
  }
  return base + ms - offset;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);
let isoDay = Number.NaN;
let isoDayText = "";

/**
 * `new Date(t).toISOString()` for times from 1970 to 9999, about eight times faster: a track
 * formats up to 1,500 times per answer, which with toISOString took more time than its query.
 * The date part is remembered per day (a track's points share a few days).
 */
export function formatIsoTime(t: number): string {
  const day = Math.floor(t / DAY_MS);
  if (t < 0 || t >= 253_402_300_800_000) return new Date(t).toISOString();
  if (day !== isoDay) {
    isoDay = day;
    isoDayText = new Date(day * DAY_MS).toISOString().slice(0, 11);
  }
  let rest = t - day * DAY_MS;
  const h = Math.floor(rest / HOUR_MS);
  rest -= h * HOUR_MS;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  return `${isoDayText}${pad2(h)}:${pad2(m)}:${pad2(s)}.${pad3(Math.floor(rest - s * 1000))}Z`;
}
