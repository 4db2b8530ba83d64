/**
 * Company entity ids. The form says what the id rests on, so an id stays the same for as
 * long as the fact behind it does, across re-imports of any source:
 *
 * - `imo-5012345`: the company's IMO Unique Company and Registered Owner Identification
 *   Number, when any source carries it;
 * - `lei-529900T8BM49AURSDO55`: its ISO 17442 Legal Entity Identifier;
 * - `{list}-{recordId}` (`ofac-12345`, `uk-rus1234`): a sanctions list's own record of the company;
 * - `{source}-name-{slug}` (`marad-name-matson-navigation-co-inc`): a company a source names
 *   without any identifier; its name as that source writes it, so only that source's rows join it;
 * - `{source}-id-{id}`: a company of an operator's own import, by the file's own company id.
 *
 * Records join into one company only on a shared company IMO number or LEI, never on a name.
 * Every id a company's records carry resolves to it; the page names the strongest (IMO, then
 * LEI, then the others in order).
 */
import { normalizeName } from "../vessels/names.ts";

/** ISO 17442: 18 alphanumerics and two check digits (ISO 7064 MOD 97-10). */
export function parseLei(value: string): string | null {
  const v = value.trim().toUpperCase();
  if (!/^[A-Z0-9]{18}\d{2}$/.test(v)) return null;
  let rest = 0;
  for (const c of v) {
    const digits = /\d/.test(c) ? c : String(c.charCodeAt(0) - 55);
    for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1 ? v : null;
}

/**
 * A company IMO number: 7 digits. Unlike a ship's IMO number it has no check digit that
 * separates it (notes: 15 of 138 OFAC company numbers pass the ship check), so any 7 digits.
 */
export function parseCompanyImo(value: string): string | null {
  const m = /^\s*(?:IMO\s*)?(\d{7})\s*$/i.exec(value);
  return m ? m[1]! : null;
}

/** The name part of an id: normalised words joined by hyphens; empty when the name has no letter or digit. */
export function slugOf(name: string): string {
  return normalizeName(name).replace(/ /g, "-").slice(0, 80).replace(/-+$/, "");
}

export const imoEntityId = (imo: string) => `imo-${imo}`;
export const leiEntityId = (lei: string) => `lei-${lei}`;
export const listEntityId = (list: string, recordId: string) => `${list}-${slugOf(recordId)}`;
export const namedEntityId = (source: string, name: string) => `${source}-name-${slugOf(name)}`;
export const importedEntityId = (source: string, id: string) => `${source}-id-${slugOf(id)}`;

/** The id a record answers to by itself: its strongest identifier. */
export function strongestId(r: { companyImo: string | null; lei: string | null; entityId: string }): string {
  if (r.companyImo !== null) return imoEntityId(r.companyImo);
  if (r.lei !== null) return leiEntityId(r.lei);
  return r.entityId;
}

/** The id a company of several records is shown under: its company IMO number, else its LEI, else its records' first id. */
export function canonicalId(records: readonly { companyImo: string | null; lei: string | null; entityId: string }[]): string {
  const ids = records.map(strongestId);
  return ids.find((id) => id.startsWith("imo-")) ?? ids.find((id) => id.startsWith("lei-")) ?? [...ids].sort()[0]!;
}

/** An entity id as asked: the identifier it names, or the record id to look up. */
export type EntityRef = { kind: "imo"; value: string } | { kind: "lei"; value: string } | { kind: "record"; value: string };

export const ENTITY_ID_RULE =
  "must be a company entity id: imo-{7 digits}, lei-{20 characters}, {list}-{record id} (e.g. ofac-12345) or {source}-name-{slug} (e.g. marad-name-matson-navigation-co-inc); at most 160 characters of a-z, 0-9, hyphen and underscore";

/** Parses an entity id (case-insensitive); null when it has none of the documented forms. */
export function parseEntityId(value: string): EntityRef | null {
  const v = value.trim().toLowerCase();
  if (v.length < 3 || v.length > 160 || !/^[a-z0-9_]+(?:-[\p{L}\p{N}_]+)+$/u.test(v)) return null;
  // The page form `{entityId}-{slug}` of these two ends the identifier at the first hyphen.
  if (v.startsWith("imo-")) {
    const imo = parseCompanyImo(v.slice(4).split("-")[0]!);
    return imo === null ? null : { kind: "imo", value: imo };
  }
  if (v.startsWith("lei-")) {
    const lei = parseLei(v.slice(4).split("-")[0]!);
    return lei === null ? null : { kind: "lei", value: lei };
  }
  return { kind: "record", value: v };
}
