/**
 * The companies OFAC designates, from SDN.CSV: rows whose SDN_Type is empty (`-0-`) are
 * entities (individuals, vessels and aircraft name their type). ALT.CSV gives their other
 * names (with the remarks' a.k.a.), ADD.CSV their first address, and the remarks the company IMO number where OFAC
 * carries one ("Company Number IMO 5342883", "Identification Number IMO ...").
 */
import type { ListedCompany } from "../../../../domain/companies/from-sanctions.ts";
import { normalizeName } from "../../../../domain/vessels/names.ts";
import { parseCompanyImo } from "../../../../domain/companies/entity-id.ts";
import { type Classified, OFAC_DETAILS_URL } from "./shared.ts";
import { parseOfacRemarks, splitOfacPrograms } from "./sdn-csv.ts";

function field(value: string | undefined): string | null {
  const s = (value ?? "").trim();
  return s === "" || s === "-0-" ? null : s;
}

const COMPANY_IMO = /\b(?:Company Number|Identification Number|Vessel Registration Identification)\s+IMO\s*(\d{7})\b/i;

export function listedCompaniesFromSdnCsv(sdn: Classified[], alt: Classified[], add: Classified[], comments: Classified[]): ListedCompany[] {
  const spill = new Map<string, string>();
  for (const c of comments) for (const row of c.rows ?? []) spill.set(row[0]!.trim(), (spill.get(row[0]!.trim()) ?? "") + (row[1] ?? ""));
  const aliases = new Map<string, string[]>();
  for (const a of alt) {
    for (const row of a.rows ?? []) {
      const name = field(row[3]);
      if (name !== null) aliases.set(row[0]!.trim(), [...(aliases.get(row[0]!.trim()) ?? []), name]);
    }
  }
  const addresses = new Map<string, { address: string | null; country: string | null }>();
  for (const a of add) {
    for (const row of a.rows ?? []) {
      const ent = row[0]!.trim();
      if (addresses.has(ent)) continue;
      const address = [field(row[2]), field(row[3])].filter((s) => s !== null).join(", ");
      addresses.set(ent, { address: address === "" ? null : address, country: field(row[4]) });
    }
  }
  const out: ListedCompany[] = [];
  const seen = new Set<string>();
  for (const s of sdn) {
    for (const row of s.rows ?? []) {
      if (field(row[2]) !== null) continue;
      const entNum = row[0]!.trim();
      const name = field(row[1]);
      if (name === null || seen.has(entNum)) continue;
      seen.add(entNum);
      const remarks = `${field(row[11]) === null ? "" : (row[11] ?? "")}${spill.get(entNum) ?? ""}`;
      const imo = COMPANY_IMO.exec(remarks)?.[1];
      const where = addresses.get(entNum);
      out.push({
        recordId: entNum,
        name,
        aliases: [...new Set([...parseOfacRemarks(remarks).aliases, ...(aliases.get(entNum) ?? [])])],
        programs: splitOfacPrograms(field(row[3])),
        listedAt: null,
        companyImo: imo === undefined ? null : parseCompanyImo(imo),
        country: where?.country ?? null,
        address: where?.address ?? null,
        sourceUrl: OFAC_DETAILS_URL + entNum,
      });
    }
  }
  return out;
}

/** Normalised names of the individuals SDN.CSV designates (SDN_Type `individual`). */
export function listedPeopleFromSdnCsv(sdn: Classified[]): Set<string> {
  const out = new Set<string>();
  for (const s of sdn) for (const row of s.rows ?? []) if ((field(row[2]) ?? "").toLowerCase() === "individual" && field(row[1]) !== null) out.add(normalizeName(field(row[1])!));
  return out;
}
