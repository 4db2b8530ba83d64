import type { Kysely } from "kysely";
import { hashSecret, newSecret, udpSigningKey } from "../../domain/secrets.ts";
import type { Station, StationStore } from "../../ports/accounts.ts";
import type { Clock } from "../../ports/clock.ts";
import type { Database, StationsTable } from "./schema.ts";
import type { SecretBox } from "./secret-box.ts";

type StationRow = Omit<StationsTable, "id"> & { id: number };

function toStation(r: StationRow): Station {
  return { id: r.id, accountId: r.account_id, name: r.name, shared: r.shared === 1, createdAt: r.created_at };
}

export class SqlStationStore implements StationStore {
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;
  /** Seals each station's UDP signing key: the database never holds it in the clear. */
  readonly #box: SecretBox;

  constructor(db: Kysely<Database>, clock: Clock, box: SecretBox) {
    this.#db = db;
    this.#clock = clock;
    this.#box = box;
  }

  /** The stored forms of a secret: its digest (found at login) and its sealed UDP signing key. */
  #credentials(secret: string): { secret_hash: string; udp_key: string } {
    return { secret_hash: hashSecret(secret), udp_key: this.#box.seal(udpSigningKey(secret).toString("hex")) };
  }

  async createStation(accountId: string, name: string): Promise<{ station: Station; secret: string }> {
    const secret = newSecret("mds_st");
    const row = await this.#db
      .insertInto("stations")
      .values({ account_id: accountId, name, ...this.#credentials(secret), shared: 0, created_at: this.#clock.now() })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { station: toStation(row), secret };
  }

  /** UDP keys not sealed under the current secrets key (a key rotation) are sealed under it; run at every start. */
  async sealUdpKeys(): Promise<number> {
    const stale = await this.#db
      .selectFrom("stations")
      .select(["id", "udp_key"])
      .where("udp_key", "is not", null)
      .where("udp_key", "not like", `${this.#box.currentPrefix}%`)
      .execute();
    // Conditional on the value read: a process starting at the same time re-seals the same key, either write is right.
    for (const r of stale) await this.#db.updateTable("stations").set({ udp_key: this.#box.reseal(r.udp_key!) }).where("id", "=", r.id).where("udp_key", "=", r.udp_key).execute();
    return stale.length;
  }

  async rotateSecret(stationId: number): Promise<{ station: Station; secret: string } | null> {
    const secret = newSecret("mds_st");
    const row = await this.#db.updateTable("stations").set(this.#credentials(secret)).where("id", "=", stationId).returningAll().executeTakeFirst();
    return row ? { station: toStation(row), secret } : null;
  }

  async listStations(accountId: string): Promise<Station[]> {
    const rows = await this.#db.selectFrom("stations").selectAll().where("account_id", "=", accountId).orderBy("id").execute();
    return rows.map(toStation);
  }
}
