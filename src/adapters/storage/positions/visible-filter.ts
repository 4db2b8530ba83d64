import { type SqlBool, sql } from "kysely";
import type { VisibleStations } from "../../../interfaces/vessels.ts";
import type { SqlDialect } from "../dialect/dialect.ts";

/**
 * The stations a caller may see: its own account's, and the public ones. Keep this the one
 * place the visible set is put together (feeds and other public sets join the union here).
 */
export function visibleUnion(own: readonly number[], ...publicSets: readonly (readonly number[])[]): number[] {
  return [...new Set([...own, ...publicSets.flat()])].sort((a, b) => a - b);
}

/**
 * Links from datasets (no station) and from the stations the caller may see. The text is
 * the same whatever the stations (none included), so the reads using it can be prepared.
 */
export function visibleFilter(dialect: SqlDialect, visible: VisibleStations, column = "station_id") {
  return sql<SqlBool>`(${sql.ref(column)} IS NULL OR ${dialect.anyOf(column, visible)})`;
}
