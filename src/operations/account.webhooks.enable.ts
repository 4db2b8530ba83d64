import { z } from "zod";
import { accountOf, idParam, notFound } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";
import { endpointView, EndpointSchema } from "./projections/webhook-endpoint-view.ts";

export const webhooksEnable = defineAccountOperation({
  id: "account.webhooks.enable",
  method: "POST",
  path: "/api/v1/account/webhooks/{id}/enable",
  summary: "Turn an endpoint back on",
  description:
    "Turns on an endpoint the service turned off after repeated failures, and clears its failure count. New alerts reach it again; deliveries skipped while it was off stay in the log " +
    "and can be retried one by one. Free.",
  input: z.strictObject({ id: idParam("wh") }),
  output: { data: EndpointSchema },
  responseType: "webhook_endpoint",
  async run(ctx, input) {
    const e = await ctx.services.webhooks.enableEndpoint(accountOf(ctx), input.id, ctx.now);
    if (!e) throw notFound("wh", input.id);
    ctx.services.webhookDispatch.wake();
    return { data: endpointView(e, ctx.now) };
  },
});
