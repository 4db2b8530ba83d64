import { normalizeName } from "../vessels/names.ts";

/**
 * Whether a saved search matches a vessel newly on a list (the `alert.saved_search` rule):
 * the search's kinds, when it names any, include `vessel` or `sanctions`; and its text is
 * one of the vessel's IMO numbers or MMSIs, or every word of it appears, in order, in the
 * vessel's name as search normalises names (case, accents and punctuation aside).
 */
export function savedSearchMatches(search: { q: string; kind: string | null }, vessel: { name: string; imos: readonly number[]; mmsis: readonly number[] }): boolean {
  if (search.kind !== null) {
    const kinds = search.kind.split(",");
    if (!kinds.includes("vessel") && !kinds.includes("sanctions")) return false;
  }
  const q = search.q.trim();
  if (/^\d{7}$/.test(q) && vessel.imos.includes(Number(q))) return true;
  if (/^\d{9}$/.test(q) && vessel.mmsis.includes(Number(q))) return true;
  const words = normalizeName(q);
  if (words === "") return false;
  return ` ${normalizeName(vessel.name)} `.includes(` ${words} `);
}
