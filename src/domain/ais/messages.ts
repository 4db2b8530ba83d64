// Shapes of decoded AIS messages. Field layouts and units follow ITU-R M.1371-5
// Annex 8 (message descriptions) and the gpsd AIVDM page; the naming rules are in
// the README comment of index.ts.

/** Where and when a message was received; present on every decoded message. */
export interface AisEnvelope {
  /**
   * Epoch milliseconds: the tag block `c:` of the (first) sentence when present and
   * valid, else the `receivedAt` given to feed() for the first sentence. null only
   * from decodePayload() called without a time.
   */
  time: number | null;
  /** Tag block `s:` (source station) of the (first) sentence, else null. */
  station: string | null;
  /** The `source` given to feed() (connection / station id), null from decodePayload(). */
  source: string | null;
  /** Radio channel field of the sentence ('A', 'B', '1', '2' or ''), null from decodePayload(). */
  channel: string | null;
  /** True for !xxVDO (own-vessel report), false for !xxVDM or decodePayload(). */
  own: boolean;
}

interface Header extends AisEnvelope {
  /** Repeat indicator 0..3. */
  repeat: number;
  /** Source MMSI (30 bits). */
  mmsi: number;
}

/** Where a ship is and how it moves, as position reports of types 1-3, 18 and 19 carry it. */
interface ShipMotion {
  /** Speed over ground, knots (0.1 kn resolution; 102.2 = 102.2 kn or more); null when 102.3 (n/a). */
  sog: number | null;
  /** Position accuracy flag: true = high (< 10 m). */
  accuracy: boolean;
  /** Longitude, degrees (east positive); null when 181 (n/a). Out-of-range values are passed through. */
  lon: number | null;
  /** Latitude, degrees (north positive); null when 91 (n/a). Out-of-range values are passed through. */
  lat: number | null;
  /** Course over ground, degrees (0.1 resolution); null when 360 (n/a). */
  cog: number | null;
  /** True heading, degrees 0..359; null when 511 (n/a). */
  heading: number | null;
  /** UTC second of the report 0..59; 60 = n/a, 61 manual, 62 dead reckoning, 63 inoperative (raw). */
  second: number;
}

/** Types 1, 2, 3: Class A position report (M.1371-5, messages 1-3). */
export interface PositionReportClassA extends Header, ShipMotion {
  type: 1 | 2 | 3;
  /** Navigational status 0..15 (15 = not defined). */
  navStatus: number;
  /** Raw rate-of-turn indicator -127..127 (ROT_AIS); null when -128 (not available). */
  rot: number | null;
  /**
   * Rate of turn in degrees per minute, sign(rot) * (rot / 4.733)^2 (M.1371-5, messages 1-3);
   * null when rot is null or +-127 (turning faster than 5 deg/30 s, no rate sensor).
   */
  turnDegPerMin: number | null;
  /** Special manoeuvre indicator 0..2 (0 = n/a). */
  maneuver: number;
  /** RAIM flag. */
  raim: boolean;
  /** Communication state (19 bits, raw; when the message is truncated, the bits present, right-aligned, as gpsd). */
  radio: number;
}

/** Types 4 (base station report) and 11 (UTC/date response), M.1371-5. */
export interface BaseStationReport extends Header {
  type: 4 | 11;
  /** UTC year 1..9999; null when 0 (n/a). */
  year: number | null;
  /** UTC month 1..12; null when 0 (n/a). */
  month: number | null;
  /** UTC day 1..31; null when 0 (n/a). */
  day: number | null;
  /** UTC hour 0..23; null when 24 (n/a). */
  hour: number | null;
  /** UTC minute 0..59; null when 60 (n/a). */
  minute: number | null;
  /** UTC second 0..59; null when 60 (n/a). */
  second: number | null;
  accuracy: boolean;
  lon: number | null;
  lat: number | null;
  /** Type of electronic position fixing device 0..15 (raw). */
  epfd: number;
  raim: boolean;
  radio: number;
}

