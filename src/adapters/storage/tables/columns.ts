/** `stationId` -> `station_id`: a domain field's name as a column name. */
type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/**
 * A table's columns when they are a domain record's fields one to one: the same types,
 * the names in snake case. Tables declared this way cannot drift from the record.
 */
export type Columns<T> = { [K in keyof T & string as SnakeCase<K>]: T[K] };
