// Why a line, fragment or message was rejected (or flagged). Counted by the
// decoder's stats(); decodePayload() returns them as `reason`.
//
// Two kinds:
// - line reasons: the line is dropped and counted under exactly one of them
//   (stats().rejected is their sum, so lines = messages + fragments + rejected);
// - event reasons (EVENT_REASONS below): something happened to the line or to
//   buffered state without dropping the line itself: a tag block ignored, an
//   incomplete message given up, a duplicate fragment, an overflow eviction.

export const AIS_REASONS = [
  /** Blank line (only whitespace). Dropped. */
  "empty_line",
  /** No '!' sentence start in the line (comments, junk). Dropped. */
  "no_sentence",
  /** A well-formed start but not a VDM/VDO sentence ($GPRMC, !xxABK, ...). Dropped. */
  "not_ais",
  /** The sentence is longer than any real VDM sentence (guard on huge lines). Dropped. */
  "line_too_long",
  /** No '*hh' checksum. Dropped (IEC 61162-1 sentences carry one; most decoders reject). */
  "no_checksum",
  /** The checksum does not match. Dropped. */
  "bad_checksum",
  /** Unterminated tag block (no closing '\'). Dropped. */
  "bad_tag_block",
  /** Tag block without '*hh', with a wrong one, or malformed: the tags are ignored, the sentence is kept. */
  "bad_tag_block_checksum",
  /** Not exactly 7 comma-separated fields before '*'. Dropped. */
  "bad_field_count",
  /** Fragment count/number, sequence id or channel malformed. Dropped. */
  "bad_header_field",
  /** Fill-bits field not a digit 0..5. Dropped. */
  "bad_fill",
  /** A payload character outside the six-bit armor set. Dropped. */
  "bad_payload_char",
  /** Empty payload in a single sentence or a first fragment. Dropped. */
  "empty_payload",
  /** Fewer bits than the message type needs. Dropped. */
  "payload_too_short",
  /** A fragment that does not continue a pending message (e.g. 2/2 without 1/2, or 3/3 after 1/3). Dropped. */
  "fragment_out_of_order",
  /** An incomplete message given up: its next fragment never came before the timeout, or a new fragment 1 replaced it. */
  "fragment_missing",
  /** Fragment 1 repeated with the same payload (two receivers on one feed): the copy replaces the original, no loss. */
  "fragment_duplicate",
  /** Too many incomplete messages pending: the oldest one was dropped. */
  "pending_overflow",
  /** Type 24 with a part number other than 0 (A) or 1 (B); M.1371 defines no others. Dropped. */
  "unknown_type24_part",
  /** Longer than the standard allows for a type whose content is stored (lengths.ts), e.g. a type 27 over 96 bits. Dropped. */
  "illegal_length",
] as const;

export type AisReason = (typeof AIS_REASONS)[number];

// Numeric codes used on the hot path (index into AIS_REASONS).
export const R_EMPTY_LINE = 0;
export const R_NO_SENTENCE = 1;
export const R_NOT_AIS = 2;
export const R_LINE_TOO_LONG = 3;
export const R_NO_CHECKSUM = 4;
export const R_BAD_CHECKSUM = 5;
export const R_BAD_TAG_BLOCK = 6;
export const R_BAD_TAG_BLOCK_CHECKSUM = 7;
export const R_BAD_FIELD_COUNT = 8;
export const R_BAD_HEADER_FIELD = 9;
export const R_BAD_FILL = 10;
export const R_BAD_PAYLOAD_CHAR = 11;
export const R_EMPTY_PAYLOAD = 12;
export const R_PAYLOAD_TOO_SHORT = 13;
export const R_FRAGMENT_OUT_OF_ORDER = 14;
export const R_FRAGMENT_MISSING = 15;
export const R_FRAGMENT_DUPLICATE = 16;
export const R_PENDING_OVERFLOW = 17;
export const R_UNKNOWN_TYPE24_PART = 18;
export const R_ILLEGAL_LENGTH = 19;

/** Reasons that count events rather than dropped lines (see the header comment). */
export const EVENT_REASONS: ReadonlySet<AisReason> = new Set<AisReason>([
  "bad_tag_block_checksum",
  "fragment_missing",
  "fragment_duplicate",
  "pending_overflow",
]);
