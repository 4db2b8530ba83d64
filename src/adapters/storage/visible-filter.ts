import { type SqlBool, sql } from "kysely";
import type { VisibleStations } from "../../ports/vessels.ts";
import type { SqlDialect } from "./dialect/dialect.ts";

/**
 * Links from datasets (no station) and from the stations the caller may see. The text is
 * the same whatever the stations (none included), so the reads using it can be prepared.
 */
export function visibleFilter(dialect: SqlDialect, visible: VisibleStations, column = "station_id") {
  return sql<SqlBool>`(${sql.ref(column)} IS NULL OR ${dialect.anyOf(column, visible)})`;
}
