import { z } from "zod";
import { AppError } from "../domain/errors.ts";
import { defineOperation } from "./operation.ts";
import { unlocodeParam } from "./params.ts";
import { afterOf, CALL_LIST_INPUT, CALL_LIST_OUTPUT, callRows, callWindow, nextOf, PORT_CALL_WINDOW_DESCRIPTION } from "./projections/port-calls.ts";
import { visibleStations } from "./projections/visible-vessel.ts";

export const portsCalls = defineOperation({
  id: "ports.calls",
  method: "GET",
  path: "/api/v1/ports/{unlocode}/calls",
  summary: "A port's calls",
  description:
    "Vessel calls at one port (UN/LOCODE, case-insensitive) derived from the AIS positions of stations you own or that are shared. " + PORT_CALL_WINDOW_DESCRIPTION + " Oldest first, paged. 1 credit.",
  auth: "key",
  input: z.strictObject({
    unlocode: unlocodeParam,
    ...CALL_LIST_INPUT,
  }),
  ...CALL_LIST_OUTPUT,
  async run(ctx, input) {
    const window = callWindow(ctx, input);
    if (!(await ctx.services.ports.get(input.unlocode))) throw new AppError("not_found", `No port with UN/LOCODE ${input.unlocode} is known.`);
    const visible = await visibleStations(ctx);
    const rows = await ctx.services.derived.portCalls(input.unlocode, { visible, ...window, after: afterOf(input.cursor), limit: input.limit + 1 });
    return { data: await callRows(ctx, rows.slice(0, input.limit), visible), nextCursor: nextOf(rows, input.limit) };
  },
});
