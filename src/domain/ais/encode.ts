// AIS encoder: the inverse of payload-decoder.ts for the messages a receiving station hears most
// (types 1/2/3, 5, 18, 24 A/B), and NMEA 0183 framing of the payload into !AIVDM sentences.
//
// Why we have one: the station simulator and the ingest benchmarks need real-looking
// NMEA, and the npm encoders are not good enough for that (ggencoder truncates positions
// by one LSB in ~10% of reports and sends type 5 as one 71-character sentence; see
// docs/ais-decoding.md). Field layouts and sentinels follow ITU-R M.1371-5 Annex 8 and the gpsd
// AIVDM page, the same references as the decoder. Pure: no I/O, no clock.

import type { PositionReportClassA, PositionReportClassB, StaticVoyageData } from "./messages.ts";

/** What an encoder takes of a decoded message: the `Given` fields as decoded, the `Defaulted` ones optional (the "not available" or usual value when absent). */
type EncodeInput<M, Given extends keyof M, Defaulted extends keyof M> = Pick<M, Given> & Partial<Pick<M, Defaulted>>;

/** Six-bit text (M.1371-5 table): '@'..'_' are 0..31, ' '..'?' are 32..63. */
function sixbitChar(code: number): number {
  if (code >= 97 && code <= 122) code -= 32; // lower case has no six-bit code: send upper case
  if (code >= 64 && code <= 95) return code - 64;
  if (code >= 32 && code <= 63) return code;
  return 32; // anything else becomes a space rather than a wrong letter
}

/** Accumulates bit fields MSB first, then armors them six bits per character. */
class BitWriter {
  readonly bytes: Uint8Array;
  length = 0;

  constructor(bits: number) {
    this.bytes = new Uint8Array(bits);
  }

  /** `value` in `width` bits (<= 32), two's complement when negative. */
  uint(value: number, width: number): this {
    const v = value < 0 ? 2 ** width + value : value;
    for (let i = width - 1; i >= 0; i--) this.bytes[this.length++] = Math.floor(v / 2 ** i) % 2;
    return this;
  }

  bool(value: boolean): this {
    this.bytes[this.length++] = value ? 1 : 0;
    return this;
  }

  /** Exactly `chars` six-bit characters, padded with '@' (the "no character" code). */
  text(s: string, chars: number): this {
    for (let i = 0; i < chars; i++) this.uint(i < s.length ? sixbitChar(s.charCodeAt(i)) : 0, 6);
    return this;
  }

  /** The armored payload and its fill bits (the zero bits added to end on a character). */
  armor(): { payload: string; fill: number } {
    const fill = (6 - (this.length % 6)) % 6;
    let payload = "";
    for (let i = 0; i < this.length + fill; i += 6) {
      let v = 0;
      for (let k = 0; k < 6; k++) v = (v << 1) | (i + k < this.length ? this.bytes[i + k]! : 0);
      payload += String.fromCharCode(v < 40 ? v + 48 : v + 56);
    }
    return { payload, fill };
  }
}

/** A message of `bits` bits, its header written: type, repeat indicator and MMSI (M.1371-5 Annex 8, the same in every message). */
function message(bits: number, type: number, m: { repeat?: number; mmsi: number }): BitWriter {
  return new BitWriter(bits).uint(type, 6).uint(m.repeat ?? 0, 2).uint(m.mmsi, 30);
}

/** Distances from the reference point to bow, stern, port and starboard (types 5 and 24 B), at their field maximums. */
function writeDimensions(w: BitWriter, m: { toBow: number; toStern: number; toPort: number; toStarboard: number }): BitWriter {
  return w.uint(Math.min(511, m.toBow), 9).uint(Math.min(511, m.toStern), 9).uint(Math.min(63, m.toPort), 6).uint(Math.min(63, m.toStarboard), 6);
}

/** Degrees to the 1/10000 minute units of positions, with the "not available" sentinel. */
function position(deg: number | null, sentinel: number): number {
  return Math.round((deg ?? sentinel) * 600_000);
}

function tenths(v: number | null | undefined, sentinel: number, max: number): number {
  if (v === null || v === undefined || !Number.isFinite(v)) return sentinel;
  return Math.min(max, Math.max(0, Math.round(v * 10)));
}

function wholeOr(v: number | null | undefined, sentinel: number): number {
  return v === null || v === undefined || !Number.isFinite(v) ? sentinel : Math.round(v);
}

export type EncodePositionA = EncodeInput<
  PositionReportClassA,
  "mmsi" | "sog" | "lat" | "lon" | "cog" | "heading",
  "type" | "repeat" | "navStatus" | "rot" | "accuracy" | "second" | "maneuver" | "raim" | "radio"
>;

/** Speed, accuracy, position, course, heading and second: the same fields of the same widths in types 1-3 and 18. */
function writeMotion(w: BitWriter, m: EncodePositionA | EncodePositionB): BitWriter {
  return w
    .uint(tenths(m.sog, 1023, 1022), 10)
    .bool(m.accuracy ?? false)
    .uint(position(m.lon, 181), 28)
    .uint(position(m.lat, 91), 27)
    .uint(tenths(m.cog, 3600, 3599), 12)
    .uint(wholeOr(m.heading, 511), 9)
    .uint(m.second ?? 60, 6);
}

/** Types 1/2/3, Class A position report (168 bits). */
export function encodePositionA(m: EncodePositionA): { payload: string; fill: number } {
  const head = message(168, m.type ?? 1, m)
    .uint(m.navStatus ?? 15, 4)
    .uint(m.rot === null || m.rot === undefined ? -128 : m.rot, 8);
  return writeMotion(head, m)
    .uint(m.maneuver ?? 0, 2)
    .uint(0, 3)
    .bool(m.raim ?? false)
    .uint(m.radio ?? 0, 19)
    .armor();
}

