import { z } from "zod";
import { defineOperation } from "./operation.ts";
import { CURSOR_DESCRIPTION, cursorParam, intParam, timeParam, vesselIdParam } from "./params.ts";
import { afterOf, callRows, callWindow, nextOf, PortCallSchema } from "./projections/port-calls.ts";
import { notFound, resolveVessel, visibleStations } from "./projections/visible-vessel.ts";

export const PORT_CALL_WINDOW_DESCRIPTION =
  "`from`/`to` (ISO 8601) select calls by arrival; default the last 30 days, no further back than the plan's history (the last 24 hours on plans without history).";

export const vesselsPortCalls = defineOperation({
  id: "vessels.port-calls",
  method: "GET",
  path: "/api/v1/vessels/{id}/port-calls",
  summary: "A vessel's port calls",
  description:
    "Port calls of one ship derived from the AIS positions of stations you own or that are shared: port, arrival, departure (null while in port), duration, " +
    "with method, version, confidence and sources. " +
    PORT_CALL_WINDOW_DESCRIPTION +
    " Oldest first, paged. 1 credit.",
  auth: "key",
  input: z.strictObject({
    id: vesselIdParam,
    from: timeParam.optional().describe("Calls arriving at or after this time, ISO 8601."),
    to: timeParam.optional().describe("Calls arriving before this time, ISO 8601; default now."),
    limit: intParam(1, 100, 50).describe("Calls per page."),
    cursor: cursorParam.optional().describe(CURSOR_DESCRIPTION),
  }),
  output: { data: z.array(PortCallSchema) },
  responseType: "port_calls",
  apiVersion: "1",
  paged: true,
  cost: 1,
  async run(ctx, input) {
    const window = callWindow(ctx, input);
    const visible = await visibleStations(ctx);
    const v = await resolveVessel(ctx, input.id, visible);
    if (!v) throw notFound(input.id);
    const rows = await ctx.services.derived.vesselCalls(v.mmsis, { visible, ...window, after: afterOf(input.cursor), limit: input.limit + 1 });
    return { data: await callRows(ctx, rows.slice(0, input.limit), visible), nextCursor: nextOf(rows, input.limit) };
  },
});