/** The reference point of a ship's position, as distances to its ends and sides (types 5 and 19). */
interface ShipDimensions {
  /** Distance from the reference point to the bow, metres (0 = n/a, 511 = 511 m or more). */
  toBow: number;
  /** Distance to the stern, metres. */
  toStern: number;
  /** Distance to port, metres (63 = 63 m or more). */
  toPort: number;
  /** Distance to starboard, metres. */
  toStarboard: number;
}

/** Type 5: static and voyage related data, M.1371-5. */
export interface StaticVoyageData extends Header, ShipDimensions {
  type: 5;
  /** AIS version indicator 0..3. */
  aisVersion: number;
  /** IMO number; null when 0 (n/a). */
  imo: number | null;
  callsign: string;
  shipname: string;
  /** Type of ship and cargo 0..255 (raw). */
  shipType: number;
  epfd: number;
  /** ETA month 1..12; null when 0 (n/a). */
  etaMonth: number | null;
  /** ETA day 1..31; null when 0 (n/a). */
  etaDay: number | null;
  /** ETA hour 0..23; null when 24 (n/a). */
  etaHour: number | null;
  /** ETA minute 0..59; null when 60 (n/a). */
  etaMinute: number | null;
  /** Maximum present static draught, metres (0.1 resolution); null when 0 (n/a). */
  draught: number | null;
  destination: string;
  /** DTE bit, raw: false = data terminal ready, true = not available. */
  dte: boolean;
}

/** Type 9: standard SAR aircraft position report, M.1371-5. */
export interface SarAircraftReport extends Header {
  type: 9;
  /** Altitude (GNSS), metres 0..4094 (4094 = 4094 m or more); null when 4095 (n/a). */
  altitudeM: number | null;
  /** Speed over ground in whole knots (1022 = 1022 kn or more); null when 1023 (n/a). */
  sog: number | null;
  accuracy: boolean;
  lon: number | null;
  lat: number | null;
  cog: number | null;
  second: number;
  dte: boolean;
  assigned: boolean;
  raim: boolean;
  radio: number;
}

/** Type 18: standard Class B position report, M.1371-5. */
export interface PositionReportClassB extends Header, ShipMotion {
  type: 18;
  /** Class B unit flag: true = CS (carrier sense) unit, false = SOTDMA. */
  cs: boolean;
  display: boolean;
  dsc: boolean;
  band: boolean;
  msg22: boolean;
  assigned: boolean;
  raim: boolean;
  radio: number;
}

/** Type 19: extended Class B position report, M.1371-5. */
export interface ExtendedClassBReport extends Header, ShipMotion, ShipDimensions {
  type: 19;
  shipname: string;
  shipType: number;
  epfd: number;
  raim: boolean;
  dte: boolean;
  assigned: boolean;
}

/** Type 21: aid-to-navigation report, M.1371-5. */
export interface AidToNavigationReport extends Header {
  type: 21;
  /** Type of aid to navigation 0..31 (M.1371-5, message 21). */
  aidType: number;
  /** Name, with the name extension (bits 272+) appended when the 20-character name is full. */
  name: string;
  accuracy: boolean;
  lon: number | null;
  lat: number | null;
  toBow: number;
  toStern: number;
  toPort: number;
  toStarboard: number;
  epfd: number;
  /** UTC second 0..63 (raw, as for position reports). */
  second: number;
  offPosition: boolean;
  raim: boolean;
  virtualAid: boolean;
  assigned: boolean;
}

/** Type 24 part A: Class B static data, name (M.1371-5). */
export interface StaticDataReportA extends Header {
  type: 24;
  partno: 0;
  shipname: string;
}

