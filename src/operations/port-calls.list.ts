import { z } from "zod";
import { AppError, invalidParameter } from "../domain/errors.ts";
import { defineOperation } from "./operation.ts";
import { unlocodeParam, vesselIdParam } from "./params.ts";
import { afterOf, CALL_LIST_INPUT, CALL_LIST_OUTPUT, callRows, callWindow, nextOf, PORT_CALL_WINDOW_DESCRIPTION } from "./projections/port-calls.ts";
import { notFound, resolveVessel, visibleStations } from "./projections/visible-vessel.ts";

/** The MCP tool `get_port_calls`: one tool whose arguments name a vessel or a port, and its REST twin. */
export const portCallsList = defineOperation({
  id: "port-calls.list",
  method: "GET",
  path: "/api/v1/port-calls",
  tool: "get_port_calls",
  summary: "Port calls of a vessel or at a port",
  description:
    "Port calls derived from the AIS positions of stations you own or that are shared, of one vessel (`vessel`: IMO or mmsi-…) or at one port (`port`: UN/LOCODE); give exactly one. " +
    "Each call: vessel, port, arrival, departure (null while in port), duration, method, version, confidence and sources. " +
    PORT_CALL_WINDOW_DESCRIPTION +
    " Oldest first, paged. 1 credit.",
  auth: "key",
  input: z.strictObject({
    vessel: vesselIdParam.optional(),
    port: unlocodeParam.optional().describe("The port: a five-character UN/LOCODE, case-insensitive, e.g. NLRTM."),
    ...CALL_LIST_INPUT,
  }),
  ...CALL_LIST_OUTPUT,
  async run(ctx, input) {
    if ((input.vessel === undefined) === (input.port === undefined)) throw invalidParameter(input.vessel === undefined ? "vessel" : "port", "give exactly one of `vessel` and `port`");
    const window = callWindow(ctx, input);
    const visible = await visibleStations(ctx);
    const q = { visible, ...window, after: afterOf(input.cursor), limit: input.limit + 1 };
    let rows;
    if (input.vessel !== undefined) {
      const v = await resolveVessel(ctx, input.vessel, visible);
      if (!v) throw notFound(input.vessel);
      rows = await ctx.services.derived.vesselCalls(v.mmsis, q);
    } else {
      if (!(await ctx.services.ports.get(input.port!))) throw new AppError("not_found", `No port with UN/LOCODE ${input.port} is known.`);
      rows = await ctx.services.derived.portCalls(input.port!, q);
    }
    return { data: await callRows(ctx, rows.slice(0, input.limit), visible), nextCursor: nextOf(rows, input.limit) };
  },
});
