import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./column-types.ts";

/**
 * Watchlists: an account's named lists of vessels, and their members in the order given
 * (`position`, so pages of members are stable ranges of the primary key). `member_count` is
 * kept with the list so the plan limit on members of all lists is a sum over the account's
 * few lists, not a count over its members. A member carries an IMO or an MMSI; both are
 * indexed because a sanctions import must find, for each changed designation, every member
 * carrying one of its identifiers, across all accounts.
 */
export function watchlists({ engine, bigint }: ColumnTypes): Migration {
  const serial = engine === "postgres" ? "serial" : "integer";
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("watchlists")
        .addColumn("id", serial, (c) => (engine === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("member_count", "integer", (c) => c.notNull())
        .addColumn("created_at", bigint, (c) => c.notNull())
        .addColumn("updated_at", bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("watchlists_account").on("watchlists").column("account_id").execute();

      await db.schema
        .createTable("watchlist_members")
        .addColumn("watchlist_id", "integer", (c) => c.notNull().references("watchlists.id"))
        .addColumn("position", "integer", (c) => c.notNull())
        .addColumn("imo", "integer")
        .addColumn("mmsi", "integer")
        .addPrimaryKeyConstraint("watchlist_members_pk", ["watchlist_id", "position"])
        .execute();
      await db.schema.createIndex("watchlist_members_imo").on("watchlist_members").column("imo").execute();
      await db.schema.createIndex("watchlist_members_mmsi").on("watchlist_members").column("mmsi").execute();
    },
  };
}
