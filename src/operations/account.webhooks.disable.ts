import { z } from "zod";
import { accountOf, idParam, notFound } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";
import { endpointView, EndpointSchema } from "./projections/webhook-endpoint-view.ts";

/** The reason an endpoint turned off by its owner shows, beside the service's own "15 failures in a row". */
export const DISABLED_BY_OWNER = "turned off by its owner";

export const webhooksDisable = defineAccountOperation({
  id: "account.webhooks.disable",
  method: "POST",
  path: "/api/v1/account/webhooks/{id}/disable",
  summary: "Turn an endpoint off",
  description:
    "Turns an endpoint off without deleting it: alerts raised meanwhile are logged as skipped (and can be retried one by one once it is on again), its secret and log are kept. " +
    "`POST .../enable` turns it back on. Free.",
  input: z.strictObject({ id: idParam("wh") }),
  output: { data: EndpointSchema },
  responseType: "webhook_endpoint",
  async run(ctx, input) {
    const e = await ctx.services.webhooks.disableEndpoint(accountOf(ctx), input.id, DISABLED_BY_OWNER, ctx.now);
    if (!e) throw notFound("wh", input.id);
    return { data: endpointView(e, ctx.now) };
  },
});
