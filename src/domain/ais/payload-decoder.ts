// Payload decoding: six-bit symbols -> typed message objects.
//
// Bit offsets are those of ITU-R M.1371-5 Annex 8 and of the gpsd AIVDM page
// (https://gpsd.gitlab.io/gpsd/AIVDM.html), counted from bit 0 = MSB of the first
// payload character. Every decoder checks the message length first, so field reads
// stay inside the symbol buffer (plus its zero padding).
//
// Longer than the house's 400 lines on purpose: this is the decoder's hot path, one
// function per message type reading one shared symbol buffer; split across modules the
// per-type functions would need that buffer exported and lose inlining (bench/ais-decode.md).

import type {
  AidToNavigationReport,
  BaseStationReport,
  DecodedAisMessage,
  GenericMessage,
  GenericMessageType,
  LongRangeReport,
  PositionReportClassA,
  PositionReportClassB,
  StaticDataReportA,
  StaticDataReportB,
  StaticVoyageData,
} from "./messages.ts";
import {
  AIS_REASONS,
  type AisReason,
  R_BAD_FILL,
  R_BAD_PAYLOAD_CHAR,
  R_EMPTY_PAYLOAD,
  R_ILLEGAL_LENGTH,
  R_PAYLOAD_TOO_SHORT,
  R_UNKNOWN_TYPE24_PART,
} from "./reasons.ts";
import { withinLegalLength } from "./lengths.ts";
import { bit, clearFrom, s, symbols, text, u, unpackArmored } from "./sixbit.ts";

// "Not available" raw values (M.1371-5 Annex 8, descriptions of messages 1-5, 9, 17, 18, 27).
/** 181 degrees in 1/10000 minute. */
const LON_NA = 181 * 600000;
/** 91 degrees in 1/10000 minute. */
const LAT_NA = 91 * 600000;
/** 181 / 91 degrees in 1/10 minute (types 17 and 27). */
const LON_NA_TENTH = 181 * 600;
const LAT_NA_TENTH = 91 * 600;
/** 181 / 91 degrees in 1/1000 minute (meteorological ASMs). */
const LON_NA_MILLI = 181 * 60000;
const LAT_NA_MILLI = 91 * 60000;

// Shortest accepted message, in bits, per type: up to the last field decoded other
// than the trailing communication state, which is read from the bits present (gpsd
// accepts type 1-3 from 163 bits, its comment: "most of our samples are 168, but
// some are 163 and 204"; here anything that reaches the RAIM flag is decoded).
const MIN_BITS_HEADER = 38;
const MIN_BITS_POS_A = 149;
const MIN_BITS_BASE = 149;
const MIN_BITS_STATIC = 420; // 424 nominal; a report cut to 70 characters still decodes, the missing bits read as 0.
const MIN_BITS_BIN6 = 88;
const MIN_BITS_BIN8 = 56;
const MIN_BITS_SAR = 148;
const MIN_BITS_GNSS = 75;
const MIN_BITS_POS_B = 148;
const MIN_BITS_EXT_B = 308;
const MIN_BITS_ATON = 271;
const MIN_BITS_24_PARTNO = 40;
const MIN_BITS_24A = 160;
const MIN_BITS_24B = 162;
const MIN_BITS_LONG_RANGE = 95;

/** Internal result: a message, or a reason code (index into AIS_REASONS). */
export type DecodeOutcome = DecodedAisMessage | number;

function lon28(start: number): number | null {
  const v = s(start, 28);
  return v === LON_NA ? null : v / 600000;
}

function lat27(start: number): number | null {
  const v = s(start, 27);
  return v === LAT_NA ? null : v / 600000;
}

function sog10(start: number): number | null {
  const v = u(start, 10);
  return v === 1023 ? null : v / 10;
}

function cog12(start: number): number | null {
  const v = u(start, 12);
  return v === 3600 ? null : v / 10;
}

/**
 * Trailing communication-state field. When the message is cut short (163-bit type 1
 * reports exist) only the bits actually present are read, right-aligned, as gpsd
 * does; fill bits are never part of the value.
 */
