import { z } from "zod";
import { defineOperation } from "./operation.ts";
import { vesselIdParam } from "./params.ts";
import { afterOf, CALL_LIST_INPUT, CALL_LIST_OUTPUT, callRows, callWindow, nextOf, PORT_CALL_WINDOW_DESCRIPTION } from "./projections/port-calls.ts";
import { notFound, resolveVessel, visibleStations } from "./projections/visible-vessel.ts";

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
    ...CALL_LIST_INPUT,
  }),
  ...CALL_LIST_OUTPUT,
  async run(ctx, input) {
    const window = callWindow(ctx, input);
    const visible = await visibleStations(ctx);
    const v = await resolveVessel(ctx, input.id, visible);
    if (!v) throw notFound(input.id);
    const rows = await ctx.services.derived.vesselCalls(v.mmsis, { visible, ...window, after: afterOf(input.cursor), limit: input.limit + 1 });
    return { data: await callRows(ctx, rows.slice(0, input.limit), visible), nextCursor: nextOf(rows, input.limit) };
  },
});
