import { formatVesselId, parseVesselId, type VesselId } from "../identifiers.ts";

/** The most vessels one watchlist holds: a whole fleet or book, screened in pages. */
export const MAX_WATCHLIST_MEMBERS = 10_000;

/** The rule every entry of a watchlist follows, as errors and forms quote it. */
export const MEMBER_RULE = "a checksum-valid 7-digit IMO number (e.g. 9176187) or `mmsi-` followed by the 9-digit MMSI (e.g. mmsi-244123456)";

/** One entry refused: its place in what was sent (from 0) and what it was, shortened for quoting. */
export interface RefusedEntry {
  index: number;
  text: string;
}

export type MemberParse = { ok: true; members: VesselId[] } | { ok: false; refused: RefusedEntry[] };

/**
 * The members of a watchlist from what a client sent: each entry an IMO number (text or a
 * JSON number) or an `mmsi-` id. Every bad entry is named, not only the first, so a list of
 * thousands is corrected in one go. The same vessel twice is kept once, where it first came.
 */
export function parseMembers(entries: readonly unknown[]): MemberParse {
  const members: VesselId[] = [];
  const refused: RefusedEntry[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    const id = typeof entry === "string" ? parseVesselId(entry) : typeof entry === "number" && Number.isInteger(entry) ? parseVesselId(String(entry)) : null;
    if (id === null) {
      refused.push({ index, text: quoted(entry) });
      return;
    }
    const key = formatVesselId(id);
    if (seen.has(key)) return;
    seen.add(key);
    members.push(id);
  });
  return refused.length > 0 ? { ok: false, refused } : { ok: true, members };
}

/** An entry as an error quotes it: at most 20 characters, whatever its type. */
function quoted(entry: unknown): string {
  const text = typeof entry === "string" ? entry : (JSON.stringify(entry) ?? String(entry));
  return text.length > 20 ? `${text.slice(0, 20)}...` : text;
}

/** The refused entries in words: each with its index, every one of them. */
export function refusedInWords(refused: readonly RefusedEntry[]): string {
  const n = refused.length;
  return `${n} ${n === 1 ? "entry is" : "entries are"} not ${MEMBER_RULE}: ${refused.map((r) => `[${r.index}] \`${r.text}\``).join(", ")}`;
}