function radio(start: number, len: number, bitLen: number): number {
  const avail = bitLen - start;
  if (avail >= len) return u(start, len);
  return avail > 0 ? u(start, avail) : 0;
}

function heading9(start: number): number | null {
  const v = u(start, 9);
  return v === 511 ? null : v;
}

/**
 * Types 1-3 of full length (168 bits or more, nearly every report): the same fields as
 * the general case below, read straight from the six-bit symbols at their fixed offsets
 * (M.1371-5 Annex 8, message 1), since these reports are most of any feed.
 */
function positionA(
  type: 1 | 2 | 3,
  repeat: number,
  mmsi: number,
  time: number | null,
  station: string | null,
  source: string | null,
  channel: string | null,
  own: boolean,
): PositionReportClassA {
  const b = symbols();
  const s7 = b[7]!;
  const s8 = b[8]!;
  const s10 = b[10]!;
  const s14 = b[14]!;
  const s19 = b[19]!;
  const s21 = b[21]!;
  const s22 = b[22]!;
  const s23 = b[23]!;
  const s24 = b[24]!;
  // Bits 42-49, signed.
  const rotRaw = (((s7 << 2) | (s8 >> 4)) << 24) >> 24;
  const rot = rotRaw === -128 ? null : rotRaw;
  let turnDegPerMin: number | null = null;
  if (rot !== null && rot !== 127 && rot !== -127) {
    const r = rot / 4.733;
    turnDegPerMin = rot < 0 ? -(r * r) : r * r;
  }
  const sog = ((s8 & 15) << 6) | b[9]!; // bits 50-59
  // Bits 61-88 and 89-115, signed 28 and 27 bits.
  const lon = ((((s10 & 31) << 23) | (b[11]! << 17) | (b[12]! << 11) | (b[13]! << 5) | (s14 >> 1)) << 4) >> 4;
  const lat = ((((s14 & 1) << 26) | (b[15]! << 20) | (b[16]! << 14) | (b[17]! << 8) | (b[18]! << 2) | (s19 >> 4)) << 5) >> 5;
  const cog = ((s19 & 15) << 8) | (b[20]! << 2) | (s21 >> 4); // bits 116-127
  const heading = ((s21 & 15) << 5) | (s22 >> 1); // bits 128-136
  return {
    type,
    repeat,
    mmsi,
    time,
    station,
    source,
    channel,
    own,
    navStatus: b[6]! & 15,
    rot,
    turnDegPerMin,
    sog: sog === 1023 ? null : sog / 10,
    accuracy: (s10 & 32) !== 0,
    lon: lon === LON_NA ? null : lon / 600000,
    lat: lat === LAT_NA ? null : lat / 600000,
    cog: cog === 3600 ? null : cog / 10,
    heading: heading === 511 ? null : heading,
    second: ((s22 & 1) << 5) | (s23 >> 1),
    maneuver: ((s23 & 1) << 1) | (s24 >> 5),
    raim: (s24 & 2) !== 0,
    radio: ((s24 & 1) << 18) | (b[25]! << 12) | (b[26]! << 6) | b[27]!,
  };
}

