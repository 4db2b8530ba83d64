import type { Kysely } from "kysely";
import type { Inspection } from "../../../domain/inspections/inspection.ts";
import type { InspectionStore } from "../../../interfaces/inspections.ts";
import { inBatches } from "../batches.ts";
import type { Database } from "../schema.ts";

/** Rows per INSERT: 7 columns, well under SQLite's bound-variable limit. */
const BATCH = 500;

export class SqlInspectionStore implements InspectionStore {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async replaceSource(source: string, rows: readonly Inspection[]): Promise<void> {
    await this.#db.transaction().execute(async (tx) => {
      await tx.deleteFrom("inspections").where("source", "=", source).execute();
      await inBatches(
        rows.map((r) => ({ source, imo: r.imo, date: r.date, type: r.type, port: r.port, authority: r.authority, origin: r.origin })),
        BATCH,
        (batch) => tx.insertInto("inspections").values(batch).execute(),
      );
    });
  }

  async forVessel(imo: number): Promise<(Inspection & { source: string })[]> {
    const rows = await this.#db.selectFrom("inspections").selectAll().where("imo", "=", imo).orderBy("date", "desc").orderBy("source").orderBy("type").execute();
    return rows.map((r) => ({ source: r.source, imo: Number(r.imo), date: r.date, type: r.type, port: r.port, authority: r.authority, origin: r.origin }));
  }
}
