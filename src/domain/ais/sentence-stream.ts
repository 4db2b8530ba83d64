// Stream decoder: NMEA 0183 framing (IEC 61162-1) and statistics, over NMEA 4.0 tag
// blocks (tag-block.ts) and multi-part reassembly (fragment-table.ts). Pure: time only
// enters through `receivedAt`. The per-line path runs a million times a second: what it
// shares lives in one object, and the reason codes and message types in files of their own.

import { type DecodeOutcome, decodeUnpacked } from "./payload-decoder.ts";
import type { DecodedAisMessage } from "./messages.ts";
import {
  AIS_REASONS,
  type AisReason,
  R_BAD_CHECKSUM,
  R_BAD_FIELD_COUNT,
  R_BAD_FILL,
  R_BAD_HEADER_FIELD,
  R_BAD_PAYLOAD_CHAR,
  R_BAD_TAG_BLOCK,
  R_BAD_TAG_BLOCK_CHECKSUM,
  R_EMPTY_LINE,
  R_EMPTY_PAYLOAD,
  R_LINE_TOO_LONG,
  R_NO_CHECKSUM,
  R_NO_SENTENCE,
  R_NOT_AIS,
} from "./reasons.ts";
import { FRAGMENT_HELD, FragmentTable } from "./fragment-table.ts";
import { ARMOR_TABLE, beginUnpack, endUnpack, unpackArmored } from "./sixbit.ts";
import { hexAt, parseTagBlock, type TagBlock } from "./tag-block.ts";

export interface AisDecoderOptions {
  /**
   * How long an incomplete multi-part message waits for its next fragment, in the
   * units of `receivedAt` (milliseconds). Default 10000. Fragments of one message are
   * sent in consecutive slots, so a few seconds is generous.
   */
  fragmentTimeoutMs?: number;
  /** Upper bound on incomplete messages held at once (oldest dropped first). Default 10000. */
  maxPending?: number;
}

export interface FeedContext {
  /** Identity of the feed/station the line came from; part of the reassembly key. */
  source: string;
  /** Reception time, epoch milliseconds; drives the fragment timeout and is the default `time`. */
  receivedAt: number;
}

export interface AisDecoderStats {
  /** Lines given to feed(). */
  lines: number;
  /** Messages returned. */
  messages: number;
  /** Fragments accepted and buffered (feed() returned null without an error). */
  fragments: number;
  /** Lines rejected; each adds 1 to exactly one line reason. lines = messages + fragments + rejected. */
  rejected: number;
  /** Incomplete messages currently held. */
  pending: number;
  /** Count of every reason seen: line reasons and event reasons (see reasons.ts). */
  reasons: Record<AisReason, number>;
  /** Messages returned, by message type (keys "0".."63", only types seen). */
  byType: Record<string, number>;
}

export interface AisDecoder {
  /** Decode one line. Returns a message when the line completes one, else null. Never throws. */
  feed(line: string, ctx: FeedContext): DecodedAisMessage | null;
  /** Drop incomplete messages older than the timeout at `now`; returns how many were dropped. */
  expire(now: number): number;
  stats(): AisDecoderStats;
}

/** Longest '!'..'*' span accepted; real VDM sentences are at most 82 characters (some feeds send ~100). */
const MAX_SENTENCE = 512;

/** Positions of the first six commas of the line being parsed (scratch, reused). */
const COMMAS = new Int32Array(6);

/** Interned channel strings for the common one-character channels. */
const CHANNELS: string[] = [];
for (let c = 0; c < 128; c++) CHANNELS.push(String.fromCharCode(c));

class Decoder implements AisDecoder, TagBlock {
  readonly reasonCounts = new Float64Array(AIS_REASONS.length);
  readonly fragmentTable: FragmentTable;
  /** The fragment table's map, read on every line. */
  readonly pendingByKey: Map<string, unknown>;
  readonly typeCounts = new Float64Array(64);
  lines = 0;
  messages = 0;
  fragments = 0;
  rejected = 0;
  // Tag block fields of the current line (set by parseTagBlock).
  tagStation: string | null = null;
  tagTime = -1;
  tagGroup: string | null = null;

  constructor(opts: AisDecoderOptions) {
    const t = opts.fragmentTimeoutMs;
    const mp = opts.maxPending;
    this.fragmentTable = new FragmentTable(typeof t === "number" && t > 0 ? t : 10000, typeof mp === "number" && mp >= 1 ? Math.floor(mp) : 10000, this.reasonCounts);
    this.pendingByKey = this.fragmentTable.pending;
  }

