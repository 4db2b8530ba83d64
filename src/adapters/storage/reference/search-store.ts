import { SqlStore } from "../sql-store.ts";
import { sql } from "kysely";
import { type MatchRank, matchesAt, normalizeName, TERM_LENGTH } from "../../../domain/vessels/names.ts";
import { NameIndex } from "../../../domain/name-index.ts";
import type { NameMatch, PortName, SearchStore, VesselNameLink, VisibleStations, WreckName } from "../../../interfaces/vessels.ts";
import { visibleFilter } from "../positions/visible-filter.ts";

/** Flags and ports change only on import; a minute's staleness is fine for search. */
const FLAGS_TTL_MS = 60_000;
const PORTS_TTL_MS = 60_000;
const WRECKS_TTL_MS = 60_000;

/** The highest code point: `term < prefix + MAX` bounds a prefix range bytewise on both engines. */
export const MAX_CHAR = String.fromCodePoint(0x10ffff);

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

/**
 * Name search over the registry's term index (migration 0004): a query matches a name
 * when it is a prefix of one of the name's suffixes, so every kind of match is one
 * range read of the (rank, term) key, best rank first. Rows come in term order, which
 * puts an exact name before longer ones that start the same way.
 */
export class SqlSearchStore extends SqlStore implements SearchStore {
  #flags: { rows: { iso2: string; name: string }[]; until: number } | null = null;
  #ports: { rows: PortName[]; until: number } | null = null;
  #wrecks: { index: NameIndex<WreckName>; until: number } | null = null;
  #portIndex: { rows: PortName[]; index: NameIndex<PortName> } | null = null;

  async vesselNames(normalized: string, visible: VisibleStations, limit: number): Promise<NameMatch[]> {
    const prefix = normalized.slice(0, TERM_LENGTH).trimEnd();
    const longer = normalized.length > prefix.length;
    // Each rank is a range read of the (rank, term) key; several names of one ship, or names
    // withheld from the caller, come out of a range too, so each reads some more than asked.
    const branch = (rank: MatchRank) => sql`SELECT * FROM (
        SELECT t.rank, t.term, n.vessel_id, n.name, n.norm, n.source, v.imo, v.mmsi_key
        FROM vessel_name_terms t JOIN vessel_names n ON n.id = t.name_id JOIN vessels v ON v.id = n.vessel_id
        WHERE t.rank = ${sql.lit(rank)} AND t.term >= ${prefix} AND t.term < ${prefix + MAX_CHAR} AND ${visibleFilter(this.dialect, visible, "n.station_id")}
        ORDER BY t.term LIMIT ${limit * 4}) ${sql.raw(`r${rank}`)}`;
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
    // Planning these joins took longer than running them: they run as prepared reads.
    take(await this.dialect.prepared<NameRow>(this.db, "mds_vessel_names_0", branch(0).compile(this.db)));
    if (out.length < limit) take(await this.dialect.prepared<NameRow>(this.db, "mds_vessel_names_12", sql`${branch(1)} UNION ALL ${branch(2)}`.compile(this.db)));
    return out;
  }

