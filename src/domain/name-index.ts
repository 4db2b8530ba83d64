import { normalizeName } from "./vessels/names.ts";

/** 1: a whole name; 2: a name's start; 3: the start of a later word. */
export type NameIndexTier = 1 | 2 | 3;

/**
 * Names held in memory (ports, wrecks: tens of thousands) as a sorted list of terms: each
 * normalised name from the start of each of its words on. A query that starts a name or a
 * word is a prefix of its terms, so a lookup is a binary search and a walk over the matches
 * instead of a scan of every name.
 */
export class NameIndex<T> {
  readonly #items: readonly T[];
  /** term, item index, and whether the term starts the name; sorted by term. */
  readonly #terms: { term: string; item: number; start: boolean }[] = [];

  constructor(items: readonly T[], namesOf: (item: T) => readonly string[]) {
    this.#items = items;
    items.forEach((item, i) => {
      for (const name of namesOf(item)) {
        const norm = normalizeName(name);
        for (let at = 0; at < norm.length; at++) if (at === 0 || norm[at - 1] === " ") this.#terms.push({ term: norm.slice(at), item: i, start: at === 0 });
      }
    });
    this.#terms.sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
  }

  /** Every item a normalised query matches, with its best tier, in item order within a tier. */
  find(normalized: string): { item: T; tier: NameIndexTier }[] {
    let lo = 0;
    let hi = this.#terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#terms[mid]!.term < normalized) lo = mid + 1;
      else hi = mid;
    }
    const best = new Map<number, NameIndexTier>();
    for (let i = lo; i < this.#terms.length && this.#terms[i]!.term.startsWith(normalized); i++) {
      const t = this.#terms[i]!;
      const tier: NameIndexTier = !t.start ? 3 : t.term === normalized ? 1 : 2;
      if ((best.get(t.item) ?? 4) > tier) best.set(t.item, tier);
    }
    return [...best]
      .sort((a, b) => a[1] - b[1] || a[0] - b[0])
      .map(([i, tier]) => ({ item: this.#items[i]!, tier }));
  }
}
