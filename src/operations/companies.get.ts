import { z } from "zod";
import { CompanyDesignationSchema, type CompanyRecord, CompanyRecordSchema } from "../domain/companies/company.ts";
import { canonicalId, ENTITY_ID_RULE, type EntityRef, parseEntityId, slugOf, strongestId } from "../domain/companies/entity-id.ts";
import { AppError } from "../domain/errors.ts";
import { formatVesselId, type VesselId } from "../domain/identifiers.ts";
import { sourced } from "../domain/rights/sourced.ts";
import { SANCTIONS_LISTS } from "../domain/sanctions/designation.ts";
import { isLoaded } from "../domain/sanctions/coverage.ts";
import { companyPagePath, vesselPagePath } from "../domain/pages/page-paths.ts";
import { defineOperation, type OperationContext } from "./operation.ts";
import { SanctionedListsSchema, sanctionedShips } from "./projections/sanctioned-now.ts";

/** An id as asked, and the page form `{entityId}-{slug}` it may be. */
type AskedId = { text: string; ref: EntityRef };

const entityIdParam = z.string().transform((v, ctx): AskedId => {
  const ref = parseEntityId(v);
  if (!ref) {
    ctx.addIssue({ code: "custom", message: ENTITY_ID_RULE });
    return z.NEVER;
  }
  return { text: v.trim().toLowerCase(), ref };
});

/** Most trailing name words a page-form id is tried without. */
const MAX_SLUG_WORDS = 24;

/**
 * The id itself first; then, for the page form `/company/{entityId}-{slug}`, the id with
 * trailing words taken off, accepted only when they are the company's own name slug.
 */
async function resolve(ctx: OperationContext, asked: AskedId): Promise<CompanyRecord[]> {
  const direct = await ctx.services.companies.resolve(asked.ref);
  if (direct.length > 0) return direct;
  const words = asked.text.split("-");
  for (let cut = 1; cut <= Math.min(MAX_SLUG_WORDS, words.length - 2); cut++) {
    const ref = parseEntityId(words.slice(0, words.length - cut).join("-"));
    if (!ref) continue;
    const tail = words.slice(words.length - cut).join("-");
    const found = await ctx.services.companies.resolve(ref);
    if (found.some((r) => slugOf(r.name) === tail)) return found;
  }
  return [];
}

/**
 * What each sanctions list can say of this company: `designated` (a designation of it is
 * loaded), `not_designated` (the list's company records are loaded and none is this company),
 * `no_company_records` (the list is loaded, but what was loaded holds no designation of any
 * company: only ships, or a publication form without entity records), `list_not_loaded`, or
 * `withheld` (the list may not be shown to this caller). Only `not_designated` is a no-match
 * on a list's company records; none of them clears the company.
 */
const DesignationCheckSchema = z.object({
  list: z.string(),
  status: z.enum(["designated", "not_designated", "no_company_records", "list_not_loaded", "withheld"]),
  asOf: z.string().nullable(),
  companyDesignationsLoaded: z.number().int(),
});

const VesselRefSchema = z.object({ id: z.string(), imo: z.number().int().nullable(), mmsi: z.number().int().nullable(), name: z.string().nullable(), api: z.string(), page: z.string() });

