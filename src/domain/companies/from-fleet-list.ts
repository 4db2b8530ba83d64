import type { CompanyRecord } from "./company.ts";
import { namedEntityId, slugOf } from "./entity-id.ts";

/** A fleet list's row as the companies need it: the ship and the company column. */
export interface FleetListRow {
  imo: number;
  name: string;
  operator: string | null;
}

/**
 * Companies of a fleet list (MARAD) from its operator column. The list gives names only,
 * so each distinct name (as the list writes it, up to case and punctuation) is one company
 * of that list: the list itself links its rows by repeating the name. `column` is the
 * column's title, quoted as evidence.
 */
export function companiesFromFleetList(source: string, column: string, rows: readonly FleetListRow[]): CompanyRecord[] {
  const bySlug = new Map<string, CompanyRecord>();
  for (const row of rows) {
    const name = row.operator?.trim();
    if (!name) continue;
    const slug = slugOf(name);
    if (slug === "") continue;
    let c = bySlug.get(slug);
    if (!c) {
      c = { source, key: `name:${slug}`, entityId: namedEntityId(source, name), name, aliases: [], companyImo: null, lei: null, country: null, address: null, designations: [], fleet: [] };
      bySlug.set(slug, c);
    }
    c.fleet.push({ imo: row.imo, mmsi: null, vesselName: row.name, role: "operator", evidence: `${column}: ${name}` });
  }
  return [...bySlug.values()];
}
