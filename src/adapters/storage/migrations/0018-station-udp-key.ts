import type { Kysely, Migration } from "kysely";

/**
 * Each station's UDP signing key, sealed under the secrets key kept outside the database
 * (secret-box.ts). Before this the key was SHA-256 of the secret, the very digest the table
 * stores, so a reader of the database could sign datagrams. The new key is derived from
 * the secret, which the database has never held: stations from before stay NULL here, and
 * their datagrams are refused until the owner rotates the secret (docs/secrets.md). The
 * same DDL on both engines (a nullable text column).
 */
export function stationUdpKey(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("stations").addColumn("udp_key", "text").execute();
    },
  };
}