  feed(line: string, ctx: FeedContext): DecodedAisMessage | null {
    this.lines++;
    try {
      return this.feedLine(line, ctx);
    } catch {
      // Not expected (the parser is total); a safety net so a feed loop never dies.
      return this.reject(R_NO_SENTENCE);
    }
  }

  reject(reason: number): null {
    this.rejected++;
    this.reasonCounts[reason]!++;
    return null;
  }

  feedLine(line: string, ctx: FeedContext): DecodedAisMessage | null {
    if (typeof line !== "string") return this.reject(R_NO_SENTENCE);
    const now = ctx.receivedAt;
    if (this.pendingByKey.size > 0) {
      const table = this.fragmentTable;
      if (now - table.lastSweep >= table.timeout) table.expire(now);
    }

    // Trim whitespace and CR/LF on both sides.
    let end = line.length;
    while (end > 0 && line.charCodeAt(end - 1) <= 32) end--;
    let p = 0;
    while (p < end && line.charCodeAt(p) <= 32) p++;
    if (p === end) return this.reject(R_EMPTY_LINE);

    // NMEA 4.0 tag block: \k:v,k:v*hh\ before the sentence.
    this.tagStation = null;
    this.tagTime = -1;
    this.tagGroup = null;
    let c = line.charCodeAt(p);
    if (c === 92) {
      const close = line.indexOf("\\", p + 1);
      if (close < 0 || close >= end) return this.reject(R_BAD_TAG_BLOCK);
      if (!parseTagBlock(line, p + 1, close, this)) this.reasonCounts[R_BAD_TAG_BLOCK_CHECKSUM]!++;
      p = close + 1;
      c = line.charCodeAt(p);
    }
    if (c !== 33) {
      if (c === 36) return this.reject(R_NOT_AIS);
      // Some loggers prefix lines (e.g. with a receive timestamp): look for the '!'.
      const bang = line.indexOf("!", p);
      if (bang < 0 || bang >= end) return this.reject(R_NO_SENTENCE);
      p = bang;
    }

    // One pass from after '!' to '*': checksum (XOR of everything in between,
    // IEC 61162-1 / NMEA 0183), the positions of the first six commas, and the payload
    // (field 6) unpacked into six-bit symbols on the way, so that each character is
    // read once: reading characters is most of the cost of decoding a line.
    const cpos = COMMAS;
    const sym = beginUnpack(MAX_SENTENCE);
    let x = 0;
    let commas = 0;
    let nsym = 0;
    let bad = 0;
    let i = p + 1;
    const limit = end < p + MAX_SENTENCE ? end : p + MAX_SENTENCE;
    // Three loops rather than one with a state test per character: the header up to
    // the fifth comma, the payload, then the rest up to '*'.
    for (; i < limit; i++) {
      const ch = line.charCodeAt(i);
      if (ch === 42) break;
      x ^= ch;
      if (ch === 44) {
        cpos[commas++] = i;
        if (commas === 5) {
          i++;
          break;
        }
      }
    }
    if (commas === 5) {
      const armor = ARMOR_TABLE;
      for (; i < limit; i++) {
        const ch = line.charCodeAt(i);
        if (ch === 44 || ch === 42) break;
        x ^= ch;
        // A character outside the armor set makes `bad` negative; what it stored is never read.
        const v = ch < 128 ? (armor[ch] as number) : -1;
        bad |= v;
        sym[nsym++] = v;
      }
      for (; i < limit; i++) {
        const ch = line.charCodeAt(i);
        if (ch === 42) break;
        x ^= ch;
        if (ch === 44) {
          if (commas < 6) cpos[commas] = i;
          commas++;
        }
      }
    }
    if (i >= limit) return this.reject(limit < end ? R_LINE_TOO_LONG : R_NO_CHECKSUM);
    const star = i;
    const c0 = cpos[0]!;

    // Address field: two talker characters then VDM or VDO (AI, AB, BS, SA, ... all accepted).
    if (
      commas === 0 ||
      c0 - p !== 6 ||
      line.charCodeAt(p + 3) !== 86 ||
      line.charCodeAt(p + 4) !== 68 ||
      (line.charCodeAt(p + 5) !== 77 && line.charCodeAt(p + 5) !== 79)
    ) {
      return this.reject(R_NOT_AIS);
    }
    const own = line.charCodeAt(p + 5) === 79;

    // Checksum: two hex digits after '*'; anything after them (USCG/AISHub
    // trailers like ",s36310,d-081,T59.01,1234567890") is outside the sentence.
    if (star + 2 >= end) return this.reject(R_NO_CHECKSUM);
    const h1 = hexAt(line, star + 1);
    const h2 = hexAt(line, star + 2);
    if (h1 < 0 || h2 < 0) return this.reject(R_NO_CHECKSUM);
    if (h1 * 16 + h2 !== x) return this.reject(R_BAD_CHECKSUM);

    // Exactly seven fields: address, count, number, sequence id, channel, payload, fill.
    if (commas !== 6) return this.reject(R_BAD_FIELD_COUNT);

    const c1 = cpos[1]!;
    const c2 = cpos[2]!;
    const c3 = cpos[3]!;
    const c4 = cpos[4]!;
    const c5 = cpos[5]!;
    // Fragment count and number: one digit each, 1 <= number <= count <= 9.
    if (c1 - c0 !== 2 || c2 - c1 !== 2) return this.reject(R_BAD_HEADER_FIELD);
    const total = line.charCodeAt(c0 + 1) - 48;
    const num = line.charCodeAt(c1 + 1) - 48;
    if (total < 1 || total > 9 || num < 1 || num > total) return this.reject(R_BAD_HEADER_FIELD);
    // Sequential message id: empty or one digit (0..9). Channel: empty or one character.
    const seqLen = c3 - c2 - 1;
    if (seqLen > 1 || (seqLen === 1 && !(line.charCodeAt(c2 + 1) >= 48 && line.charCodeAt(c2 + 1) <= 57))) {
      return this.reject(R_BAD_HEADER_FIELD);
    }
    const chanLen = c4 - c3 - 1;
    if (chanLen > 1) return this.reject(R_BAD_HEADER_FIELD);
    const chanCode = line.charCodeAt(c3 + 1);
    const channel = chanLen === 0 ? "" : chanCode < 128 ? (CHANNELS[chanCode] as string) : (line[c3 + 1] as string);

    // Fill bits: one digit 0..5.
    if (star - c5 !== 2) return this.reject(R_BAD_FILL);
    const fill = line.charCodeAt(c5 + 1) - 48;
    if (fill < 0 || fill > 5) return this.reject(R_BAD_FILL);

    const payStart = c4 + 1;
    const payEnd = c5;
    const tagTime = this.tagTime;
    const time = tagTime >= 0 ? tagTime : now;

    if (total === 1) {
      if (payEnd === payStart) return this.reject(R_EMPTY_PAYLOAD);
      if (bad < 0) return this.reject(R_BAD_PAYLOAD_CHAR);
      endUnpack(nsym);
      return this.emit(decodeUnpacked(nsym * 6 - fill, time, this.tagStation, ctx.source, channel, own));
    }

    // Multi-part. Key: source, talker, channel, sequence id (or the tag-block group
    // id when the sequence id is empty) and fragment count, so that interleaved
    // messages from different ships, channels or receivers are never spliced.
    if (bad < 0) return this.reject(R_BAD_PAYLOAD_CHAR);
    let key = ctx.source + "\u0000" + line.slice(p + 1, p + 3) + "\u0000" + channel + "\u0000" + total;
    if (seqLen === 1) key += line[c2 + 1];
    else if (this.tagGroup !== null) key += "g" + this.tagGroup;
    const pend = this.fragmentTable.add(key, num, total, line.slice(payStart, payEnd), now, time, this.tagStation, channel, own);
    if (pend === FRAGMENT_HELD) {
      this.fragments++;
      return null;
    }
    if (typeof pend === "number") return this.reject(pend);
    const full = pend.payload;
    const n = unpackArmored(full, 0, full.length);
    if (n < 0) return this.reject(R_BAD_PAYLOAD_CHAR);
    // The fill bits of the last sentence apply to the whole message.
    return this.emit(decodeUnpacked(n * 6 - fill, pend.time, pend.station, ctx.source, pend.channel, pend.own));
  }

  emit(out: DecodeOutcome): DecodedAisMessage | null {
    if (typeof out === "number") return this.reject(out);
    this.messages++;
    this.typeCounts[out.type]!++;
    return out;
  }

  expire(now: number): number {
    return this.fragmentTable.expire(now);
  }

  stats(): AisDecoderStats {
    const reasons = {} as Record<AisReason, number>;
    for (let r = 0; r < AIS_REASONS.length; r++) reasons[AIS_REASONS[r] as AisReason] = this.reasonCounts[r]!;
    const byType: Record<string, number> = {};
    for (let t = 0; t < 64; t++) if (this.typeCounts[t]! > 0) byType[String(t)] = this.typeCounts[t]!;
    return {
      lines: this.lines,
      messages: this.messages,
      fragments: this.fragments,
      rejected: this.rejected,
      pending: this.pendingByKey.size,
      reasons,
      byType,
    };
  }
}

/** Create a stateful stream decoder (one per process or per feed; see index.ts). */
export function createAisDecoder(options: AisDecoderOptions = {}): AisDecoder {
  return new Decoder(options ?? {});
}