/** `cs`: the Class B unit type, carrier sense (CS) unless false (the common kind). */
export type EncodePositionB = EncodeInput<PositionReportClassB, "mmsi" | "sog" | "lat" | "lon" | "cog" | "heading", "repeat" | "accuracy" | "second" | "cs">;

/** Type 18, standard Class B position report (168 bits). */
export function encodePositionB(m: EncodePositionB): { payload: string; fill: number } {
  const head = message(168, 18, m).uint(0, 8);
  return writeMotion(head, m)
    .uint(0, 2)
    .bool(m.cs ?? true)
    .bool(false)
    .bool(true)
    .bool(true)
    .bool(false)
    .bool(false)
    .bool(false)
    .uint(m.cs === false ? 0 : 393222, 20)
    .armor();
}

export type EncodeStatic = EncodeInput<
  StaticVoyageData,
  "mmsi" | "imo" | "callsign" | "shipname" | "shipType" | "toBow" | "toStern" | "toPort" | "toStarboard" | "destination",
  "repeat" | "aisVersion" | "epfd" | "etaMonth" | "etaDay" | "etaHour" | "etaMinute" | "draught" | "dte"
>;

/** Type 5, static and voyage related data (424 bits: two sentences). */
export function encodeStatic(m: EncodeStatic): { payload: string; fill: number } {
  const named = message(424, 5, m)
    .uint(m.aisVersion ?? 2, 2)
    .uint(m.imo ?? 0, 30)
    .text(m.callsign, 7)
    .text(m.shipname, 20)
    .uint(m.shipType, 8);
  return writeDimensions(named, m)
    .uint(m.epfd ?? 1, 4)
    .uint(m.etaMonth ?? 0, 4)
    .uint(m.etaDay ?? 0, 5)
    .uint(m.etaHour ?? 24, 5)
    .uint(m.etaMinute ?? 60, 6)
    .uint(tenths(m.draught, 0, 255), 8)
    .text(m.destination, 20)
    .bool(m.dte ?? false)
    .uint(0, 1)
    .armor();
}

/** Type 24 part A: Class B name (160 bits). */
export function encodeStaticB_A(m: { repeat?: number; mmsi: number; shipname: string }): { payload: string; fill: number } {
  return message(160, 24, m).uint(0, 2).text(m.shipname, 20).armor();
}

/** Type 24 part B: Class B ship type, vendor, call sign and dimensions (168 bits). */
export function encodeStaticB_B(m: {
  repeat?: number;
  mmsi: number;
  shipType: number;
  vendorId?: string;
  model?: number;
  serial?: number;
  callsign: string;
  toBow: number;
  toStern: number;
  toPort: number;
  toStarboard: number;
}): { payload: string; fill: number } {
  const named = message(168, 24, m)
    .uint(1, 2)
    .uint(m.shipType, 8)
    .text(m.vendorId ?? "", 3)
    .uint(m.model ?? 0, 4)
    .uint(m.serial ?? 0, 20)
    .text(m.callsign, 7);
  return writeDimensions(named, m).uint(0, 6).armor();
}

/** XOR of the characters, as two upper-case hex digits (IEC 61162-1). */
export function nmeaChecksum(body: string): string {
  let x = 0;
  for (let i = 0; i < body.length; i++) x ^= body.charCodeAt(i);
  return (x < 16 ? "0" : "") + x.toString(16).toUpperCase();
}

export interface SentenceOptions {
  /** Two-character talker; default AI (mobile AIS station). */
  talker?: string;
  /** Radio channel A or B; default A. */
  channel?: string;
  /** Sequential message id 0..9 for multi-sentence messages; default 0. */
  sequenceId?: number;
  /** Payload characters per sentence; 60 keeps sentences within NMEA's 82 characters. */
  maxPayload?: number;
  /** Epoch milliseconds to put in an NMEA 4.0 tag block `c:` (whole seconds), when given. */
  time?: number;
  /** Tag block `s:` source station, when given. */
  station?: string;
}

/**
 * Frames an armored payload into !AIVDM sentences, split into fragments as a receiver
 * does (the fill bits go on the last one). With `time` or `station`, the first sentence
 * carries an NMEA 4.0 tag block, as AIS-catcher and most aggregators can emit.
 */
export function toSentences(armored: { payload: string; fill: number }, options: SentenceOptions = {}): string[] {
  const talker = options.talker ?? "AI";
  const channel = options.channel ?? "A";
  const max = options.maxPayload ?? 60;
  const { payload, fill } = armored;
  const total = Math.max(1, Math.ceil(payload.length / max));
  const seq = total > 1 ? String(options.sequenceId ?? 0) : "";
  const out: string[] = [];
  for (let n = 1; n <= total; n++) {
    const part = payload.slice((n - 1) * max, n * max);
    const body = `${talker}VDM,${total},${n},${seq},${channel},${part},${n === total ? fill : 0}`;
    let line = `!${body}*${nmeaChecksum(body)}`;
    if (n === 1 && (options.time !== undefined || options.station !== undefined)) {
      const tags: string[] = [];
      if (options.station !== undefined) tags.push(`s:${options.station}`);
      if (options.time !== undefined) tags.push(`c:${Math.floor(options.time / 1000)}`);
      const tag = tags.join(",");
      line = `\\${tag}*${nmeaChecksum(tag)}\\${line}`;
    }
    out.push(line);
  }
  return out;
}