  async currentMmsis(vesselIds: readonly number[], visible: VisibleStations): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (vesselIds.length === 0) return out;
    const rows = await this.dialect.prepared<{ vessel_id: number; value: string; last_seen: number }>(
      this.db,
      "mds_current_mmsis",
      sql`SELECT vessel_id, value, last_seen FROM vessel_identifiers
        WHERE ${this.dialect.anyOf("vessel_id", vesselIds)} AND kind = 'mmsi' AND ${visibleFilter(this.dialect, visible)}`.compile(this.db),
    );
    const seen = new Map<number, number>();
    for (const r of rows) {
      if ((seen.get(r.vessel_id) ?? -1) >= r.last_seen) continue;
      seen.set(r.vessel_id, r.last_seen);
      out.set(r.vessel_id, Number(r.value));
    }
    return out;
  }

  async namesOf(vesselIds: readonly number[], visible: VisibleStations): Promise<Map<number, VesselNameLink[]>> {
    const out = new Map<number, VesselNameLink[]>();
    if (vesselIds.length === 0) return out;
    const rows = await this.dialect.prepared<{ vessel_id: number; name: string; source: string; station_id: number | null; first_seen: number; last_seen: number }>(
      this.db,
      "mds_names_of",
      sql`SELECT vessel_id, name, source, station_id, first_seen, last_seen FROM vessel_names
        WHERE ${this.dialect.anyOf("vessel_id", vesselIds)} AND ${visibleFilter(this.dialect, visible)}`.compile(this.db),
    );
    for (const r of rows) {
      const list = out.get(r.vessel_id) ?? [];
      list.push({ name: r.name, source: r.source, stationId: r.station_id, firstSeen: Number(r.first_seen), lastSeen: Number(r.last_seen) });
      out.set(r.vessel_id, list);
    }
    return out;
  }

  async typeSources(imos: readonly number[]): Promise<Map<number, string[]>> {
    const out = new Map<number, string[]>();
    if (imos.length === 0) return out;
    const add = (imo: number, source: string) => {
      const list = out.get(imo) ?? [];
      if (!list.includes(source)) list.push(source);
      out.set(imo, list);
    };
    const part = [...new Set(imos)];
    for (const r of await this.db.selectFrom("vessel_fleet").select(["imo", "source"]).distinct().where("imo", "in", part).where("ship_type", "is not", null).execute()) add(r.imo, r.source);
    for (const r of await this.db.selectFrom("vessel_emissions").select("imo").distinct().where("imo", "in", part).where("ship_type", "is not", null).execute()) add(r.imo, "emsa_mrv");
    return out;
  }

  async flags(): Promise<{ iso2: string; name: string }[]> {
    const now = Date.now();
    if (this.#flags && this.#flags.until > now) return this.#flags.rows;
    const rows = await this.db.selectFrom("flags").select(["iso2", "name"]).orderBy("iso2").execute();
    this.#flags = { rows, until: now + FLAGS_TTL_MS };
    return rows;
  }

  /**
   * About 18,000 ports: held in memory and matched there, like flags, because a port is
   * found by any word of any of its names and the table has no term index of its own.
   */
  async portNames(): Promise<PortName[]> {
    const now = Date.now();
    if (this.#ports && this.#ports.until > now) return this.#ports.rows;
    const rows = await this.db.selectFrom("ports").select(["unlocode", "name", "name_ascii", "wpi", "details"]).orderBy("unlocode").execute();
    const out = rows.map((r): PortName => {
      const alternates = (JSON.parse(r.details) as { alternateNames?: string[] }).alternateNames ?? [];
      const norms = [...new Set([r.name, r.name_ascii, ...alternates].map(normalizeName).filter((n) => n !== ""))];
      return { unlocode: r.unlocode, name: r.name, norms, harbour: r.wpi !== null };
    });
    this.#ports = { rows: out, until: now + PORTS_TTL_MS };
    return out;
  }

  /** About 10,000 AWOIS records, most named: held in memory like ports. */
  async wreckNames(): Promise<NameIndex<WreckName>> {
    const now = Date.now();
    if (this.#wrecks && this.#wrecks.until > now) return this.#wrecks.index;
    const rows = await this.db.selectFrom("wrecks").select(["id", "name", "slug", "source"]).where("name", "is not", null).orderBy("id").execute();
    const out = rows
      .map((r): WreckName => {
        const id = Number(r.id);
        return { id, name: r.name!, slug: r.slug.slice(0, r.slug.length - `-${id}`.length), norm: normalizeName(r.name!), source: r.source };
      })
      .filter((w) => w.norm !== "");
    const index = new NameIndex(out, (w) => [w.name]);
    this.#wrecks = { index, until: now + WRECKS_TTL_MS };
    return index;
  }

  /** The port names' index, rebuilt when portNames() reads the table again. */
  async portIndex(): Promise<NameIndex<PortName>> {
    const rows = await this.portNames();
    if (this.#portIndex?.rows !== rows) this.#portIndex = { rows, index: new NameIndex(rows, (p) => p.norms) };
    return this.#portIndex.index;
  }
}
