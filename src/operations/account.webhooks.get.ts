import { z } from "zod";
import { idParam } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";
import { ownedEndpoint } from "./owned-webhook-endpoint.ts";
import { endpointView, EndpointSchema } from "./projections/webhook-endpoint-view.ts";

export const webhooksGet = defineAccountOperation({
  id: "account.webhooks.get",
  method: "GET",
  path: "/api/v1/account/webhooks/{id}",
  summary: "One webhook endpoint",
  description: "A webhook endpoint of the account. Free.",
  input: z.strictObject({ id: idParam("wh") }),
  output: { data: EndpointSchema },
  responseType: "webhook_endpoint",
  async run(ctx, input) {
    return { data: endpointView(await ownedEndpoint(ctx, input.id), ctx.now) };
  },
});
