import type { Kysely } from "kysely";
import { hashSecret, newSecret } from "../../domain/secrets.ts";
import type { Station, StationStore } from "../../ports/accounts.ts";
import type { Clock } from "../../ports/clock.ts";
import type { Database, StationsTable } from "./schema.ts";

type StationRow = Omit<StationsTable, "id"> & { id: number };

function toStation(r: StationRow): Station {
  return { id: r.id, accountId: r.account_id, name: r.name, shared: r.shared === 1, createdAt: r.created_at };
}

export class SqlStationStore implements StationStore {
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;

  constructor(db: Kysely<Database>, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  async createStation(accountId: string, name: string): Promise<{ station: Station; secret: string }> {
    const secret = newSecret("mds_st");
    const row = await this.#db
      .insertInto("stations")
      .values({ account_id: accountId, name, secret_hash: hashSecret(secret), shared: 0, created_at: this.#clock.now() })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { station: toStation(row), secret };
  }

  async listStations(accountId: string): Promise<Station[]> {
    const rows = await this.#db.selectFrom("stations").selectAll().where("account_id", "=", accountId).orderBy("id").execute();
    return rows.map(toStation);
  }
}
