import { isValidImo } from "../identifiers.ts";
import type { VesselIdentityFields } from "../vessels/vessel-identity.ts";

/**
 * What a feed that delivers decoded JSON (not NMEA) tells about a vessel, in the units the
 * service stores: a position fix, or identity fields.
 */
export interface FeedPosition {
  kind: "position";
  mmsi: number;
  /** Epoch ms of the report (the feed's receive time), else the time we received it. */
  time: number;
  /** Degrees; out-of-range values are passed on and refused (counted) by the pipeline. */
  lat: number | null;
  lon: number | null;
  sog: number | null;
  cog: number | null;
  heading: number | null;
  navStatus: number | null;
}

export interface FeedIdentity extends VesselIdentityFields {
  kind: "identity";
  mmsi: number;
}

export type FeedReport = FeedPosition | FeedIdentity;

/** A parsed message: its reports, or why it was dropped (a counter name). */
export type FeedParse = { reports: FeedReport[] } | { rejected: string };

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A finite number, or null (absent, text, NaN, a boolean...). */
export function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** A finite number, also from a numeric string (AISHub sends TIME as text). */
export function numOrText(v: unknown): number | null {
  if (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  return num(v);
}

export function validMmsi(v: unknown): number | null {
  const n = numOrText(v);
  return n !== null && Number.isInteger(n) && n >= 1 && n <= 999_999_999 ? n : null;
}

/** AIS text as received: `@` padding and trailing spaces removed; empty is null. */
export function aisText(v: unknown): string | null {
  if (typeof v !== "string") return null;
  const at = v.indexOf("@");
  const t = (at >= 0 ? v.slice(0, at) : v).replace(/\s+$/, "");
  return t === "" ? null : t.slice(0, 120);
}

/** A check-digit-valid IMO number, else null (a typo on board is not an identity). */
export function validImo(v: unknown): number | null {
  const n = numOrText(v);
  return n !== null && Number.isInteger(n) && n > 0 && isValidImo(n) ? n : null;
}

/** An AIS value with a "not available" sentinel: null for the sentinel or anything out of range. */
export function inRange(v: number | null, min: number, max: number, sentinel?: number): number | null {
  if (v === null || v === sentinel || v < min || v > max) return null;
  return v;
}

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** ETA parts as the pipeline stores them; null when month or day is "not available". */
export function etaText(month: number | null, day: number | null, hour: number | null, minute: number | null): string | null {
  if (month === null || day === null || month < 1 || month > 12 || day < 1 || day > 31) return null;
  const time = hour !== null && minute !== null && hour >= 0 && hour < 24 && minute >= 0 && minute < 60 ? `T${two(hour)}:${two(minute)}Z` : "";
  return `${two(month)}-${two(day)}${time}`;
}

/** The AIS bit-packed ETA (month bits 19-16, day 15-11, hour 10-6, minute 5-0) that Digitraffic and AISHub pass on. */
export function packedEta(v: unknown): string | null {
  const n = num(v);
  if (n === null || !Number.isInteger(n) || n < 0 || n >= 2 ** 20) return null;
  return etaText((n >> 16) & 0xf, (n >> 11) & 0x1f, (n >> 6) & 0x1f, n & 0x3f);
}

/** Dimensions to the reference point; all zero means "not available". */
export function dimensions(a: unknown, b: unknown, c: unknown, d: unknown): Pick<FeedIdentity, "toBow" | "toStern" | "toPort" | "toStarboard"> {
  const [bow, stern, port, starboard] = [a, b, c, d].map((x) => {
    const n = num(x);
    return n !== null && Number.isInteger(n) && n >= 0 && n <= 511 ? n : null;
  });
  if (bow === null || stern === null || port === null || starboard === null) return {};
  if (bow === 0 && stern === 0 && port === 0 && starboard === 0) return { toBow: null, toStern: null, toPort: null, toStarboard: null };
  return { toBow: bow, toStern: stern, toPort: port, toStarboard: starboard };
}
