import { z } from "zod";
import { SERVED_EVENT_TYPES } from "../domain/derived/vessel-event.ts";
import { defineOperation } from "./operation.ts";
import { bboxParam, EVENT_LIST_INPUT, EVENT_LIST_OUTPUT, EVENT_WINDOW_DESCRIPTION, eventListArgs, eventPage, eventRows } from "./projections/vessel-events.ts";
import { visibleStations } from "./projections/visible-vessel.ts";

export const eventsList = defineOperation({
  id: "events.list",
  method: "GET",
  path: "/api/v1/events",
  tool: "list_events_in_area",
  summary: "Behaviour events in an area",
  description:
    `Behaviour events of every vessel inside an area (\`bbox\` = minLon,minLat,maxLon,maxLat), derived from the AIS positions of stations you own or that are shared: ${SERVED_EVENT_TYPES.join(", ")} ` +
    "(`type`, comma-separated; default all). An event is in the area when its position is; a port call when its port's coordinates are. Rows as GET /api/v1/vessels/{id}/events gives them, each naming its vessel. " +
    EVENT_WINDOW_DESCRIPTION +
    " Oldest first, paged. 1 credit per page.",
  auth: "key",
  input: z.strictObject({
    bbox: bboxParam,
    ...EVENT_LIST_INPUT,
  }),
  ...EVENT_LIST_OUTPUT,
  async run(ctx, input) {
    const args = eventListArgs(ctx, input);
    const visible = await visibleStations(ctx);
    const page = await eventPage(ctx, { bbox: input.bbox }, input, args, visible);
    return { data: await eventRows(ctx, page.items, visible, { area: true }), nextCursor: page.next };
  },
});
