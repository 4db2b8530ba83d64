import { z } from "zod";
import { accountOf } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";
import { zoneView, ZoneSchema } from "./projections/zone-view.ts";

export const zonesList = defineAccountOperation({
  id: "account.zones.list",
  method: "GET",
  path: "/api/v1/account/zones",
  summary: "The account's zones",
  description: "Every zone of the account with its polygon and bounding box. Free.",
  input: z.strictObject({}),
  output: { data: z.array(ZoneSchema) },
  responseType: "zones",
  async run(ctx) {
    return { data: (await ctx.services.alerts.listZones(accountOf(ctx))).map(zoneView) };
  },
});