/** Type 18 of full length (168 bits), read at its fixed offsets like positionA(). */
function positionB(
  repeat: number,
  mmsi: number,
  time: number | null,
  station: string | null,
  source: string | null,
  channel: string | null,
  own: boolean,
): PositionReportClassB {
  const b = symbols();
  const s9 = b[9]!;
  const s14 = b[14]!;
  const s18 = b[18]!;
  const s20 = b[20]!;
  const s22 = b[22]!;
  const s23 = b[23]!;
  const s24 = b[24]!;
  const sog = ((b[7]! & 3) << 8) | (b[8]! << 2) | (s9 >> 4); // bits 46-55
  // Bits 57-84 and 85-111, signed 28 and 27 bits.
  const lon = ((((s9 & 7) << 25) | (b[10]! << 19) | (b[11]! << 13) | (b[12]! << 7) | (b[13]! << 1) | (s14 >> 5)) << 4) >> 4;
  const lat = ((((s14 & 31) << 22) | (b[15]! << 16) | (b[16]! << 10) | (b[17]! << 4) | (s18 >> 2)) << 5) >> 5;
  const cog = ((s18 & 3) << 10) | (b[19]! << 4) | (s20 >> 2); // bits 112-123
  const heading = ((s20 & 3) << 7) | (b[21]! << 1) | (s22 >> 5); // bits 124-132
  return {
    type: 18,
    repeat,
    mmsi,
    time,
    station,
    source,
    channel,
    own,
    sog: sog === 1023 ? null : sog / 10,
    accuracy: (s9 & 8) !== 0,
    lon: lon === LON_NA ? null : lon / 600000,
    lat: lat === LAT_NA ? null : lat / 600000,
    cog: cog === 3600 ? null : cog / 10,
    heading: heading === 511 ? null : heading,
    second: ((s22 & 31) << 1) | (s23 >> 5),
    cs: (s23 & 4) !== 0,
    display: (s23 & 2) !== 0,
    dsc: (s23 & 1) !== 0,
    band: (s24 & 32) !== 0,
    msg22: (s24 & 16) !== 0,
    assigned: (s24 & 8) !== 0,
    raim: (s24 & 4) !== 0,
    radio: ((s24 & 3) << 18) | (b[25]! << 12) | (b[26]! << 6) | b[27]!,
  };
}