export const companiesGet = defineOperation({
  id: "companies.get",
  method: "GET",
  path: "/api/v1/companies/{entityId}",
  tool: "get_company",
  summary: "A company's page",
  description:
    "One company (legal entity) as the loaded sources state it: each source's record (name, other names, company IMO number, LEI, country, address), " +
    "its own sanctions designations, what each sanctions list could say of it (`designationChecks`: designated, not_designated, or no_company_records when " +
    "the list as loaded holds no company designations at all, which is no clearance), and its fleet: every ship a source ties to it, with the role (registered_owner, operator, manager, or linked when the source does not say which), " +
    "the source field quoted as evidence, the source, and `sanctioned`: the lists designating that ship now. Records of several sources are one company only when they share a company IMO number or an LEI, never by name. " +
    "`entityId` is imo-{company IMO number}, lei-{LEI}, {list}-{record id} (ofac-12345) or {source}-name-{slug} (marad-name-matson-navigation-co-inc); every id of a company's records resolves to it, as does the page form {entityId}-{slug}.",
  auth: "optional",
  input: z.strictObject({ entityId: entityIdParam.describe("The company's entity id, e.g. ofac-9702 or marad-name-matson-navigation-co-inc.") }),
  output: {
    top: { id: z.string(), name: z.string().nullable(), api: z.string(), page: z.string(), generatedAt: z.string() },
    data: z.object({
      /** Every id the company answers to. */
      ids: z.array(z.string()),
      records: z.array(
        CompanyRecordSchema.pick({ source: true, entityId: true, name: true, aliases: true, companyImo: true, lei: true, country: true, address: true }),
      ),
      designations: z.array(CompanyDesignationSchema),
      designationChecks: z.array(DesignationCheckSchema),
      /** `sanctioned`: the lists designating the ship now, so the fleet says which members are designated. */
      fleet: z.array(z.object({ vessel: VesselRefSchema, role: z.string(), evidence: z.string(), sources: z.array(z.string()), sanctioned: SanctionedListsSchema })),
    }),
  },
  responseType: "company",
  apiVersion: "preview",
  cost: 1,
  async run(ctx, input) {
    const records = await resolve(ctx, input.entityId);
    if (records.length === 0) throw new AppError("not_found", `No company with entity id ${JSON.stringify(input.entityId.text)} in the loaded sources.`);
    const id = canonicalId(records);
    const main = records.find((r) => strongestId(r) === id) ?? records[0]!;
    const ids = [...new Set([id, ...records.map((r) => r.entityId)])];
    const [states, designated] = await Promise.all([ctx.services.sanctions.listStates(), ctx.services.companies.designatedCounts()]);
    const designationChecks = SANCTIONS_LISTS.map((list) => {
      const state = states.find((s) => s.list === list);
      const loaded = state !== undefined && isLoaded(state);
      const count = designated[list] ?? 0;
      const designatesThis = records.some((r) => r.source === list && r.designations.length > 0);
      // The check of a list the caller may not be shown says nothing more than that.
      const status = !ctx.rights.may([list]) ? "withheld" : !loaded ? "list_not_loaded" : designatesThis ? "designated" : count > 0 ? "not_designated" : "no_company_records";
      return { list, status, asOf: loaded && status !== "withheld" ? state.asOf : null, companyDesignationsLoaded: status === "withheld" ? 0 : count } as const;
    });
    const shipOf = (f: { imo: number | null; mmsi: number | null }): VesselId => (f.imo !== null ? { kind: "imo", imo: f.imo } : { kind: "mmsi", mmsi: f.mmsi! });
    const sanctioned = await sanctionedShips(ctx, records.flatMap((r) => r.fleet.map(shipOf)));
    const fleet = records.flatMap((r) =>
      r.fleet.map((f) => {
        const vesselId = shipOf(f);
        const vid = formatVesselId(vesselId);
        // The name the source gives: the ship's page redirects to its current name if it has another.
        const vessel = { id: vid, imo: f.imo, mmsi: f.mmsi, name: f.vesselName, api: `${ctx.baseUrl}/api/v1/vessels/${vid}`, page: `${ctx.baseUrl}${vesselPagePath(vesselId, f.vesselName)}` };
        // A designation of the ship is its list's fact: the row rests on that list too.
        const lists = sanctioned.get(vid) ?? [];
        return sourced("fleet", [...new Set([r.source, ...lists])], { vessel, role: f.role, evidence: f.evidence, sources: [r.source], sanctioned: lists }, { countRows: true, leaf: true });
      }),
    );
    return {
      top: {
        id,
        name: sourced("name", [main.source], main.name, { whenWithheld: "null", leaf: true }),
        api: `${ctx.baseUrl}/api/v1/companies/${id}`,
        page: `${ctx.baseUrl}${companyPagePath(id, slugOf(main.name))}`,
        generatedAt: new Date(ctx.now).toISOString(),
      },
      data: {
        ids,
        records: records.map((r) =>
          sourced(
            "records",
            [r.source],
            { source: r.source, entityId: r.entityId, name: r.name, aliases: r.aliases, companyImo: r.companyImo, lei: r.lei, country: r.country, address: r.address },
            { countRows: true, leaf: true },
          ),
        ),
        designations: records.flatMap((r) => r.designations.map((d) => sourced("designations", [r.source], d, { countRows: true, leaf: true }))),
        designationChecks,
        fleet,
      },
    };
  },
});