/** Type 24 part B: Class B static data, ship type, vendor, call sign, dimensions (M.1371-5). */
export interface StaticDataReportB extends Header {
  type: 24;
  partno: 1;
  shipType: number;
  /** Manufacturer id, 3 characters (M.1371-4 and later). */
  vendorId: string;
  /** Unit model code 0..15. */
  model: number;
  /** Unit serial number 0..2^20-1. */
  serial: number;
  /** The same 42 bits read as the pre-M.1371-4 seven-character vendor id (what gpsd reports). */
  vendorIdLegacy: string;
  callsign: string;
  /** Dimensions; null for an auxiliary craft (MMSI 98xxxxxxx), whose bits carry mothershipMmsi instead. */
  toBow: number | null;
  toStern: number | null;
  toPort: number | null;
  toStarboard: number | null;
  /** MMSI of the mother ship, only for auxiliary craft (MMSI 98xxxxxxx); else null. */
  mothershipMmsi: number | null;
}

/** Type 27: long-range AIS broadcast, M.1371-5. */
export interface LongRangeReport extends Header {
  type: 27;
  accuracy: boolean;
  raim: boolean;
  navStatus: number;
  /** Longitude, degrees (1/10 minute resolution); null when 181 (n/a). */
  lon: number | null;
  /** Latitude, degrees (1/10 minute resolution); null when 91 (n/a). */
  lat: number | null;
  /** Speed over ground, whole knots 0..62; null when 63 (n/a). */
  sog: number | null;
  /** Course over ground, whole degrees 0..359; null when 511 (n/a). */
  cog: number | null;
  /** GNSS position status bit, raw: false = current GNSS position, true = not GNSS position. */
  gnss: boolean;
}

/** Type 6: addressed binary message (header only). */
export interface AddressedBinaryMessage extends Header {
  type: 6;
  seqno: number;
  destMmsi: number;
  retransmit: boolean;
  /** Designated area code of the application-specific message. */
  dac: number;
  /** Function identifier. */
  fi: number;
}

/** Type 8: broadcast binary message (header, and the position of a few meteorological ASMs). */
export interface BroadcastBinaryMessage extends Header {
  type: 8;
  dac: number;
  fi: number;
  /**
   * Position of the observation for the meteorological messages DAC 1 FI 11
   * (IMO SN/Circ.236), DAC 1 FI 31 (IMO SN.1/Circ.289) and DAC 367 FI 23/24 (US
   * "satellite ship weather"); null for other DAC/FI or when n/a.
   */
  lon: number | null;
  lat: number | null;
}

/** Type 17: GNSS broadcast binary message (header and reference station position). */
export interface GnssBroadcastMessage extends Header {
  type: 17;
  /** Reference station longitude, degrees (1/10 minute resolution); null when 181 (n/a). */
  lon: number | null;
  lat: number | null;
}

/** Message types decoded only down to the common header. */
export type GenericMessageType =
  | 0
  | 7
  | 10
  | 12
  | 13
  | 14
  | 15
  | 16
  | 20
  | 22
  | 23
  | 25
  | 26
  | 28
  | 29
  | 30
  | 31
  | 32
  | 33
  | 34
  | 35
  | 36
  | 37
  | 38
  | 39
  | 40
  | 41
  | 42
  | 43
  | 44
  | 45
  | 46
  | 47
  | 48
  | 49
  | 50
  | 51
  | 52
  | 53
  | 54
  | 55
  | 56
  | 57
  | 58
  | 59
  | 60
  | 61
  | 62
  | 63;

/** Any other message type (including the undefined 0 and 28..63): recognised, header only. */
export interface GenericMessage extends Header {
  type: GenericMessageType;
}

export type DecodedAisMessage =
  | PositionReportClassA
  | BaseStationReport
  | StaticVoyageData
  | AddressedBinaryMessage
  | BroadcastBinaryMessage
  | SarAircraftReport
  | GnssBroadcastMessage
  | PositionReportClassB
  | ExtendedClassBReport
  | AidToNavigationReport
  | StaticDataReportA
  | StaticDataReportB
  | LongRangeReport
  | GenericMessage;
