import { z } from "zod";
import { accountOf } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";
import { endpointView, EndpointSchema } from "./projections/webhook-endpoint-view.ts";

export const webhooksList = defineAccountOperation({
  id: "account.webhooks.list",
  method: "GET",
  path: "/api/v1/account/webhooks",
  summary: "The account's webhook endpoints",
  description: "Every webhook endpoint of the account with its status (`active`, or `disabled` after 15 consecutive failures over at least 24 hours). Free.",
  input: z.strictObject({}),
  output: { data: z.array(EndpointSchema) },
  responseType: "webhook_endpoints",
  async run(ctx) {
    return { data: (await ctx.services.webhooks.listEndpoints(accountOf(ctx))).map((e) => endpointView(e, ctx.now)) };
  },
});