/** Decode the symbols currently unpacked (bitLen valid bits) with the given envelope. */
export function decodeUnpacked(
  bitLen: number,
  time: number | null,
  station: string | null,
  source: string | null,
  channel: string | null,
  own: boolean,
): DecodeOutcome {
  if (bitLen < MIN_BITS_HEADER) return R_PAYLOAD_TOO_SHORT;
  clearFrom(bitLen);
  const type = u(0, 6);
  const repeat = u(6, 2);
  const mmsi = u(8, 30);
  // A stored type longer than the standard allows would have its fields read from the wrong bits.
  // (Type 24 is judged once its part number is known: an unknown part is its own reason.)
  if (type !== 24 && !withinLegalLength(type, bitLen)) return R_ILLEGAL_LENGTH;
  switch (type) {
    case 1:
    case 2:
    case 3: {
      if (bitLen >= 168) return positionA(type, repeat, mmsi, time, station, source, channel, own);
      if (bitLen < MIN_BITS_POS_A) return R_PAYLOAD_TOO_SHORT;
      const rotRaw = s(42, 8);
      const rot = rotRaw === -128 ? null : rotRaw;
      let turnDegPerMin: number | null = null;
      if (rot !== null && rot !== 127 && rot !== -127) {
        const r = rot / 4.733;
        turnDegPerMin = rot < 0 ? -(r * r) : r * r;
      }
      const m: PositionReportClassA = {
        type,
        repeat,
        mmsi,
        time,
        station,
        source,
        channel,
        own,
        navStatus: u(38, 4),
        rot,
        turnDegPerMin,
        sog: sog10(50),
        accuracy: bit(60),
        lon: lon28(61),
        lat: lat27(89),
        cog: cog12(116),
        heading: heading9(128),
        second: u(137, 6),
        maneuver: u(143, 2),
        raim: bit(148),
        radio: radio(149, 19, bitLen),
      };
      return m;
    }
    case 4:
    case 11: {
      if (bitLen < MIN_BITS_BASE) return R_PAYLOAD_TOO_SHORT;
      const year = u(38, 14);
      const month = u(52, 4);
      const day = u(56, 5);
      const hour = u(61, 5);
      const minute = u(66, 6);
      const second = u(72, 6);
      const m: BaseStationReport = {
        type,
        repeat,
        mmsi,
        time,
        station,
        source,
        channel,
        own,
        year: year === 0 ? null : year,
        month: month === 0 ? null : month,
        day: day === 0 ? null : day,
        hour: hour === 24 ? null : hour,
        minute: minute === 60 ? null : minute,
        second: second === 60 ? null : second,
        accuracy: bit(78),
        lon: lon28(79),
        lat: lat27(107),
        epfd: u(134, 4),
        raim: bit(148),
        radio: radio(149, 19, bitLen),
      };
      return m;
    }
    case 5: {
      if (bitLen < MIN_BITS_STATIC) return R_PAYLOAD_TOO_SHORT;
      const imo = u(40, 30);
      const etaMonth = u(274, 4);
      const etaDay = u(278, 5);
      const etaHour = u(283, 5);
      const etaMinute = u(288, 6);
      const draught = u(294, 8);
      const m: StaticVoyageData = {
        type,
        repeat,
        mmsi,
        time,
        station,
        source,
        channel,
        own,
        aisVersion: u(38, 2),
        imo: imo === 0 ? null : imo,
        callsign: text(70, 7),
        shipname: text(112, 20),
        shipType: u(232, 8),
        toBow: u(240, 9),
        toStern: u(249, 9),
        toPort: u(258, 6),
        toStarboard: u(264, 6),
        epfd: u(270, 4),
        etaMonth: etaMonth === 0 ? null : etaMonth,
        etaDay: etaDay === 0 ? null : etaDay,
        etaHour: etaHour === 24 ? null : etaHour,
        etaMinute: etaMinute === 60 ? null : etaMinute,
        draught: draught === 0 ? null : draught / 10,
        destination: text(302, 20),
        dte: bit(422),
      };
      return m;
    }
    case 6: {
      if (bitLen < MIN_BITS_BIN6) return R_PAYLOAD_TOO_SHORT;
      return {
        type,
        repeat,
        mmsi,
        time,
        station,
        source,
        channel,
        own,
        seqno: u(38, 2),
        destMmsi: u(40, 30),
        retransmit: bit(70),
        dac: u(72, 10),
        fi: u(82, 6),
      };
    }
    case 8: {
      if (bitLen < MIN_BITS_BIN8) return R_PAYLOAD_TOO_SHORT;
      const dac = u(40, 10);
      const fi = u(50, 6);
      let lon: number | null = null;
      let lat: number | null = null;
      // Meteorological ASMs that carry the observation position as a 25-bit
      // longitude and 24-bit latitude in 1/1000 minute. Layouts:
      // DAC 1 FI 11 (IMO SN/Circ.236): lat @56, lon @80, message 352 bits;
      // DAC 1 FI 31 (IMO SN.1/Circ.289): lon @56, lat @81, 360 bits;
      // DAC 367 FI 23 (satellite ship weather): version, day, hour, minute, then lon @75, lat @100;
      // DAC 367 FI 24 (satellite ship weather, small): version, hour, minute, then lon @70, lat @95.
      let lonAt = -1;
      let latAt = -1;
      if (dac === 1 && fi === 11 && bitLen >= 105) {
        latAt = 56;
        lonAt = 80;
      } else if (dac === 1 && fi === 31 && bitLen >= 105) {
        lonAt = 56;
        latAt = 81;
      } else if (dac === 367 && fi === 23 && bitLen >= 124) {
        lonAt = 75;
        latAt = 100;
      } else if (dac === 367 && fi === 24 && bitLen >= 119) {
        lonAt = 70;
        latAt = 95;
      }
      if (lonAt >= 0) {
        const x = s(lonAt, 25);
        const y = s(latAt, 24);
        lon = x === LON_NA_MILLI ? null : x / 60000;
        lat = y === LAT_NA_MILLI ? null : y / 60000;
      }
      return { type, repeat, mmsi, time, station, source, channel, own, dac, fi, lon, lat };
    }
    case 9: {
      if (bitLen < MIN_BITS_SAR) return R_PAYLOAD_TOO_SHORT;
      const alt = u(38, 12);
      const sog = u(50, 10);
      return {
        type,
        repeat,
        mmsi,
        time,
        station,
        source,
        channel,
        own,
        altitudeM: alt === 4095 ? null : alt,
        // Type 9 speed is in whole knots (M.1371-5, message 9), unlike types 1-3/18/19.
        sog: sog === 1023 ? null : sog,
        accuracy: bit(60),
        lon: lon28(61),
        lat: lat27(89),
        cog: cog12(116),
        second: u(128, 6),
        dte: bit(142),
        assigned: bit(146),
        raim: bit(147),
        radio: radio(148, 20, bitLen),
      };
    }
    case 17: {
      if (bitLen < MIN_BITS_GNSS) return R_PAYLOAD_TOO_SHORT;
      const x = s(40, 18);
      const y = s(58, 17);
      return {
        type,
        repeat,
        mmsi,
        time,
        station,
        source,
        channel,
        own,
        lon: x === LON_NA_TENTH ? null : x / 600,
        lat: y === LAT_NA_TENTH ? null : y / 600,
      };
    }
    case 18: {
      if (bitLen >= 168) return positionB(repeat, mmsi, time, station, source, channel, own);
      if (bitLen < MIN_BITS_POS_B) return R_PAYLOAD_TOO_SHORT;
      const m: PositionReportClassB = {
        type,
        repeat,
        mmsi,
        time,
        station,
        source,
        channel,
        own,
        sog: sog10(46),
        accuracy: bit(56),
        lon: lon28(57),
        lat: lat27(85),
        cog: cog12(112),
        heading: heading9(124),
        second: u(133, 6),
        cs: bit(141),
        display: bit(142),
        dsc: bit(143),
        band: bit(144),
        msg22: bit(145),
        assigned: bit(146),
        raim: bit(147),
        radio: radio(148, 20, bitLen),
      };
      return m;
    }
    case 19: {
      if (bitLen < MIN_BITS_EXT_B) return R_PAYLOAD_TOO_SHORT;
      return {
        type,
        repeat,
        mmsi,
        time,
        station,
        source,
        channel,
        own,
        sog: sog10(46),
        accuracy: bit(56),
        lon: lon28(57),
        lat: lat27(85),
        cog: cog12(112),
        heading: heading9(124),
        second: u(133, 6),
        shipname: text(143, 20),
        shipType: u(263, 8),
        toBow: u(271, 9),
        toStern: u(280, 9),
        toPort: u(289, 6),
        toStarboard: u(295, 6),
        epfd: u(301, 4),
        raim: bit(305),
        dte: bit(306),
        assigned: bit(307),
      };
    }
    case 21: {
      if (bitLen < MIN_BITS_ATON) return R_PAYLOAD_TOO_SHORT;
      let name = text(43, 20);
      // Name extension (bits 272.., up to 14 characters) continues the name only
      // when all 20 characters are used (M.1371-5, message 21 "name extension"; gpsd applies the
      // same rule: `20 == strnlen(name) && 272 < bitlen`).
      if (bitLen > 272 && name.length === 20) {
        let extChars = ((bitLen - 272) / 6) | 0;
        if (extChars > 14) extChars = 14;
        if (extChars > 0) name += text(272, extChars);
      }
      const m: AidToNavigationReport = {
        type,
        repeat,
        mmsi,
        time,
        station,
        source,
        channel,
        own,
        aidType: u(38, 5),
        name,
        accuracy: bit(163),
        lon: lon28(164),
        lat: lat27(192),
        toBow: u(219, 9),
        toStern: u(228, 9),
        toPort: u(237, 6),
        toStarboard: u(243, 6),
        epfd: u(249, 4),
        second: u(253, 6),
        offPosition: bit(259),
        raim: bit(268),
        virtualAid: bit(269),
        assigned: bit(270),
      };
      return m;
    }
    case 24: {
      if (bitLen < MIN_BITS_24_PARTNO) return R_PAYLOAD_TOO_SHORT;
      const partno = u(38, 2);
      if (partno !== 0 && partno !== 1) return R_UNKNOWN_TYPE24_PART;
      if (!withinLegalLength(type, bitLen)) return R_ILLEGAL_LENGTH;
      if (partno === 0) {
        if (bitLen < MIN_BITS_24A) return R_PAYLOAD_TOO_SHORT;
        const m: StaticDataReportA = {
          type,
          repeat,
          mmsi,
          time,
          station,
          source,
          channel,
          own,
          partno,
          shipname: text(40, 20),
        };
        return m;
      }
      if (bitLen < MIN_BITS_24B) return R_PAYLOAD_TOO_SHORT;
      // Auxiliary craft (MMSI 98MIDXXXX, ITU-R M.585) carry the mother
      // ship MMSI in the 30 bits used for dimensions by other stations.
      const aux = mmsi >= 980000000 && mmsi < 990000000;
      const m: StaticDataReportB = {
        type,
        repeat,
        mmsi,
        time,
        station,
        source,
        channel,
        own,
        partno,
        shipType: u(40, 8),
        vendorId: text(48, 3),
        model: u(66, 4),
        serial: u(70, 20),
        vendorIdLegacy: text(48, 7),
        callsign: text(90, 7),
        toBow: aux ? null : u(132, 9),
        toStern: aux ? null : u(141, 9),
        toPort: aux ? null : u(150, 6),
        toStarboard: aux ? null : u(156, 6),
        mothershipMmsi: aux ? u(132, 30) : null,
      };
      return m;
    }
    case 27: {
      if (bitLen < MIN_BITS_LONG_RANGE) return R_PAYLOAD_TOO_SHORT;
      // Position in 1/10 minute: 18-bit longitude and 17-bit latitude, both signed
      // (ggencoder's unsigned reading is the bug the notes mention).
      const x = s(44, 18);
      const y = s(62, 17);
      const sog = u(79, 6);
      const cog = u(85, 9);
      const m: LongRangeReport = {
        type,
        repeat,
        mmsi,
        time,
        station,
        source,
        channel,
        own,
        accuracy: bit(38),
        raim: bit(39),
        navStatus: u(40, 4),
        lon: x === LON_NA_TENTH ? null : x / 600,
        lat: y === LAT_NA_TENTH ? null : y / 600,
        sog: sog === 63 ? null : sog,
        cog: cog === 511 ? null : cog,
        // Raw bit (gpsd, pyais); libais inverts it.
        gnss: bit(94),
      };
      return m;
    }
    default: {
      const m: GenericMessage = {
        type: type as GenericMessageType,
        repeat,
        mmsi,
        time,
        station,
        source,
        channel,
        own,
      };
      return m;
    }
  }
}

