import { AppError } from "../domain/errors.ts";
import { z } from "zod";
import { designationList, DesignationSchema, SANCTIONS_LIST_NAMES, SANCTIONS_LISTS, type SanctionsListKey } from "../domain/sanctions/designation.ts";
import { sourced } from "../domain/rights/sourced.ts";
import { ListCoverageSchema } from "./projections/designation-match.ts";
import { listCoverage } from "../domain/sanctions/coverage.ts";
import { listingDates } from "../domain/sanctions/matching.ts";
import { defineOperation } from "./operation.ts";
import { CURSOR_DESCRIPTION, cursorParam, decodeCursor, encodeCursor, intParam } from "./params.ts";

/** The order the spec names the lists in; the same keys as the `lists` filter of screening. */
const LIST_KEYS_TEXT = "ofac, uk, canada, eu, new-zealand";

const sanctionsListParam = z.string().transform((v, ctx) => {
  const key = v.trim().toLowerCase();
  if (!(SANCTIONS_LISTS as readonly string[]).includes(key)) {
    ctx.addIssue({ code: "custom", message: `must be one of ${LIST_KEYS_TEXT}` });
    return z.NEVER;
  }
  return key as SanctionsListKey;
});

const SanctionsListRowSchema = z.object({
  list: z.string().describe("The list the vessel is on, e.g. `ofac_sdn`; the path's key names its family."),
  listName: z.string(),
}).extend(DesignationSchema.pick({
  recordId: true,
  name: true,
  aliases: true,
  formerNames: true,
  imos: true,
  mmsis: true,
  flag: true,
  vesselType: true,
  program: true,
  measures: true,
  listedAt: true,
}).shape).extend({
  firstSeenAt: z.string(),
  sourceUrl: DesignationSchema.shape.sourceUrl,
});

export const sanctionsList = defineOperation({
  id: "sanctions.list",
  method: "GET",
  path: "/api/v1/sanctions/{list}",
  tool: "list_sanctioned_vessels",
  summary: "Vessels currently designated on one sanctions list",
  description:
    "Every vessel designated in the latest imported version of one list (ofac, uk, canada, eu, new-zealand), with the list's own facts only: " +
    "listed name, aliases, IMO and MMSI numbers, flag, vessel type, programme, designation date and source link. Paged: follow `next`.",
  auth: "key",
  input: z.strictObject({
    list: sanctionsListParam.meta({ description: "The sanctions list.", enum: [...SANCTIONS_LISTS] }),
    limit: intParam(1, 100, 50).describe("Rows per page."),
    cursor: cursorParam.optional().describe(CURSOR_DESCRIPTION),
  }),
  output: {
    top: {
      list: z.string(),
      listName: z.string(),
      asOf: z.string().nullable(),
      importedAt: z.string().nullable(),
      coverage: ListCoverageSchema,
    },
    data: z.array(SanctionsListRowSchema),
  },
  responseType: "sanctions_list",
  apiVersion: "1",
  paged: true,
  cost: 1,
  async run(ctx, input) {
    const after = input.cursor ? decodeCursor(input.cursor, z.object({ list: z.literal(input.list), after: z.number().int().min(0) })).after : 0;
    const [rows, states] = await Promise.all([ctx.services.sanctions.listActive(input.list, after, input.limit + 1), ctx.services.sanctions.listStates()]);
    const state = states.find((s) => s.list === input.list);
    const coverage = listCoverage(state ?? { list: input.list, asOf: null, importedAt: null, active: 0, extract: false }, ctx.now, ctx.services.sanctions.staleAfterDays);
    // A list never loaded has no rows to give: an empty page would read as "no designated vessels". Screening answers the same.
    if (coverage.status === "missing") {
      throw new AppError("sanctions_unavailable", `The sanctions list ${input.list} (${SANCTIONS_LIST_NAMES[input.list]}) has not been loaded yet, so there are no rows to give: not an empty list. Not charged.`);
    }
    const page = rows.slice(0, input.limit);
    const last = page.at(-1);
    return {
      top: {
        list: input.list,
        listName: SANCTIONS_LIST_NAMES[input.list],
        // When the version was taken, so a client can tell a stale, extract or never-imported list.
        asOf: state?.asOf ?? null,
        importedAt: state?.importedAt ? new Date(state.importedAt).toISOString() : null,
        coverage,
      },
      data: page.map(({ designation: d, record: r }) =>
        sourced(
          "designations",
          [input.list],
          {
            ...designationList(d),
            recordId: d.recordId,
            name: r.name,
            aliases: r.aliases,
            formerNames: r.formerNames,
            imos: r.imos,
            mmsis: r.mmsis,
            flag: r.flag,
            vesselType: r.vesselType,
            program: r.program,
            // Every measure the list imposes on the vessel (a vessel can be designated under several), with its legal basis.
            measures: r.measures,
            ...listingDates(d),
            sourceUrl: r.sourceUrl,
          },
          // Plain values only: the rights filter need not walk into the row.
          { countRows: true, leaf: true },
        ),
      ),
      nextCursor: rows.length > input.limit && last ? encodeCursor({ list: input.list, after: last.designation.id }) : null,
    };
  },
});
