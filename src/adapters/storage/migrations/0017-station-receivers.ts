import type { Kysely, Migration } from "kysely";
import { sql } from "kysely";

/**
 * Stations shared with everyone and stations fed by off-the-shelf receivers.
 *
 * Sharing: `shared` (migration 0001) says the station's data is public; these columns say
 * what its owner grants everyone else (API use is implied by sharing; redistribution and
 * commercial use are granted one by one) and the name the station's source goes by.
 *
 * Receivers: `plain_port` is the station's own port for plain NMEA over UDP and TCP (its
 * identity, as aggregators assign one per station); unique, so two stations never share
 * one. `allow_from` is a comma-separated list of CIDRs the station accepts senders from
 * (null: any). `connect_to` is `host:port` of a receiver's own TCP server the service
 * dials out to.
 */
export function stationReceivers(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("stations").addColumn("share_redistribution", "integer", (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable("stations").addColumn("share_commercial", "integer", (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable("stations").addColumn("source_name", "text").execute();
      await db.schema.alterTable("stations").addColumn("plain_port", "integer").execute();
      await db.schema.alterTable("stations").addColumn("allow_from", "text").execute();
      await db.schema.alterTable("stations").addColumn("connect_to", "text").execute();
      // Stations shared before this migration were shared under the `station` source, which
      // permits every use: they keep exactly that.
      await sql`UPDATE stations SET share_redistribution = 1, share_commercial = 1 WHERE shared = 1`.execute(db);
      await db.schema.createIndex("stations_plain_port").unique().on("stations").column("plain_port").execute();
      // The shared set is read for every request's visible stations.
      await sql`CREATE INDEX stations_shared ON stations (shared) WHERE shared = 1`.execute(db);
    },
  };
}
