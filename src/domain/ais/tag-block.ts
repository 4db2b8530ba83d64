// NMEA 4.0 tag blocks (`\s:station,c:time*hh\` before a sentence) and the hex digits of
// NMEA checksums.

/** HEX[charCode] = value 0..15, or -1. Upper and lower case accepted (lenient). */
const HEX = new Int8Array(128).fill(-1);
for (let c = 48; c <= 57; c++) HEX[c] = c - 48;
for (let c = 65; c <= 70; c++) HEX[c] = c - 55;
for (let c = 97; c <= 102; c++) HEX[c] = c - 87;

/** The hex digit at line[i], or -1. */
export function hexAt(line: string, i: number): number {
  const v = HEX[line.charCodeAt(i)];
  return v === undefined ? -1 : v;
}

/**
 * The tag block fields the decoder uses, rewritten for each line (the decoder holds them
 * itself: the per-line path reads them from the object it already has in hand).
 */
export interface TagBlock {
  /** s: source station. */
  tagStation: string | null;
  /** c: UNIX time in milliseconds, or -1. */
  tagTime: number;
  /** g: the id of the sentence group, which ties the sentences of one message. */
  tagGroup: string | null;
}

/**
 * Parses the tag block fields in line[from..close) ("k:v,k:v*hh") into `tag`. Sets them
 * only when the tag block checksum is present and right (NMEA 4.0: XOR of the characters
 * between '\' and '*'); returns false, leaving `tag` as it was, when it is not.
 */
export function parseTagBlock(line: string, from: number, close: number, tag: TagBlock): boolean {
  let x = 0;
  let i = from;
  for (; i < close; i++) {
    const ch = line.charCodeAt(i);
    if (ch === 42) break;
    x ^= ch;
  }
  if (i >= close || close - i !== 3) return false;
  const h1 = hexAt(line, i + 1);
  const h2 = hexAt(line, i + 2);
  if (h1 < 0 || h2 < 0 || h1 * 16 + h2 !== x) return false;
  const stop = i;
  let station: string | null = null;
  let time = -1;
  let group: string | null = null;
  let f = from;
  while (f < stop) {
    let e = line.indexOf(",", f);
    if (e < 0 || e > stop) e = stop;
    // Field: one-letter code, ':', value.
    if (e - f >= 2 && line.charCodeAt(f + 1) === 58) {
      const code = line.charCodeAt(f);
      if (code === 115) {
        // s: source station.
        station = line.slice(f + 2, e);
      } else if (code === 99) {
        // c: UNIX time. Seconds per NMEA 4.0; some feeds send milliseconds, told
        // apart by magnitude (1e11 s is year 5138, 1e11 ms is 1973).
        const v = Number(line.slice(f + 2, e));
        if (Number.isFinite(v) && v >= 0) time = v > 1e11 ? Math.round(v) : Math.round(v * 1000);
      } else if (code === 103) {
        // g: sentence-group "n-m-id"; the id ties the sentences of one message.
        const val = line.slice(f + 2, e);
        const dash = val.lastIndexOf("-");
        group = dash >= 0 ? val.slice(dash + 1) : val;
      }
    }
    f = e + 1;
  }
  tag.tagStation = station;
  tag.tagTime = time;
  tag.tagGroup = group;
  return true;
}
