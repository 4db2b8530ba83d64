import { normalizeName } from "../vessels/names.ts";

/** Terms are cut to this many characters; longer queries are checked against the whole name after the range read. */
export const COMPANY_TERM_LENGTH = 32;

/**
 * The search terms of a company's names: each normalised name from the start of each of its
 * words on (rank 0 the name's start, 1 a later word), cut to COMPANY_TERM_LENGTH, so a query
 * that starts a name or a word is a prefix of one term.
 */
export function companyNameTerms(names: readonly string[]): { term: string; rank: 0 | 1 }[] {
  const out = new Map<string, 0 | 1>();
  for (const name of names) {
    const norm = normalizeName(name);
    for (let i = 0; i < norm.length; i++) {
      if (i > 0 && norm[i - 1] !== " ") continue;
      const term = norm.slice(i, i + COMPANY_TERM_LENGTH).trimEnd();
      const rank = i === 0 ? 0 : 1;
      if (term.length > 0 && (out.get(term) ?? 2) > rank) out.set(term, rank);
    }
  }
  return [...out].map(([term, rank]) => ({ term, rank }));
}
