import type { SanctionsListKey } from "../../domain/sanctions/designation.ts";
import type { OperationContext } from "../operation.ts";

/**
 * How a hit matched, best first: an identifier (IMO, MMSI, UN/LOCODE, ISO code, a record's
 * own id), then the name whole or at its start (`name`), a later word (`word`), or inside a word
 * (`substring`, the loosest match search makes).
 */
export const SEARCH_MATCHES = ["imo", "mmsi", "unlocode", "iso2", "id", "lei", "name", "word", "substring"] as const;
export type SearchMatch = (typeof SEARCH_MATCHES)[number];

export interface Hit {
  kind: string;
  id: string;
  name: string;
  imo: number | null;
  mmsi: number | null;
  match: SearchMatch;
  api: string;
  page: string;
  /** Vessel hits: the lists designating the ship now (search.ts fills it once hits are chosen). */
  sanctioned?: SanctionsListKey[];
}

/**
 * Order of hits across kinds: 0 an exact identifier, 1 an exact name, 2 a name starting with
 * the query, 3 a later word, 4 inside a word.
 */
export type Tier = 0 | 1 | 2 | 3 | 4;

/** A hit before the rights filter: the sources it rests on and its tier. */
export interface PendingHit {
  hit: Hit;
  sources: string[];
  section: string;
  tier: Tier;
  /** A vessel hit's ship: its page link is finished from the ship's current name once hits are chosen. */
  vesselId?: number;
}

/** The query as every source needs it. */
export interface SearchQuery {
  /** As given, trimmed. */
  q: string;
  /** normalizeName(q). */
  normalized: string;
  /** q without white space, for identifiers. */
  compact: string;
  /** Hits per answer: a source never needs to return more. */
  limit: number;
}

/**
 * One kind of thing search finds. A kind is one file under operations/search/ and one line
 * in sources.ts; search ranks the hits of every kind asked for together.
 */
export interface SearchSource {
  kind: string;
  /** What it is found by, for the operation's description. */
  foundBy: string;
  hits(ctx: OperationContext, query: SearchQuery): Promise<PendingHit[]>;
}

/** Tier of a match on a normalised name: whole name, start, later word, inside a word, or none. */
export function nameTier(norm: string, normalized: string): Tier | null {
  if (norm === normalized) return 1;
  if (norm.startsWith(normalized)) return 2;
  if (norm.includes(` ${normalized}`)) return 3;
  return null;
}

/** The `match` a name tier reports. */
export function nameMatch(tier: Tier): SearchMatch {
  return tier === 3 ? "word" : tier === 4 ? "substring" : "name";
}
