import { z } from "zod";
import { accountOf } from "./account.common.ts";
import { defineOperation } from "./operation.ts";
import { endpointView, EndpointSchema } from "./projections/webhook-endpoint-view.ts";

export const webhooksList = defineOperation({
  id: "account.webhooks.list",
  method: "GET",
  path: "/api/v1/account/webhooks",
  summary: "The account's webhook endpoints",
  description: "Every webhook endpoint of the account with its status (`active`, or `disabled` after 15 consecutive failures over at least 24 hours). Free.",
  auth: "key",
  input: z.strictObject({}),
  output: { data: z.array(EndpointSchema) },
  responseType: "webhook_endpoints",
  apiVersion: "1",
  cost: 0,
  async run(ctx) {
    return { data: (await ctx.services.webhooks.listEndpoints(accountOf(ctx))).map((e) => endpointView(e, ctx.now)) };
  },
});
