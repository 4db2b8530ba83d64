import { z } from "zod";
import { PortSchema } from "../domain/ports/port.ts";
import { sourced } from "../domain/rights/sourced.ts";
import { CoordinatesSchema } from "./envelope-schemas.ts";
import { defineOperation } from "./operation.ts";
import { coordinatesOf } from "./projections/port-coordinates.ts";
import { CURSOR_DESCRIPTION, cursorParam, decodeCursor, encodeCursor, intParam, iso2Param } from "./params.ts";

const PortListRowSchema = PortSchema.pick({ unlocode: true, name: true, country: true }).extend({
  coordinates: CoordinatesSchema.nullable().optional(),
  api: z.string(),
});

export const portsList = defineOperation({
  id: "ports.list",
  method: "GET",
  path: "/api/v1/ports",
  summary: "List ports in UN/LOCODE order",
  description: "Every UN/LOCODE location with the port function, in UN/LOCODE order, optionally of one country. Paged: follow `next`.",
  auth: "key",
  input: z.strictObject({
    country: iso2Param.optional().describe("Only rows of this country: ISO 3166-1 alpha-2 code, e.g. NL."),
    limit: intParam(1, 100, 50).describe("Rows per page."),
    cursor: cursorParam.optional().describe(CURSOR_DESCRIPTION),
  }),
  output: { data: z.array(PortListRowSchema) },
  responseType: "port_list",
  apiVersion: "1",
  paged: true,
  cost: 1,
  async run(ctx, input) {
    const after = input.cursor ? decodeCursor(input.cursor, z.object({ after: z.string().regex(/^[A-Z]{2}[A-Z0-9]{3}$/) })).after : undefined;
    // One row more than asked tells whether a next page exists without a count query.
    const rows = await ctx.services.ports.list({ country: input.country, after, limit: input.limit + 1 });
    const page = rows.slice(0, input.limit);
    const last = page.at(-1);
    return {
      // A row UN/LOCODE may not give is left out and counted, as other lists count theirs.
      data: page.map((p) =>
        sourced("ports", ["unlocode"], {
          unlocode: p.unlocode,
          name: p.name,
          country: p.country,
          coordinates: coordinatesOf(p, { countRows: true, whenWithheld: "omit" }),
          api: `${ctx.baseUrl}/api/v1/ports/${p.unlocode}`,
        }, { countRows: true }),
      ),
      nextCursor: rows.length > input.limit && last ? encodeCursor({ after: last.unlocode }) : null,
    };
  },
});
