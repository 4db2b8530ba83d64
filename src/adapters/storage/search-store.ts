import type { Kysely } from "kysely";
import type pg from "pg";
import { type MatchRank, matchesAt, TERM_LENGTH } from "../../domain/vessels/names.ts";
import type { NameMatch, SearchStore, VisibleStations } from "../../ports/vessels.ts";
import type { Database } from "./schema.ts";
import { visibleFilter } from "./vessel-store.ts";

/** Flags change only on import; a minute's staleness is fine for search. */
const FLAGS_TTL_MS = 60_000;

/** The highest code point: `term < prefix + MAX` bounds a prefix range bytewise on both engines. */
const MAX_CHAR = String.fromCodePoint(0x10ffff);

interface NameRow {
  rank: number;
  term: string;
  vessel_id: number;
  name: string;
  norm: string;
  source: string;
  imo: number | null;
  mmsi_key: number | null;
}

/** The name reads of vesselNames as PostgreSQL statements: $1 prefix, $2 its upper bound, $3 visible stations, $4 rows per rank. */
const pgNames = (rank: number) => `SELECT t.rank, t.term, n.vessel_id, n.name, n.norm, n.source, v.imo, v.mmsi_key
  FROM vessel_name_terms t JOIN vessel_names n ON n.id = t.name_id JOIN vessels v ON v.id = n.vessel_id
  WHERE t.rank = ${rank} AND t.term >= $1 AND t.term < $2 AND (n.station_id IS NULL OR n.station_id = ANY($3::int4[]))
  ORDER BY t.term LIMIT $4`;
const PG_NAMES_0 = pgNames(0);
const PG_NAMES_12 = `(${pgNames(1)}) UNION ALL (${pgNames(2)})`;

/**
 * Name search over the registry's term index (migration 0004): a query matches a name
 * when it is a prefix of one of the name's suffixes, so every kind of match is one
 * range read of the (rank, term) key, best rank first. Rows come in term order, which
 * puts an exact name before longer ones that start the same way.
 */
export class SqlSearchStore implements SearchStore {
  readonly #db: Kysely<Database>;
  readonly #pg: pg.Pool | null;
  #flags: { rows: { iso2: string; name: string }[]; until: number } | null = null;

  /** `pgPool`: on PostgreSQL, the store's pool, for the reads that run as named prepared statements. */
  constructor(db: Kysely<Database>, pgPool: pg.Pool | null = null) {
    this.#db = db;
    this.#pg = pgPool;
  }

  async vesselNames(normalized: string, visible: VisibleStations, limit: number): Promise<NameMatch[]> {
    const prefix = normalized.slice(0, TERM_LENGTH).trimEnd();
    const longer = normalized.length > prefix.length;
    // Each rank is a range read of the (rank, term) key; several names of one ship, or names
    // withheld from the caller, come out of a range too, so each reads some more than asked.
    const branch = (rank: MatchRank) =>
      this.#db
        .selectFrom((db) =>
          db
            .selectFrom("vessel_name_terms as t")
            .innerJoin("vessel_names as n", "n.id", "t.name_id")
            .innerJoin("vessels as v", "v.id", "n.vessel_id")
            .select(["t.rank", "t.term", "n.vessel_id", "n.name", "n.norm", "n.source", "v.imo", "v.mmsi_key"])
            .where("t.rank", "=", rank)
            .where("t.term", ">=", prefix)
            .where("t.term", "<", prefix + MAX_CHAR)
            .where(visibleFilter(visible, "n.station_id"))
            .orderBy("t.term")
            .limit(limit * 4)
            .as(`r${rank}`),
        )
        .selectAll();
    const out: NameMatch[] = [];
    const vessels = new Set<number>();
    const take = (rows: NameRow[]) => {
      rows.sort((a, b) => a.rank - b.rank || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
      for (const r of rows) {
        if (out.length >= limit) return;
        if (vessels.has(r.vessel_id)) continue;
        // Terms are cut to TERM_LENGTH characters; a longer query is checked on the whole name.
        if (longer && !matchesAt(r.norm, normalized, r.rank as MatchRank)) continue;
        vessels.add(r.vessel_id);
        out.push({ vesselId: r.vessel_id, imo: r.imo, mmsiKey: r.mmsi_key, name: r.name, source: r.source, rank: r.rank as MatchRank });
      }
    };
    // Names starting with the query first: for most queries they fill the answer alone. The
    // two other ranks then go in one statement (one round trip to PostgreSQL, not two).
    if (this.#pg) {
      // Planning these joins took longer than running them: PostgreSQL plans a named statement once per connection.
      const values = [prefix, prefix + MAX_CHAR, [...visible], limit * 4];
      take((await this.#pg.query<NameRow>({ name: "mds_vessel_names_0", text: PG_NAMES_0, values })).rows);
      if (out.length < limit) take((await this.#pg.query<NameRow>({ name: "mds_vessel_names_12", text: PG_NAMES_12, values })).rows);
      return out;
    }
    take(await branch(0).execute());
    if (out.length < limit) take(await branch(1).unionAll(branch(2)).execute());
    return out;
  }

  async currentMmsis(vesselIds: readonly number[], visible: VisibleStations): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (vesselIds.length === 0) return out;
    const rows = this.#pg
      ? (
          await this.#pg.query<{ vessel_id: number; value: string; last_seen: number }>({
            name: "mds_current_mmsis",
            text: "SELECT vessel_id, value, last_seen FROM vessel_identifiers WHERE vessel_id = ANY($1::int4[]) AND kind = 'mmsi' AND (station_id IS NULL OR station_id = ANY($2::int4[]))",
            values: [[...vesselIds], [...visible]],
          })
        ).rows
      : await this.#db
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
