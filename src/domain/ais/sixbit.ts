// Six-bit payload layer: ASCII armoring -> 6-bit symbols -> bit fields.
//
// ITU-R M.1371-5 carries the radio message as a bit string; IEC 61162-1 (NMEA 0183)
// "armors" it six bits per character: a symbol v in 0..63 is sent as the character
// v + 48 when v < 40 and v + 56 otherwise, so the valid characters are '0'..'W'
// (48..87) and '`'..'w' (96..119) (gpsd AIVDM page, "AIVDM/AIVDO payload armoring").
//
// Hot path design: the payload is unpacked once into a reusable Uint8Array of
// symbols through a 128-entry lookup table, and fields are read by arithmetic on
// those symbols. No bit strings are ever built. The module keeps a single buffer,
// which is safe because decoding is synchronous and nothing keeps a reference to it.

/** ARMOR[charCode] = 6-bit value, or -1 for a character outside the armor set. */
const ARMOR = new Int8Array(128).fill(-1);
for (let c = 48; c <= 87; c++) ARMOR[c] = c - 48;
for (let c = 96; c <= 119; c++) ARMOR[c] = c - 56;

/**
 * Six-bit ASCII of M.1371-5 (Annex 8, the 6-bit character table): values 0..31 are '@'..'_'
 * (code v + 64), values 32..63 are ' '..'?' (code v). '@' (0) means "no character".
 * ASCII holds the one-character strings so text is built without fromCharCode.
 */
const ASCII: string[] = [];
for (let c = 0; c < 128; c++) ASCII.push(String.fromCharCode(c));
/** Scratch for text(): character codes of the field being read (at most 64 characters). */
const TEXT_CODES = new Uint8Array(64);

/** Zero symbols kept after the payload so that reads past its end see 0 bits. */
const PAD_SYMBOLS = 8;

let sym = new Uint8Array(256);
/** Number of valid symbols currently unpacked. */
let symCount = 0;

/**
 * Unpack the armored characters str[start..end) into the symbol buffer.
 * Returns the number of symbols, or -1 if a character is outside the armor set.
 */
export function unpackArmored(str: string, start: number, end: number): number {
  const n = end - start;
  if (n + PAD_SYMBOLS > sym.length) sym = new Uint8Array((n + PAD_SYMBOLS) * 2);
  const buf = sym;
  for (let i = 0; i < n; i++) {
    const c = str.charCodeAt(start + i);
    // charCodeAt >= 128 indexes past the table and yields undefined, which fails `>= 0`.
    const v = ARMOR[c] as number;
    if (!(v >= 0)) {
      symCount = 0;
      return -1;
    }
    buf[i] = v;
  }
  for (let i = n; i < n + PAD_SYMBOLS; i++) buf[i] = 0;
  symCount = n;
  return n;
}

/**
 * For a caller that unpacks while it scans (the stream decoder reads each character
 * once for the checksum and unpacks the payload in the same pass): the symbol buffer,
 * with room for at least `maxSymbols` symbols and the padding. Finish with endUnpack().
 */
export function beginUnpack(maxSymbols: number): Uint8Array {
  if (maxSymbols + PAD_SYMBOLS > sym.length) sym = new Uint8Array((maxSymbols + PAD_SYMBOLS) * 2);
  return sym;
}

/** Marks the first `n` symbols written since beginUnpack() as the payload, zero-padded. */
export function endUnpack(n: number): void {
  const buf = sym;
  for (let i = n; i < n + PAD_SYMBOLS; i++) buf[i] = 0;
  symCount = n;
}

/** The symbols currently unpacked (valid up to the message length, then zeros), for fixed-layout fast paths. */
export function symbols(): Uint8Array {
  return sym;
}

/** ARMOR as a lookup for fused scanners: value 0..63, or -1 outside the armor set (index < 128). */
export const ARMOR_TABLE: Readonly<Int8Array> = ARMOR;

/** True when every character of str[start..end) is in the armor set. */
export function isArmored(str: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const v = ARMOR[str.charCodeAt(i)] as number;
    if (!(v >= 0)) return false;
  }
  return true;
}

/**
 * Clear the bits from `bitLen` on (the fill bits of the last character), so that a
 * read past the message end sees 0 whatever the sender put in the padding.
 */
export function clearFrom(bitLen: number): void {
  if (bitLen < 0) return;
  const i = (bitLen / 6) | 0;
  if (i >= symCount) return;
  const keep = bitLen - i * 6;
  sym[i] = sym[i]! & ~(63 >> keep) & 63;
  for (let k = i + 1; k < symCount; k++) sym[k] = 0;
}

/**
 * Unsigned field of `len` bits (1..30) starting at bit `start` (bit 0 = MSB of the
 * first symbol, as M.1371 numbers them). Bits past the payload read as 0; callers
 * check the message length first so such reads are bounded by PAD_SYMBOLS.
 */
export function u(start: number, len: number): number {
  const buf = sym;
  let i = (start / 6) | 0;
  const off = start - i * 6;
  const avail = 6 - off;
  let v = buf[i]! & (63 >> off);
  if (avail >= len) return v >> (avail - len);
  let rem = len - avail;
  while (rem >= 6) {
    v = v * 64 + buf[++i]!;
    rem -= 6;
  }
  if (rem > 0) v = v * (1 << rem) + (buf[++i]! >> (6 - rem));
  return v;
}

/** Two's-complement signed field of `len` bits (2..30). */
export function s(start: number, len: number): number {
  const v = u(start, len);
  const half = 1 << (len - 1);
  return v >= half ? v - half * 2 : v;
}

/** One bit as a boolean. */
export function bit(start: number): boolean {
  const i = (start / 6) | 0;
  return ((sym[i]! >> (5 - (start - i * 6))) & 1) === 1;
}

/**
 * Six-bit text of `chars` characters starting at bit `start`, with the gpsd rule
 * (drivers/driver_ais.c from_sixbit): cut at the first '@' (M.1371: '@' = no
 * character, used as padding), then trim trailing spaces. Leading spaces are kept.
 */
export function text(start: number, chars: number): string {
  const codes = TEXT_CODES;
  const buf = sym;
  // A character straddles two symbols at a fixed offset: shift them together.
  let i = (start / 6) | 0;
  const off = start - i * 6;
  const back = 6 - off;
  let n = 0;
  for (; n < chars; n++, i++) {
    const v = ((buf[i]! << off) | (buf[i + 1]! >> back)) & 63;
    if (v === 0) break;
    codes[n] = v < 32 ? v + 64 : v;
  }
  // Trailing spaces are not significant.
  while (n > 0 && codes[n - 1] === 32) n--;
  let out = "";
  for (let k = 0; k < n; k++) out += ASCII[codes[k]!];
  return out;
}
