/**
 * An operator's own companies and fleet links (for example built from GLEIF LEI records and
 * their own registry), one JSON document (docs/companies.md ("Your own companies: the import file")):
 *
 *   { "companies": [{ "id", "name", "aliases"?, "lei"?, "companyImo"?, "country"?, "address"? }],
 *     "fleet":     [{ "company", "imo"? | "mmsi"?, "vesselName"?, "role", "evidence" }] }
 *
 * Every row is checked before anything is written: one bad row refuses the file, naming
 * the row, the field and the rule.
 */
import { z } from "zod";
import { type CompanyRecord, FLEET_ROLES } from "../../domain/companies/company.ts";
import { importedEntityId, parseCompanyImo, parseLei, slugOf } from "../../domain/companies/entity-id.ts";
import { isValidImo, parseMmsi } from "../../domain/identifiers.ts";
import { utf8 } from "./read-source.ts";

/** More rows than this in one file is refused: split it, or it is not a companies file. */
const MAX_ROWS = 2_000_000;

const text = (max: number) => z.string().trim().min(1, { error: "must not be empty" }).max(max, { error: `must be at most ${max} characters` });

const CompanySchema = z.strictObject({
  id: text(100),
  name: text(300).refine((v) => slugOf(v) !== "", { error: "must hold a letter or digit" }),
  aliases: z.array(text(300)).max(50).optional(),
  lei: z
    .string()
    .refine((v) => parseLei(v) !== null, { error: "must be an ISO 17442 LEI: 20 characters with valid check digits" })
    .optional(),
  companyImo: z
    .string()
    .refine((v) => parseCompanyImo(v) !== null, { error: "must be a company IMO number, 7 digits" })
    .optional(),
  country: text(100).optional(),
  address: text(500).optional(),
});

const FleetSchema = z
  .strictObject({
    company: text(100),
    imo: z
      .number()
      .int()
      .refine((v) => isValidImo(String(v)), { error: "must be a ship IMO number with a valid check digit" })
      .optional(),
    mmsi: z
      .number()
      .int()
      .refine((v) => parseMmsi(String(v)) !== null, { error: "must be a 9-digit MMSI" })
      .optional(),
    vesselName: text(200).optional(),
    role: z.enum(FLEET_ROLES, { error: `must be one of ${FLEET_ROLES.join(", ")}` }),
    evidence: text(500),
  })
  .refine((f) => f.imo !== undefined || f.mmsi !== undefined, { error: "needs the ship's imo or mmsi", path: ["imo"] });

const FileSchema = z.strictObject({
  companies: z.array(CompanySchema).min(1, { error: "must list at least one company" }).max(MAX_ROWS),
  fleet: z.array(FleetSchema).max(MAX_ROWS).default([]),
});

export class CompaniesFileError extends Error {
  constructor(message: string) {
    super(`companies file: ${message}`);
    this.name = "CompaniesFileError";
  }
}

/** Parses and checks the file; the records carry `source`. Throws CompaniesFileError naming the first fault. */
export function parseCompaniesFile(bytes: Buffer, source: string): CompanyRecord[] {
  let json: unknown;
  try {
    json = JSON.parse(utf8(bytes));
  } catch (e) {
    throw new CompaniesFileError(`not JSON (${(e as Error).message.split("\n")[0]}); expected { "companies": [...], "fleet": [...] }`);
  }
  const parsed = FileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("").replace(/^\./, "") : "the document";
    throw new CompaniesFileError(`${where}: ${issue.message}`);
  }
  const byId = new Map<string, CompanyRecord>();
  for (const [i, c] of parsed.data.companies.entries()) {
    if (byId.has(c.id)) throw new CompaniesFileError(`companies[${i}].id: ${JSON.stringify(c.id)} is listed twice`);
    const entityId = importedEntityId(source, c.id);
    if (slugOf(c.id) === "") throw new CompaniesFileError(`companies[${i}].id: must hold a letter or digit`);
    byId.set(c.id, {
      source,
      key: `id:${c.id}`,
      entityId,
      name: c.name,
      aliases: c.aliases ?? [],
      companyImo: c.companyImo === undefined ? null : parseCompanyImo(c.companyImo),
      lei: c.lei === undefined ? null : parseLei(c.lei),
      country: c.country ?? null,
      address: c.address ?? null,
      designations: [],
      fleet: [],
    });
  }
  const entityIds = new Map<string, string>();
  for (const c of byId.values()) {
    const other = entityIds.get(c.entityId);
    if (other !== undefined) throw new CompaniesFileError(`companies ${JSON.stringify(other)} and ${JSON.stringify(c.key.slice(3))} make the same entity id ${c.entityId}; ids must differ in letters or digits`);
    entityIds.set(c.entityId, c.key.slice(3));
  }
  for (const [i, f] of parsed.data.fleet.entries()) {
    const company = byId.get(f.company);
    if (!company) throw new CompaniesFileError(`fleet[${i}].company: ${JSON.stringify(f.company)} is not the id of a company in the file`);
    company.fleet.push({ imo: f.imo ?? null, mmsi: f.imo === undefined ? (f.mmsi ?? null) : null, vesselName: f.vesselName ?? null, role: f.role, evidence: f.evidence });
  }
  return [...byId.values()];
}
