import type { Kysely } from "kysely";
import type { WreckRow, WreckStore } from "../../../interfaces/reference.ts";
import { inBatches } from "../batches.ts";
import type { Database, WrecksTable } from "../schema.ts";

/** Rows per INSERT: 7 columns, well under SQLite's bound-variable limit. */
const BATCH = 500;

type WreckFacts = Omit<WreckRow, "id" | "slug" | "name" | "lat" | "lon" | "source">;

function toRow(w: WreckRow): WrecksTable {
  const facts: WreckFacts = {
    featureType: w.featureType,
    positionQuality: w.positionQuality,
    depth: w.depth,
    depthM: w.depthM,
    yearSunk: w.yearSunk,
    history: w.history,
  };
  return { id: w.id, slug: w.slug, name: w.name, lat: w.lat, lon: w.lon, source: w.source, record: JSON.stringify(facts) };
}

function fromRow(r: WrecksTable): WreckRow {
  const facts = JSON.parse(r.record) as WreckFacts;
  return { id: Number(r.id), slug: r.slug, name: r.name, lat: Number(r.lat), lon: Number(r.lon), source: r.source, ...facts };
}

export class SqlWreckStore implements WreckStore {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async get(id: number): Promise<WreckRow | null> {
    const r = await this.#db.selectFrom("wrecks").selectAll().where("id", "=", id).executeTakeFirst();
    return r ? fromRow(r) : null;
  }

  async count(): Promise<number> {
    const r = await this.#db.selectFrom("wrecks").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async replaceAll(rows: WreckRow[], onBatch?: (rows: number) => void): Promise<void> {
    await this.#db.transaction().execute(async (tx) => {
      await tx.deleteFrom("wrecks").execute();
      await inBatches(rows.map(toRow), BATCH, async (batch) => {
        await tx.insertInto("wrecks").values(batch).execute();
        onBatch?.(batch.length);
      });
    });
  }
}
