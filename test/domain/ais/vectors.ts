// Test adapter: runs the shared AIS vectors (test/fixtures/ais/*.jsonl) through the
// decoder and compares with the vectors' flat schema (see VECTORS_README.md there).
// The schema keeps raw "not available" values and some other names; the mapping
// from this decoder's API is in toFlat() and documented in test/fixtures/ais/README.md.

import { readFileSync } from "node:fs";
import { createAisDecoder, type DecodedAisMessage } from "../../../src/domain/ais/index.ts";

export const FIXTURES = new URL("../../fixtures/ais/", import.meta.url);

/** Vector files with one message per record (`nmea` + `expected`). */
export const RECORD_FILES = [
  "gpsd_sample_aivdm.jsonl",
  "gpsd_daemon_ais_nmea_type6_fid55.jsonl",
  "gpsd_daemon_ais_nmea.jsonl",
  "gpsd_daemon_ais_raw_messages.jsonl",
  "gpsd_daemon_ais_18_27.jsonl",
  "gpsd_daemon_ais_unpack_sixbit.jsonl",
  "libais_test_data.jsonl",
  "libais_typeexamples.jsonl",
  "libais_tagblock.jsonl",
  "pyais_test_decode.jsonl",
] as const;

/**
 * Vector ids (file:line) that are knowingly not matched, with the reason. Each one
 * is also listed in test/fixtures/ais/README.md; the tests skip exactly these.
 */
export const KNOWN_MISMATCHES: ReadonlyMap<string, string> = new Map<string, string>([
  [
    "gpsd_sample_aivdm.jsonl:65",
    "a 168-bit type 27 (M.1371 fixes it at 96 bits): gpsd decodes it, this decoder drops it as illegal_length " +
      "(its fields say 57 kn, not under command, at 4.84 N 137.02 E for a Belgian MMSI; see docs/ais-decoding.md)",
  ],
  ["pyais_test_decode.jsonl:66", "the same 168-bit type 27 as gpsd_sample_aivdm.jsonl:65: pyais decodes it, this decoder drops it as illegal_length"],
  [
    "pyais_test_decode.jsonl:75",
    "pyais collapses the undefined EPFD value 14 to 0; gpsd and this decoder report the raw 14 " +
      '(the same sentence is tricky_cases "position-out-of-range", which expects epfd 14)',
  ],
]);

export type Json = Record<string, unknown>;

export function readJsonl(name: string): Json[] {
  const text = readFileSync(new URL(name, FIXTURES), "utf8");
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Json);
}

/** Map a decoded message to the vectors' flat schema (raw sentinels, their names). */
export function toFlat(m: DecodedAisMessage): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(m)) out[k] = v;
  const t = m.type;
  const na = (k: string, raw: unknown): void => {
    if (k in out && out[k] === null) out[k] = raw;
  };
  na("lat", 91);
  na("lon", 181);
  na("heading", 511);
  na("rot", -128);
  na("sog", t === 9 ? 1023 : t === 27 ? 63 : 102.3);
  na("cog", t === 27 ? 511 : 360);
  na("altitudeM", 4095);
  na("imo", 0);
  na("draught", 0);
  na("etaMonth", 0);
  na("etaDay", 0);
  na("etaHour", 24);
  na("etaMinute", 60);
  if (t === 4 || t === 11) {
    na("year", 0);
    na("month", 0);
    na("day", 0);
    na("hour", 24);
    na("minute", 60);
    na("second", 60);
  }
  const rename: Record<string, string> = {
    shipType: "shiptype",
    vendorId: "vendorid",
    vendorIdLegacy: "vendoridLegacy",
    altitudeM: "alt",
  };
  for (const [from, to] of Object.entries(rename)) {
    if (from in out) {
      out[to] = out[from];
      delete out[from];
    }
  }
  return out;
}

function tolerance(file: string, key: string): number {
  const pos = key === "lat" || key === "lon";
  // libais values are float32 (about 7 significant digits); pyais rounds positions to 6 decimals.
  if (file.startsWith("libais")) return pos ? 2e-5 : 1e-4;
  if (file.startsWith("pyais")) return pos ? 1e-6 : 1e-9;
  return 1e-9;
}

/** Keys of `expected` that describe the envelope or another decoder's extra output. */
const SPECIAL_KEYS = new Set(["tagblock", "rotDegPerMin_libais", "rotOverRange_libais"]);

