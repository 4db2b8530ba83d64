// Test-side builders: a minimal six-bit encoder and NMEA sentence framing, so tests
// can craft exact bit patterns (sentinels, auxiliary-craft MMSIs, odd lengths) and
// sentences with correct checksums around deliberately wrong fields.

/** Armor a bit string (of '0'/'1') into payload characters and the fill-bit count. */
export function armor(bits: string): { payload: string; fill: number } {
  const fill = (6 - (bits.length % 6)) % 6;
  const padded = bits + "0".repeat(fill);
  let payload = "";
  for (let i = 0; i < padded.length; i += 6) {
    const v = Number.parseInt(padded.slice(i, i + 6), 2);
    payload += String.fromCharCode(v < 40 ? v + 48 : v + 56);
  }
  return { payload, fill };
}

/** Bits of `value` in `len` bits, two's complement for negative values. */
export function field(value: number, len: number): string {
  const v = value < 0 ? 2 ** len + value : value;
  return v.toString(2).padStart(len, "0").slice(-len);
}

/** Six-bit text of exactly `chars` characters (padded with '@'). */
export function sixbitText(s: string, chars: number): string {
  let out = "";
  for (let i = 0; i < chars; i++) {
    const c = i < s.length ? s.charCodeAt(i) : 64;
    out += field(c >= 64 ? c - 64 : c, 6);
  }
  return out;
}

/** Concatenate [value, bits] pairs and text fields into one bit string. */
export function bits(...parts: Array<[number, number] | string>): string {
  return parts.map((p) => (typeof p === "string" ? p : field(p[0], p[1]))).join("");
}

/** NMEA checksum (XOR of the characters) as two upper-case hex digits. */
export function checksum(body: string): string {
  let x = 0;
  for (let i = 0; i < body.length; i++) x ^= body.charCodeAt(i);
  return x.toString(16).toUpperCase().padStart(2, "0");
}

/** `!body*hh` with a correct checksum. */
export function frame(body: string): string {
  return `!${body}*${checksum(body)}`;
}

export interface SentenceOpts {
  talker?: string;
  formatter?: string;
  total?: number;
  num?: number;
  seq?: string;
  channel?: string;
}

/** A VDM sentence around a payload, checksum included. */
export function sentence(payload: string, fill: number, o: SentenceOpts = {}): string {
  const body = [
    `${o.talker ?? "AI"}${o.formatter ?? "VDM"}`,
    String(o.total ?? 1),
    String(o.num ?? 1),
    o.seq ?? "",
    o.channel ?? "A",
    payload,
    String(fill),
  ].join(",");
  return frame(body);
}

/** A tag block `\fields*hh\` with a correct checksum. */
export function tagBlock(fields: string): string {
  return `\\${fields}*${checksum(fields)}\\`;
}

/** Split a payload into `n` fragments (the last carries the fill bits). */
export function fragments(payload: string, fill: number, n: number, seq: string, channel = "A"): string[] {
  const size = Math.ceil(payload.length / n);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const part = payload.slice(i * size, (i + 1) * size);
    out.push(sentence(part, i === n - 1 ? fill : 0, { total: n, num: i + 1, seq, channel }));
  }
  return out;
}

/** Deterministic PRNG (mulberry32) for reproducible garbage. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
