import type { Kysely, Migration } from "kysely";

/**
 * Open AIS gaps: the sweep asks which vessels each station last heard between 6 h and a few
 * days ago (`derived_state.last_time`), so that range is indexed rather than every state read.
 * The same DDL on both engines.
 */
export function openGaps(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex("derived_state_last_time").on("derived_state").columns(["last_time"]).execute();
    },
  };
}
