import type { Kysely } from "kysely";
import { type MatchRank, matchesAt, TERM_LENGTH } from "../../domain/vessels/names.ts";
import type { NameMatch, SearchStore, VisibleStations } from "../../ports/vessels.ts";
import type { Database } from "./schema.ts";
import { visibleFilter } from "./vessel-store.ts";

/** Flags change only on import; a minute's staleness is fine for search. */
const FLAGS_TTL_MS = 60_000;

/** The highest code point: `term < prefix + MAX` bounds a prefix range bytewise on both engines. */
const MAX_CHAR = String.fromCodePoint(0x10ffff);

/**
 * Name search over the registry's term index (migration 0004): a query matches a name
 * when it is a prefix of one of the name's suffixes, so every kind of match is one
 * range read of the (rank, term) key, best rank first. Rows come in term order, which
 * puts an exact name before longer ones that start the same way.
 */
export class SqlSearchStore implements SearchStore {
  readonly #db: Kysely<Database>;
  #flags: { rows: { iso2: string; name: string }[]; until: number } | null = null;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async vesselNames(normalized: string, visible: VisibleStations, limit: number): Promise<NameMatch[]> {
    const prefix = normalized.slice(0, TERM_LENGTH).trimEnd();
    const longer = normalized.length > prefix.length;
    const out: NameMatch[] = [];
    const vessels = new Set<number>();
    for (const rank of [0, 1, 2] as MatchRank[]) {
      // Several names of one ship, or names withheld from the caller, come out of the range too: read some more.
      const rows = await this.#db
        .selectFrom("vessel_name_terms as t")
        .innerJoin("vessel_names as n", "n.id", "t.name_id")
        .innerJoin("vessels as v", "v.id", "n.vessel_id")
        .select(["n.vessel_id", "n.name", "n.norm", "n.source", "v.imo", "v.mmsi_key"])
        .where("t.rank", "=", rank)
        .where("t.term", ">=", prefix)
        .where("t.term", "<", prefix + MAX_CHAR)
        .where(visibleFilter(visible, "n.station_id"))
        .orderBy("t.term")
        .limit(limit * 4)
        .execute();
      for (const r of rows) {
        if (vessels.has(r.vessel_id)) continue;
        // Terms are cut to TERM_LENGTH characters; a longer query is checked on the whole name.
        if (longer && !matchesAt(r.norm, normalized, rank)) continue;
        vessels.add(r.vessel_id);
        out.push({ vesselId: r.vessel_id, imo: r.imo, mmsiKey: r.mmsi_key, name: r.name, source: r.source, rank });
        if (out.length >= limit) return out;
      }
    }
    return out;
  }

  async currentMmsis(vesselIds: readonly number[], visible: VisibleStations): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (vesselIds.length === 0) return out;
    const rows = await this.#db
      .selectFrom("vessel_identifiers")
      .select(["vessel_id", "value", "last_seen"])
      .where("vessel_id", "in", [...vesselIds])
      .where("kind", "=", "mmsi")
      .where(visibleFilter(visible))
      .execute();
    const seen = new Map<number, number>();
    for (const r of rows) {
      if ((seen.get(r.vessel_id) ?? -1) >= r.last_seen) continue;
      seen.set(r.vessel_id, r.last_seen);
      out.set(r.vessel_id, Number(r.value));
    }
    return out;
  }

  async flags(): Promise<{ iso2: string; name: string }[]> {
    const now = Date.now();
    if (this.#flags && this.#flags.until > now) return this.#flags.rows;
    const rows = await this.#db.selectFrom("flags").select(["iso2", "name"]).orderBy("iso2").execute();
    this.#flags = { rows, until: now + FLAGS_TTL_MS };
    return rows;
  }
}
