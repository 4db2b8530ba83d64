import type { Designation } from "../sanctions/designation.ts";
import type { CompanyRecord, FleetLink, FleetRole } from "./company.ts";
import { listEntityId, namedEntityId, parseCompanyImo, slugOf } from "./entity-id.ts";
import { normalizeName } from "../vessels/names.ts";

/** A company designated on a list (a legal entity, not a ship), as the list publishes it. */
export interface ListedCompany {
  recordId: string;
  name: string;
  aliases: string[];
  programs: string[];
  listedAt: string | null;
  /** The company IMO number the list carries for it, if any. */
  companyImo: string | null;
  country: string | null;
  address: string | null;
  sourceUrl: string;
}

/** How each list words the tie of a ship to a company, and which role that is. */
function ownerTie(list: string, d: Designation, owner: string): { role: FleetRole; evidence: string } {
  if (list === "ofac") {
    // SDN.CSV carries the tie in the remarks ("Linked To: X"); the owner column and the
    // XML vessel-owner feature name the ship's owner.
    if (d.remarks !== null && d.remarks.toLowerCase().includes(`linked to: ${owner.toLowerCase()}`)) return { role: "linked", evidence: `Linked To: ${owner}` };
    return { role: "registered_owner", evidence: `Vessel Owner: ${owner}` };
  }
  // The UK field is "Current owner/operator (s)": the list does not say which of the two.
  if (list === "uk") return { role: "linked", evidence: `Current owner/operator (s): ${owner}` };
  return { role: "linked", evidence: `Owner: ${owner}` };
}

/**
 * OFAC writes a person as "SURNAME, Given Names" (surname in capitals, given names in mixed
 * case) and a company in capitals: a "Linked To:" of that form is a person, not a company.
 */
export function looksLikePerson(list: string, name: string): boolean {
  return list === "ofac" && /^[\p{Lu}'\- .]+, \p{Lu}\p{Ll}/u.test(name);
}

/** "ACME SHIPPING LTD (IMO 5123456)" -> the name and the company IMO number it carries. */
export function splitCompanyImo(text: string): { name: string; companyImo: string | null } {
  const m = /[\s,;(]*\bIMO(?:\s*(?:number|no\.?))?[\s:]*(\d{7})\b\)?/i.exec(text);
  if (!m) return { name: text.trim(), companyImo: null };
  const name = (text.slice(0, m.index) + text.slice(m.index + m[0].length)).replace(/\s+/g, " ").replace(/[\s,;]+$/, "").trim();
  return { name: name === "" ? text.trim() : name, companyImo: parseCompanyImo(m[1]!) };
}

/**
 * The companies one version of a sanctions list states: each designated company with its own
 * designation, and every owner, operator or "Linked To:" company of a designated ship with
 * the ship in its fleet. A ship's company joins a designated company of the same list when
 * the list writes exactly that company's name or alias (the list links them itself), or
 * carries the same company IMO number; otherwise it is a company known by that name on
 * that list only.
 */
export function companiesFromSanctions(
  list: string,
  vessels: readonly Designation[],
  listed: readonly ListedCompany[],
  /** Names of the people the list designates (normalised): a ship's tie to one of them makes no company. */
  people: ReadonlySet<string> = new Set(),
): CompanyRecord[] {
  const out = new Map<string, CompanyRecord>();
  const byName = new Map<string, CompanyRecord | null>();
  const byImo = new Map<string, CompanyRecord>();
  for (const c of listed) {
    const slug = slugOf(c.name);
    if (slug === "") continue;
    const record: CompanyRecord = {
      source: list,
      key: `record:${c.recordId}`,
      entityId: listEntityId(list, c.recordId),
      name: c.name,
      aliases: c.aliases,
      companyImo: c.companyImo,
      lei: null,
      country: c.country,
      address: c.address,
      designations: [{ list, recordId: c.recordId, name: c.name, programs: c.programs, listedAt: c.listedAt, sourceUrl: c.sourceUrl }],
      fleet: [],
    };
    out.set(record.key, record);
    for (const n of [c.name, ...c.aliases]) {
      const norm = normalizeName(n);
      // Two listed companies under one name: the name alone says not which, so it links neither.
      byName.set(norm, byName.has(norm) && byName.get(norm) !== record ? null : record);
    }
    if (c.companyImo !== null) byImo.set(c.companyImo, record);
  }
  for (const d of vessels) {
    if (d.status !== "active") continue;
    const ships: { imo: number | null; mmsi: number | null }[] = d.imos.length > 0 ? d.imos.map((imo) => ({ imo, mmsi: null })) : d.mmsis.slice(0, 1).map((mmsi) => ({ imo: null, mmsi }));
    if (ships.length === 0) continue;
    for (const owner of d.owners) {
      const { name, companyImo } = splitCompanyImo(owner);
      const slug = slugOf(name);
      if (slug === "" || people.has(normalizeName(name)) || looksLikePerson(list, name)) continue;
      let company = (companyImo !== null ? byImo.get(companyImo) : undefined) ?? byName.get(normalizeName(name)) ?? undefined;
      if (!company) {
        const key = companyImo !== null ? `imo:${companyImo}` : `name:${slug}`;
        company = out.get(key);
        if (!company) {
          company = { source: list, key, entityId: namedEntityId(list, name), name, aliases: [], companyImo, lei: null, country: null, address: null, designations: [], fleet: [] };
          out.set(key, company);
          if (companyImo !== null) byImo.set(companyImo, company);
        }
      }
      const tie = ownerTie(list, d, owner);
      for (const ship of ships) {
        const link: FleetLink = { imo: ship.imo, mmsi: ship.mmsi, vesselName: d.name, role: tie.role, evidence: tie.evidence };
        const same = company.fleet.some((f) => f.imo === link.imo && f.mmsi === link.mmsi && f.role === link.role);
        if (!same) company.fleet.push(link);
      }
    }
  }
  return [...out.values()];
}
