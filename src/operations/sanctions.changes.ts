import { z } from "zod";
import { AppError, invalidParameter } from "../domain/errors.ts";
import { sourced } from "../domain/rights/sourced.ts";
import { designationList, SANCTIONS_LISTS, type SanctionsListKey } from "../domain/sanctions/designation.ts";
import { listCoverage, listsChecked } from "../domain/sanctions/coverage.ts";
import { isoDate } from "../domain/sanctions/designation.ts";
import { defineOperation } from "./operation.ts";
import { ListCoverageSchema } from "./projections/designation-match.ts";
import { CURSOR_DESCRIPTION, cursorParam, decodeCursor, encodeCursor, intParam } from "./params.ts";

const ACTIONS = ["listed", "delisted", "changed"] as const;
type Action = (typeof ACTIONS)[number];

const dateParam = z.string().transform((v, ctx) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v.trim());
  const day = m ? isoDate(Number(m[1]), Number(m[2]), Number(m[3])) : null;
  if (!day) {
    ctx.addIssue({ code: "custom", message: "must be a date yyyy-mm-dd, e.g. 2024-01-31 (a version's as-of date)" });
    return z.NEVER;
  }
  return day;
});

/** A comma list of keys from `allowed`; undefined when not given. */
function keyListParam<K extends string>(allowed: readonly K[]) {
  const words = allowed.join(", ");
  return z
    .string()
    .optional()
    .transform((v, ctx): K[] | undefined => {
      if (v === undefined) return undefined;
      const out = new Set<K>();
      for (const raw of v.split(",")) {
        const key = raw.trim().toLowerCase();
        if (key === "") continue;
        if (!(allowed as readonly string[]).includes(key)) {
          ctx.addIssue({ code: "custom", message: `has \`${key.slice(0, 40)}\`; use a comma list of ${words}` });
          return z.NEVER;
        }
        out.add(key as K);
      }
      if (out.size === 0) {
        ctx.addIssue({ code: "custom", message: `must name at least one of ${words}` });
        return z.NEVER;
      }
      return allowed.filter((k) => out.has(k));
    });
}

const FeedCursorSchema = z.object({ v: z.number().int().min(0), k: z.union([z.literal(0), z.literal(1)]), i: z.number().int().min(0) });

const SanctionsChangeRowSchema = z.object({
  action: z.enum(ACTIONS).describe("`listed`, `delisted` or `changed` (a tracked field of the designation changed: see `fields`, `before`, `after`)."),
  list: z.string().describe("The list the designation is on, as designations name it, e.g. `ofac_sdn`."),
  listName: z.string(),
  family: z.enum(SANCTIONS_LISTS).describe("The key of the list's family, as in `/sanctions/{list}` and `lists=`."),
  asOf: z.string().describe("The as-of date (yyyy-mm-dd) of the list version that brought the row."),
  date: z.string().describe("A listing's designation date or first-seen date, a delisting's date; a change's version date."),
  dateSource: z.enum(["list", "first_seen", "absent", "version"]).describe("`list`: the list's own date; `first_seen`: the version where it appeared; `absent`: the version where it vanished; `version`: the change's version."),
  baseline: z.boolean().describe("A listing from the first version of the list held: its starting state, not a change the list made."),
  recordId: z.string(),
  name: z.string(),
  imos: z.array(z.number().int()),
  mmsis: z.array(z.number().int()),
  program: z.string().nullable(),
  sourceUrl: z.string(),
  fields: z.array(z.string()).nullable().describe("A change: the tracked fields that changed; null otherwise."),
  before: z.record(z.string(), z.unknown()).nullable().describe("A change: the changed fields' values before; null otherwise."),
  after: z.record(z.string(), z.unknown()).nullable().describe("A change: the changed fields' values after; null otherwise."),
});

