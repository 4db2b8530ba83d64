import type { Kysely, Transaction } from "kysely";
import type { Port } from "../../../domain/ports/port.ts";
import type { DatasetLog, FlagRow, FlagStore, NonPortPlace, PortStore } from "../../../interfaces/reference.ts";
import { inBatches } from "../batches.ts";
import type { Database, PortsTable } from "../schema.ts";

/** Rows per INSERT: well under SQLite's bound-variable limit at 17 columns. */
const BATCH = 400;

/**
 * The one mapper between a Port and its row: the columns are the Port's fields in snake
 * case (tables/reference.ts), lists and objects as JSON text; only those are named here.
 */
function fromPort({ name_ascii, subdivision_name, function_names, coord_source, wpi, details, ...same }: PortsTable): Port {
  return {
    ...same,
    nameAscii: name_ascii,
    subdivisionName: subdivision_name,
    functionNames: JSON.parse(function_names) as string[],
    coordSource: coord_source,
    wpi: wpi ? (JSON.parse(wpi) as Port["wpi"]) : null,
    details: JSON.parse(details) as Port["details"],
  };
}

function toPort({ nameAscii, subdivisionName, functionNames, coordSource, wpi, details, ...same }: Port): PortsTable {
  return {
    ...same,
    name_ascii: nameAscii,
    subdivision_name: subdivisionName,
    function_names: JSON.stringify(functionNames),
    coord_source: coordSource,
    wpi: wpi ? JSON.stringify(wpi) : null,
    details: JSON.stringify(details),
  };
}

/** Port pages are read far more often than ports change: keep recent ones a minute. */
const PORT_CACHE_TTL_MS = 60_000;
const PORT_CACHE_MAX = 5_000;

export class SqlPortStore implements PortStore {
  readonly #db: Kysely<Database>;
  readonly #cache = new Map<string, { row: Port | null; until: number }>();

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async list(query: { country?: string; after?: string; limit: number }): Promise<Port[]> {
    let q = this.#db.selectFrom("ports").selectAll();
    if (query.country) q = q.where("country", "=", query.country);
    if (query.after) q = q.where("unlocode", ">", query.after);
    const rows = await q.orderBy("unlocode").limit(query.limit).execute();
    return rows.map(fromPort);
  }

  async get(unlocode: string): Promise<Port | null> {
    const now = Date.now();
    const hit = this.#cache.get(unlocode);
    if (hit && hit.until > now) return hit.row;
    const r = await this.#db.selectFrom("ports").selectAll().where("unlocode", "=", unlocode).executeTakeFirst();
    const row = r ? fromPort(r) : null;
    if (this.#cache.size >= PORT_CACHE_MAX) this.#cache.clear();
    this.#cache.set(unlocode, { row, until: now + PORT_CACHE_TTL_MS });
    return row;
  }

  /**
   * The link is kept on the ports' rows (details JSON), so this reads the ports of the
   * code's country whose details name the code: a few hundred rows at most, on a 404 path.
   */
  async nonPortPlace(unlocode: string): Promise<NonPortPlace | null> {
    const rows = await this.#db
      .selectFrom("ports")
      .selectAll()
      .where("country", "=", unlocode.slice(0, 2))
      .where("details", "like", `%"unlocode":"${unlocode}"%`)
      .orderBy("unlocode")
      .execute();
    let place: NonPortPlace | null = null;
    for (const row of rows.map(fromPort)) {
      const loc = row.details.sameNameLocations?.find((l) => l.unlocode === unlocode);
      if (!loc) continue;
      place ??= { unlocode, name: loc.name, functionNames: loc.functionNames, ports: [] };
      place.ports.push({ unlocode: row.unlocode, name: row.name });
    }
    return place;
  }

  async count(): Promise<number> {
    const r = await this.#db.selectFrom("ports").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** All or nothing: the old rows stay if any insert fails. */
  async replaceAll(rows: Port[], onBatch?: (rows: number) => void): Promise<void> {
    this.#cache.clear();
    await this.#db.transaction().execute(async (tx: Transaction<Database>) => {
      await tx.deleteFrom("ports").execute();
      await inBatches(rows.map(toPort), BATCH, async (batch) => {
        await tx.insertInto("ports").values(batch).execute();
        onBatch?.(batch.length);
      });
    });
  }
}

/** How long the MID allocations are kept in memory: an import in another process is seen within it. */
const MID_CACHE_MS = 1_000;

export class SqlFlagStore implements FlagStore {
  readonly #db: Kysely<Database>;
  #mids: { at: number; byMid: Promise<Map<number, string[]>> } | null = null;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async get(iso2: string): Promise<FlagRow | null> {
    const r = await this.#db.selectFrom("flags").selectAll().where("iso2", "=", iso2).executeTakeFirst();
    return r ? { iso2: r.iso2, name: r.name, record: JSON.parse(r.record) as Record<string, unknown> } : null;
  }

  async countriesOfMid(mid: number): Promise<string[]> {
    const now = Date.now();
    if (!this.#mids || now - this.#mids.at > MID_CACHE_MS) this.#mids = { at: now, byMid: this.#readMids() };
    return (await this.#mids.byMid).get(mid) ?? [];
  }

  /** Every country's MIDs (its record's `mids`), turned round: the few hundred flag rows, read at once. */
  async #readMids(): Promise<Map<number, string[]>> {
    const byMid = new Map<number, string[]>();
    for (const r of await this.#db.selectFrom("flags").select(["iso2", "record"]).execute()) {
      const mids = (JSON.parse(r.record) as { mids?: unknown }).mids;
      if (!Array.isArray(mids)) continue;
      for (const m of mids) if (typeof m === "number") byMid.set(m, [...(byMid.get(m) ?? []), r.iso2]);
    }
    return byMid;
  }

  async replaceAll(rows: FlagRow[]): Promise<void> {
    this.#mids = null;
    await this.#db.transaction().execute(async (tx) => {
      await tx.deleteFrom("flags").execute();
      await inBatches(
        rows.map((f) => ({ iso2: f.iso2, name: f.name, record: JSON.stringify(f.record) })),
        BATCH,
        (batch) => tx.insertInto("flags").values(batch).execute(),
      );
    });
  }
}

export class SqlDatasetLog implements DatasetLog {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async get(id: string) {
    const r = await this.#db.selectFrom("datasets").selectAll().where("id", "=", id).executeTakeFirst();
    return r ? { rows: r.rows, origin: r.origin, importedAt: r.imported_at } : null;
  }

  async record(id: string, rows: number, origin: string, at: number): Promise<void> {
    await this.#db
      .insertInto("datasets")
      .values({ id, rows, origin, imported_at: at })
      .onConflict((oc) => oc.column("id").doUpdateSet({ rows, origin, imported_at: at }))
      .execute();
  }
}
