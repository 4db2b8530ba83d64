import { type Kysely, type Migration, type MigrationProvider, Migrator } from "kysely";
import type { Engine } from "./dialect/dialect.ts";
import { columnTypes } from "./migrations/column-types.ts";
import { allMigrations } from "./migrations/index.ts";

class InlineProvider implements MigrationProvider {
  readonly #engine: Engine;
  constructor(engine: Engine) {
    this.#engine = engine;
  }
  async getMigrations(): Promise<Record<string, Migration>> {
    return allMigrations(columnTypes(this.#engine));
  }
}

/** Brings the schema up to date; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<unknown>, engine: Engine): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new InlineProvider(engine) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