export const sanctionsChanges = defineOperation({
  id: "sanctions.changes",
  method: "GET",
  path: "/api/v1/sanctions/changes",
  tool: "list_sanctions_changes",
  summary: "Change feed of sanctions lists: listings, delistings and changes of vessel designations",
  description:
    "Every listing, delisting and change of a vessel designation in the stored versions of the lists (ofac, uk, canada, eu, new-zealand), oldest first: " +
    "the action, the list, the version's as-of date, the designation with its IMO and MMSI numbers and name, and for a change the fields with their " +
    "values before and after. `since`/`until` bound the versions' as-of dates (inclusive) and reach back to the first version held. " +
    "Paged by a cursor that stays valid across new imports: follow `next`. 1 credit per page.",
  auth: "key",
  input: z.strictObject({
    since: dateParam.optional().describe("Only versions with an as-of date on or after this day (yyyy-mm-dd)."),
    until: dateParam.optional().describe("Only versions with an as-of date on or before this day (yyyy-mm-dd)."),
    lists: keyListParam(SANCTIONS_LISTS).describe(`Comma-separated lists, from ${SANCTIONS_LISTS.join(", ")}. Default: all of them.`),
    action: keyListParam(ACTIONS).describe("Comma-separated actions, from listed, delisted, changed. Default: all of them."),
    limit: intParam(1, 100, 50).describe("Rows per page."),
    cursor: cursorParam.optional().describe(CURSOR_DESCRIPTION),
  }),
  output: {
    top: {
      since: z.string().nullable(),
      until: z.string().nullable(),
      coverage: z.array(ListCoverageSchema),
      listsChecked: z.object({ full: z.array(z.string()), extract: z.array(z.string()), notChecked: z.array(z.string()) }),
    },
    data: z.array(SanctionsChangeRowSchema),
  },
  responseType: "sanctions_changes",
  apiVersion: "1",
  paged: true,
  cost: 1,
  async run(ctx, input) {
    const since = input.since ?? null;
    const until = input.until ?? null;
    if (since !== null && until !== null && since > until) throw invalidParameter("since", "must not be after `until`");
    const after = input.cursor ? decodeCursor(input.cursor, FeedCursorSchema) : null;
    const lists: SanctionsListKey[] = input.lists ?? [...SANCTIONS_LISTS];
    const actions: Action[] = input.action ?? [...ACTIONS];

    const states = await ctx.services.sanctions.listStates();
    const coverage = states.filter((s) => lists.includes(s.list)).map((s) => listCoverage(s, ctx.now, ctx.services.sanctions.staleAfterDays));
    // A list named and never loaded has no history to give: an empty feed would read as "no changes". As /sanctions/{list}.
    const missing = input.lists ? coverage.filter((c) => c.status === "missing").map((c) => c.list) : [];
    if (missing.length > 0) {
      throw new AppError("sanctions_unavailable", `The sanctions list(s) ${missing.join(", ")} have not been loaded yet, so there is no history to give: not an empty feed. Not charged.`);
    }
    const checked = listsChecked(coverage, (list) => ctx.rights.may([list]));

    const rows = await ctx.services.sanctions.feed({ lists, actions, since, until, after: after ? { versionId: after.v, kind: after.k, id: after.i } : null, limit: input.limit + 1 });
    const page = rows.slice(0, input.limit);
    const last = page.at(-1);
    return {
      top: { since, until, coverage, listsChecked: checked },
      data: page.map((r) =>
        sourced(
          "changes",
          [r.list],
          {
            action: r.action,
            ...designationList(r),
            family: r.list,
            asOf: r.asOf,
            date: r.date,
            dateSource: r.dateSource,
            baseline: r.baseline,
            recordId: r.recordId,
            name: r.name,
            imos: r.imos,
            mmsis: r.mmsis,
            program: r.program,
            sourceUrl: r.sourceUrl,
            fields: r.fields,
            before: r.before,
            after: r.after,
          },
          { countRows: true, leaf: true },
        ),
      ),
      nextCursor: rows.length > input.limit && last ? encodeCursor({ v: last.key.versionId, k: last.key.kind, i: last.key.id }) : null,
    };
  },
});
