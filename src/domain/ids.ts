/**
 * Prefixed ids: the one place their text form is written and read. A stored row has a
 * number; clients see `<prefix>_<number>` (`wh_12`), so an id names its kind and one kind's
 * id is never taken for another's. Account and key ids (`acc_`, `key_`) are random text made
 * whole at creation (domain/secrets.ts) and are not parsed here.
 */

/** What each prefix names, as error messages say it. */
export const ID_PREFIXES = {
  wh: "webhook endpoint",
  dlv: "delivery",
  zone: "zone",
  follow: "follow",
  search: "saved search",
  evt: "event",
  wl: "watchlist",
} as const;

export type IdPrefix = keyof typeof ID_PREFIXES;

/** The largest number an id carries: 15 digits stay exact in a JSON number and in a bigint column. */
const ID_PATTERN = /^([a-z]+)_([1-9][0-9]{0,14})$/;

/**
 * The largest number a stored row carries: the id columns are 32-bit on PostgreSQL (serial)
 * and SQLite's stay below it too, since both count up from 1. An id beyond it is well-formed
 * but names no object on any engine, so it is answered as one that does not exist (the same
 * 404, built fresh) rather than as bad input: the text follows every rule a client is told.
 */
export const MAX_ROW_ID = 2_147_483_647;

/** Whether a parsed id can name a stored row at all; one that cannot must never reach a query (PostgreSQL refuses it as out of range). */
export function canExist(id: number): boolean {
  return id <= MAX_ROW_ID;
}

export function formatId(prefix: IdPrefix, id: number): string {
  return `${prefix}_${id}`;
}

/** The number of an id of this kind, or null when the text is not one (another kind, no prefix, not a number). */
export function parseId(prefix: IdPrefix, text: string): number | null {
  const m = ID_PATTERN.exec(text);
  return m && m[1] === prefix ? Number(m[2]) : null;
}

/** The rule an id parameter states when it is refused. */
export function idRule(prefix: IdPrefix): string {
  const noun = ID_PREFIXES[prefix];
  return `must be ${/^[aeiou]/.test(noun) ? "an" : "a"} ${noun} id such as ${prefix}_12`;
}
