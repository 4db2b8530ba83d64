/**
 * Vessel names for matching: one normal form for the stored names and the query, so that
 * case, accents and punctuation never decide a match ("Ærø Express" = "aero express").
 */

/** Letters that Unicode decomposition does not split into a base letter and a mark. */
const FOLD: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  đ: "d",
  ð: "d",
  ł: "l",
  þ: "th",
  ı: "i",
  ħ: "h",
};
const FOLD_RE = new RegExp(`[${Object.keys(FOLD).join("")}]`, "g");

/** Lower case, accents and marks removed, every run of non-letters/digits one space, trimmed. */
export function normalizeName(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(FOLD_RE, (c) => FOLD[c] ?? c)
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * Stored terms are cut to this many characters: long enough that a prefix range on the
 * term is selective, short enough to keep the index small. Longer queries are checked
 * against the whole name after the range read.
 */
export const TERM_LENGTH = 16;

/** Queries shorter than this (after normalising) match too much to be useful. */
export const MIN_QUERY_LENGTH = 2;

export type MatchRank = 0 | 1 | 2;

export interface NameTerm {
  term: string;
  /** 0: starts the name; 1: starts a later word; 2: starts inside a word. */
  rank: MatchRank;
}

/**
 * Every suffix of a normalised name that starts with a letter or digit, cut to
 * TERM_LENGTH: a query matches a name exactly when it is a prefix of one of these, and
 * the suffix's rank says how good the match is. Duplicates (same term and rank) are dropped.
 */
export function nameTerms(normalized: string): NameTerm[] {
  const out: NameTerm[] = [];
  const seen = new Set<string>();
  for (let i = 0; i + MIN_QUERY_LENGTH <= normalized.length; i++) {
    if (normalized[i] === " ") continue;
    const term = normalized.slice(i, i + TERM_LENGTH).trimEnd();
    if (term.length < MIN_QUERY_LENGTH) continue;
    const rank: MatchRank = i === 0 ? 0 : normalized[i - 1] === " " ? 1 : 2;
    const key = `${rank}${term}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ term, rank });
  }
  return out;
}

/** Whether `query` (normalised) matches `name` (normalised) at the given rank, on the whole text. */
export function matchesAt(name: string, query: string, rank: MatchRank): boolean {
  if (rank === 0) return name.startsWith(query);
  let at = name.indexOf(query, 1);
  while (at !== -1) {
    const wordStart = name[at - 1] === " ";
    if (rank === 1 ? wordStart : !wordStart) return true;
    at = name.indexOf(query, at + 1);
  }
  return false;
}
