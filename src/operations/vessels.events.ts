import { z } from "zod";
import { SERVED_EVENT_TYPES } from "../domain/derived/vessel-event.ts";
import { defineOperation } from "./operation.ts";
import { vesselIdParam } from "./params.ts";
import { EVENT_LIST_INPUT, EVENT_LIST_OUTPUT, EVENT_WINDOW_DESCRIPTION, eventListArgs, eventPage, eventRows } from "./projections/vessel-events.ts";
import { notFound, resolveVessel, visibleStations } from "./projections/visible-vessel.ts";

export const vesselsEvents = defineOperation({
  id: "vessels.events",
  method: "GET",
  path: "/api/v1/vessels/{id}/events",
  tool: "get_vessel_events",
  summary: "A vessel's behaviour events",
  description:
    `Behaviour events of one ship derived from the AIS positions of stations you own or that are shared: ${SERVED_EVENT_TYPES.join(", ")} (\`type\`, comma-separated; default all). ` +
    "Each event: type, start, end (null while open), position, the other vessel of an encounter (`counterpart`), type-specific `details`, method, version, confidence (0..1) and inputs, with its source station. " +
    EVENT_WINDOW_DESCRIPTION +
    " Oldest first, paged. An event whose station may not be shown to you is left out and counted in `withheld`. 1 credit.",
  auth: "key",
  input: z.strictObject({
    id: vesselIdParam,
    ...EVENT_LIST_INPUT,
  }),
  ...EVENT_LIST_OUTPUT,
  async run(ctx, input) {
    const args = eventListArgs(ctx, input);
    const visible = await visibleStations(ctx);
    const v = await resolveVessel(ctx, input.id, visible);
    if (!v) throw notFound(input.id);
    const page = await eventPage(ctx, { mmsis: v.mmsis }, input, args, visible);
    return { data: await eventRows(ctx, page.items, visible, { area: false }), nextCursor: page.next };
  },
});
