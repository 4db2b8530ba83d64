// The longest legal message, in bits, of each type whose content the service stores
// (positions and static reports). ITU-R M.1371-5 Annex 8 fixes each of these at one
// length; a message longer than the bound is not that type's message (a corrupt or
// mis-framed payload, or a transmitter that reuses the type id) and its fields would be
// read from the wrong bits. The upper bounds admit what real transmitters are known
// to send beyond the nominal length; shorter messages are judged by the decoder's
// minimums (payload_too_short). Other types are counted by type and never stored,
// so their lengths are not judged here (decoders in the field disagree about them).

/** Longest legal length per message type; a type not listed has no upper bound here. */
export const MAX_LEGAL_BITS: Readonly<Record<number, number>> = {
  // Class A position reports: 168 nominal; gpsd accepts up to 204 (its samples hold 204-bit reports).
  1: 204,
  2: 204,
  3: 204,
  // Static and voyage data: 424 nominal; 426 is the same 71 characters sent without the 2 fill bits.
  5: 426,
  // SAR aircraft position report: 168.
  9: 168,
  // Class B position report: 168.
  18: 168,
  // Extended class B position report: 312.
  19: 312,
  // Static data report: part A 160 (some units pad it to 168), part B 168.
  24: 168,
  // Long-range broadcast: 96 exactly (one 16-character sentence, no fill bits).
  27: 96,
};

/** Whether a message of this type may be `bits` long (only the upper bound; see above). */
export function withinLegalLength(type: number, bits: number): boolean {
  const max = MAX_LEGAL_BITS[type];
  return max === undefined || bits <= max;
}
