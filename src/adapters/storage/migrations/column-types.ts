import type { Engine } from "../dialect/dialect.ts";

/** The types that differ between the engines, so migrations are written once for both. */
export interface ColumnTypes {
  engine: Engine;
  /** 64-bit integers: epoch milliseconds, counters. */
  bigint: "bigint" | "integer";
  real: "double precision" | "real";
}

export function columnTypes(engine: Engine): ColumnTypes {
  return { engine, bigint: engine === "postgres" ? "bigint" : "integer", real: engine === "postgres" ? "double precision" : "real" };
}
