/**
 * The companies OFAC designates, from SDN.CSV: rows whose SDN_Type is empty (`-0-`) are
 * entities (individuals, vessels and aircraft name their type). ALT.CSV gives their other
 * names (with the remarks' a.k.a.), ADD.CSV their first address, and the remarks the company IMO number where OFAC
 * carries one ("Company Number IMO 5342883", "Identification Number IMO ...").
 */
import type { ListedCompany } from "../../../../domain/companies/from-sanctions.ts";
import { normalizeName } from "../../../../domain/vessels/names.ts";
import { parseCompanyImo } from "../../../../domain/companies/entity-id.ts";
import { type Classified, OFAC_DETAILS_URL, ofacCsvRows } from "./shared.ts";
import { parseOfacRemarks, pickSdnRows, remarkSpills, splitOfacPrograms } from "./sdn-csv.ts";

function field(value: string | undefined): string | null {
  const s = (value ?? "").trim();
  return s === "" || s === "-0-" ? null : s;
}

const COMPANY_IMO = /\b(?:Company Number|Identification Number|Vessel Registration Identification)\s+IMO\s*(\d{7})\b/i;

/**
 * The companies SDN.CSV designates, completed by its companion files, and the normalised names
 * of the individuals it designates (SDN_Type `individual`). Each file is read as a stream and
 * only the entities' rows are kept.
 */
export async function listedFromSdnCsv(
  sdn: Classified[],
  alt: Classified[],
  add: Classified[],
  comments: Classified[],
): Promise<{ companies: ListedCompany[]; people: Set<string> }> {
  const people = new Set<string>();
  const entities = await pickSdnRows(sdn, (row) => {
    const type = field(row[2]);
    if ((type ?? "").toLowerCase() === "individual" && field(row[1]) !== null) people.add(normalizeName(field(row[1])!));
    return type === null && field(row[1]) !== null;
  });
  const spill = await remarkSpills(comments, entities);
  const aliases = new Map<string, string[]>();
  for (const a of alt) {
    for await (const row of ofacCsvRows(a)) {
      const name = field(row[3]);
      const ent = row[0]!.trim();
      if (name !== null && entities.has(ent)) aliases.set(ent, [...(aliases.get(ent) ?? []), name]);
    }
  }
  const addresses = new Map<string, { address: string | null; country: string | null }>();
  for (const a of add) {
    for await (const row of ofacCsvRows(a)) {
      const ent = row[0]!.trim();
      if (addresses.has(ent) || !entities.has(ent)) continue;
      const address = [field(row[2]), field(row[3])].filter((s) => s !== null).join(", ");
      addresses.set(ent, { address: address === "" ? null : address, country: field(row[4]) });
    }
  }
  const companies: ListedCompany[] = [];
  for (const [entNum, row] of entities) {
    const name = field(row[1])!;
    const remarks = `${field(row[11]) === null ? "" : (row[11] ?? "")}${spill.get(entNum) ?? ""}`;
    const imo = COMPANY_IMO.exec(remarks)?.[1];
    const where = addresses.get(entNum);
    companies.push({
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
  return { companies, people };
}