/** Optional envelope for decodePayload(). */
export interface PayloadMeta {
  time?: number | null;
  station?: string | null;
  source?: string | null;
  channel?: string | null;
  own?: boolean;
}

export type PayloadResult =
  | { ok: true; message: DecodedAisMessage }
  | { ok: false; reason: AisReason };

/**
 * Decode one complete armored payload (all fragments already concatenated) with
 * its fill-bit count. Pure and total: never throws, reports why it failed.
 */
export function decodePayload(payload: string, fillBits: number, meta?: PayloadMeta): PayloadResult {
  if (typeof payload !== "string" || payload.length === 0) return { ok: false, reason: AIS_REASONS[R_EMPTY_PAYLOAD] };
  if (!Number.isInteger(fillBits) || fillBits < 0 || fillBits > 5) return { ok: false, reason: AIS_REASONS[R_BAD_FILL] };
  const n = unpackArmored(payload, 0, payload.length);
  if (n < 0) return { ok: false, reason: AIS_REASONS[R_BAD_PAYLOAD_CHAR] };
  const out = decodeUnpacked(
    n * 6 - fillBits,
    meta?.time ?? null,
    meta?.station ?? null,
    meta?.source ?? null,
    meta?.channel ?? null,
    meta?.own ?? false,
  );
  if (typeof out === "number") return { ok: false, reason: AIS_REASONS[out] as AisReason };
  return { ok: true, message: out };
}
