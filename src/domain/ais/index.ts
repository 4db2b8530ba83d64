/**
 * # AIS decoder (NMEA 0183 `!xxVDM` / `!xxVDO`, ITU-R M.1371-5)
 *
 * Pure domain code: no I/O, no clock. Time enters only as `receivedAt`.
 *
 * ## API
 *
 * ```ts
 * import { createAisDecoder, decodePayload } from "./index.ts";
 *
 * const dec = createAisDecoder({ fragmentTimeoutMs: 10_000, maxPending: 10_000 });
 * const msg = dec.feed(line, { source: "station-7", receivedAt: epochMs }); // DecodedAisMessage | null
 * dec.expire(epochMs);   // optional: drop stale fragments now (feed() also sweeps, once per timeout)
 * dec.stats();           // { lines, messages, fragments, rejected, pending, reasons: {reason: n}, byType: {"1": n} }
 *
 * decodePayload("13U4vF0P001d<UnEeSmQ>gv`04hd", 0);             // { ok: true, message } | { ok: false, reason }
 * decodePayload(payload, fill, { time, station, source, channel, own }); // optional envelope
 * ```
 *
 * `feed()` never throws. It returns a message when the line completes one, and null
 * for a buffered fragment or a rejected line (the reason is counted in `stats()`;
 * the reasons and which ones drop the line are listed in reasons.ts).
 *
 * ## Framing accepted
 *
 * - Any two-character talker with `VDM` or `VDO` (`AI`, `AB`, `BS`, `SA`, ...),
 *   channel empty or one character (`A`, `B`, `1`, `2` are seen), sequence id
 *   empty or one digit, fragment count and number one digit, fill 0..5.
 * - Leading/trailing whitespace and CR/LF are stripped; junk before the `!` is
 *   skipped (logger prefixes). Lines starting with `$` are other NMEA sentences.
 * - The checksum is mandatory and checked; hex digits in either case are accepted.
 *   Anything after `*hh` (USCG/AISHub trailers such as `,s28089,d-103,T39.44,1242958962`)
 *   is ignored.
 * - NMEA 4.0 tag block `\s:station,c:unixtime,g:1-2-42*hh\` in front: its own
 *   checksum is checked; when it is missing or wrong the tags are ignored (counted
 *   as `bad_tag_block_checksum`) and the sentence is still decoded. `c:` is seconds
 *   per the standard; values above 1e11 are taken as milliseconds.
 *
 * ## Multi-part messages
 *
 * Fragments are reassembled per key (source, talker, channel, fragment count,
 * sequence id — or the tag-block `g:` group id when the sequence id is empty).
 * Only the next expected fragment is appended. A new fragment 1 for a pending key
 * replaces the incomplete message (`fragment_missing`, or `fragment_duplicate` when
 * it repeats the same payload); a fragment that does not continue a pending message
 * is dropped (`fragment_out_of_order`) and so is the pending one. Incomplete
 * messages older than `fragmentTimeoutMs` (measured on `receivedAt` of fragment 1)
 * are dropped (`fragment_missing`); at most `maxPending` are held. Two ships'
 * fragments are therefore never glued together. The message carries the envelope
 * (time, station, channel) of fragment 1 and the fill bits of the last fragment.
 * Limit: the sequence id is assigned by the receiver, cycling 0..9 (IEC 61162-1),
 * so within one key a fragment 2 can only be told apart by arrival order; a fragment
 * arriving after ten later multi-part messages on the same key would be misplaced.
 * Keeping `source` per receiver (or using tag-block groups) keeps keys apart.
 *
 * ## Decoded message shape (see messages.ts for every field)
 *
 * Every message: `type`, `repeat`, `mmsi`, and the envelope `time` (epoch ms: tag
 * block `c:` else `receivedAt`), `station` (tag block `s:` or null), `source`,
 * `channel`, `own` (true for VDO).
 *
 * - 1/2/3: `navStatus`, `rot` (raw ROT indicator), `turnDegPerMin`, `sog` (kn),
 *   `accuracy`, `lon`, `lat` (deg), `cog` (deg), `heading` (deg), `second`,
 *   `maneuver`, `raim`, `radio`.
 * - 4/11: `year month day hour minute second` (UTC), `accuracy lon lat epfd raim radio`.
 * - 5: `aisVersion imo callsign shipname shipType toBow toStern toPort toStarboard
 *   epfd etaMonth etaDay etaHour etaMinute draught destination dte`.
 * - 6: `seqno destMmsi retransmit dac fi`; 8: `dac fi lon lat` (position only for
 *   a few meteorological application messages); 17: `lon lat`.
 * - 9: `altitudeM sog` (whole kn) `accuracy lon lat cog second dte assigned raim radio`.
 * - 18: `sog accuracy lon lat cog heading second cs display dsc band msg22 assigned raim radio`.
 * - 19: position as 18 plus `shipname shipType toBow toStern toPort toStarboard epfd raim dte assigned`.
 * - 21: `aidType name accuracy lon lat toBow toStern toPort toStarboard epfd second
 *   offPosition raim virtualAid assigned`.
 * - 24: part A `{ partno: 0, shipname }`; part B `{ partno: 1, shipType, vendorId,
 *   model, serial, vendorIdLegacy, callsign, toBow.., mothershipMmsi }`. Parts are
 *   emitted separately (merge them by MMSI downstream); part numbers 2 and 3 are
 *   rejected (`unknown_type24_part`).
 * - 27: `accuracy raim navStatus lon lat sog` (whole kn) `cog` (whole deg) `gnss`.
 * - Any other type 0..63: header only (`type repeat mmsi` + envelope).
 *
 * ## Conventions
 *
 * - Units: degrees, knots, metres; names carry the unit when it is not the
 *   obvious one (`turnDegPerMin`, `altitudeM`). Dimensions and draught are metres.
 * - "Not available" values become null: lat 91, lon 181, sog 102.3 (type 9: 1023,
 *   type 27: 63), cog 360 (type 27: 511), heading 511, ROT -128, altitude 4095,
 *   IMO 0, draught 0, ETA month/day 0, hour 24, minute 60, type 4/11 date fields
 *   0/0/0/24/60/60. Other values are passed through raw, including positions
 *   outside +-90/+-180 (the ingest layer decides), `second` 60..63 of position
 *   reports (their codes mean n/a, manual, dead reckoning, inoperative) and enums.
 * - Flags are booleans of the raw bit (`dte` true = not ready; `gnss` true = not
 *   a current GNSS fix, not inverted as libais does).
 * - Text: six-bit characters cut at the first `@`, trailing spaces trimmed,
 *   leading spaces kept (gpsd's rule). The type 21 name extension is appended only
 *   when the 20-character name is full.
 * - Type 1-3 messages are accepted from 149 bits (up to RAIM); a truncated `radio`
 *   holds the bits present, right-aligned (gpsd's reading); extra bits (e.g. 204-bit
 *   reports) are ignored. Fill bits are never read as data.
 * - A position or static report longer than its type's legal length (lengths.ts, e.g. a
 *   type 27 over 96 bits) is rejected (`illegal_length`), not decoded.
 */

export type { AisDecoder, AisDecoderOptions, AisDecoderStats, FeedContext } from "./sentence-stream.ts";
export { createAisDecoder } from "./sentence-stream.ts";
export type { PayloadMeta, PayloadResult } from "./payload-decoder.ts";
export { decodePayload } from "./payload-decoder.ts";
export type * from "./messages.ts";
export type { AisReason } from "./reasons.ts";
export { AIS_REASONS, EVENT_REASONS } from "./reasons.ts";