/** Compare one decoded message with one expected flat record; returns the differences. */
export function compare(file: string, expected: Json, msg: DecodedAisMessage | Json): string[] {
  const flat = "own" in msg ? toFlat(msg as DecodedAisMessage) : (msg as Json);
  const diffs: string[] = [];
  for (const [k, e] of Object.entries(expected)) {
    if (SPECIAL_KEYS.has(k)) continue;
    const a = flat[k];
    if (typeof e === "boolean" || typeof a === "boolean") {
      if (Number(e) !== Number(a)) diffs.push(`${k}: expected ${JSON.stringify(e)}, got ${JSON.stringify(a)}`);
    } else if (typeof e === "number") {
      if (typeof a !== "number" || !(Math.abs(a - e) <= tolerance(file, k))) {
        diffs.push(`${k}: expected ${e}, got ${JSON.stringify(a)}`);
      }
    } else if (e !== a) {
      diffs.push(`${k}: expected ${JSON.stringify(e)}, got ${JSON.stringify(a)}`);
    }
  }
  // libais reports ROT in deg/min, and a number (+-731.4) for the "over range" and
  // "not available" indicators, which this decoder reports as turnDegPerMin = null.
  if ("rotOverRange_libais" in expected) {
    const tr = flat["turnDegPerMin"];
    if (expected["rotOverRange_libais"] === true) {
      if (tr !== null) diffs.push(`turnDegPerMin: expected null (libais over range), got ${tr}`);
    } else {
      const e = expected["rotDegPerMin_libais"] as number;
      if (typeof tr !== "number" || Math.abs(tr - e) > 1e-3) diffs.push(`turnDegPerMin: expected ${e}, got ${tr}`);
    }
  }
  // Tag block: s -> station, c -> time (seconds, or ms above 1e11). T and g are not exposed.
  const tag = expected["tagblock"] as Json | undefined;
  if (tag !== undefined) {
    if ("s" in tag && tag["s"] !== flat["station"]) {
      diffs.push(`station: expected ${JSON.stringify(tag["s"])}, got ${JSON.stringify(flat["station"])}`);
    }
    if (typeof tag["c"] === "number") {
      const c = tag["c"];
      const ms = c > 1e11 ? c : c * 1000;
      if (flat["time"] !== ms) diffs.push(`time: expected ${ms} (tag c:${c}), got ${JSON.stringify(flat["time"])}`);
    }
  }
  return diffs;
}

export const RECEIVED_AT = 1_600_000_000_000;

/** Feed lines into a fresh decoder and collect what it emits. */
export function decodeLines(lines: readonly string[]): DecodedAisMessage[] {
  const dec = createAisDecoder({ fragmentTimeoutMs: 60_000 });
  const out: DecodedAisMessage[] = [];
  let t = RECEIVED_AT;
  for (const line of lines) {
    const m = dec.feed(line, { source: "vectors", receivedAt: t });
    t += 10;
    if (m !== null) out.push(m);
  }
  return out;
}

export interface RecordResult {
  id: string;
  ok: boolean;
  diffs: string[];
}

/** Run one record of a RECORD_FILES file. */
export function runRecord(file: string, index: number, rec: Json): RecordResult {
  const id = `${file}:${index + 1}`;
  const lines = rec["nmea"] as string[];
  const msgs = decodeLines(lines);
  const expected = rec["expected"] as Json | undefined;
  const mustFail = rec["expect_error"] !== undefined || rec["checksum_ok"] === false || expected === undefined;
  if (mustFail) {
    const ok = msgs.length === 0;
    return { id, ok, diffs: ok ? [] : [`expected no message, got ${msgs.length} (type ${msgs[0]?.type})`] };
  }
  // gpsd reports type 24 as a merged part A + part B; this decoder emits both parts.
  const merged24 = expected["type"] === 24 && lines.length === 2 && !("partno" in expected);
  if (merged24) {
    if (msgs.length !== 2) return { id, ok: false, diffs: [`expected 2 type-24 parts, got ${msgs.length}`] };
    const flat: Json = { ...toFlat(msgs[0]!), ...toFlat(msgs[1]!) };
    delete flat["partno"];
    const diffs = compare(file, expected, flat);
    return { id, ok: diffs.length === 0, diffs };
  }
  if (msgs.length !== 1) return { id, ok: false, diffs: [`expected 1 message, got ${msgs.length}`] };
  const diffs = compare(file, expected, msgs[0]!);
  return { id, ok: diffs.length === 0, diffs };
}

/** Run a tricky_cases.jsonl record (a stream and the ordered list of expected messages). */
export function runTricky(rec: Json): RecordResult {
  const id = `tricky_cases.jsonl:${rec["id"] as string}`;
  const msgs = decodeLines(rec["stream"] as string[]);
  const tryList = (list: Json[]): string[] => {
    if (list.length !== msgs.length) return [`expected ${list.length} messages, got ${msgs.length}`];
    const diffs: string[] = [];
    list.forEach((e, i) => {
      for (const d of compare("tricky_cases.jsonl", e, msgs[i]!)) diffs.push(`#${i}: ${d}`);
    });
    return diffs;
  };
  const diffs = tryList(rec["expected_messages"] as Json[]);
  if (diffs.length > 0 && Array.isArray(rec["acceptable_alternative"])) {
    const alt = tryList(rec["acceptable_alternative"] as Json[]);
    if (alt.length === 0) return { id, ok: true, diffs: [] };
  }
  return { id, ok: diffs.length === 0, diffs };
}
