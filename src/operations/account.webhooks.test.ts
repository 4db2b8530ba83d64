import { z } from "zod";
import { formatId } from "../domain/ids.ts";
import { accountOf, idParam, notFound } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";
import { deliveryView, DeliverySchema } from "./projections/webhook-delivery-view.ts";

export const webhooksTest = defineAccountOperation({
  id: "account.webhooks.test",
  method: "POST",
  path: "/api/v1/account/webhooks/{id}/test",
  summary: "Send a test event",
  description:
    "Sends one `webhook.test` event to the endpoint now, through the same client, signature and delivery log as alerts, and answers with the attempt. Not retried; it does not count " +
    "toward turning the endpoint off. At most 10 per account and minute. Free.",
  input: z.strictObject({ id: idParam("wh") }),
  output: { data: z.object({ eventId: z.string(), delivery: DeliverySchema }) },
  responseType: "webhook_test",
  async run(ctx, input) {
    const accountId = accountOf(ctx);
    const r = await ctx.services.webhookDispatch.sendTest(accountId, input.id);
    if (!r) throw notFound("wh", input.id);
    const d = await ctx.services.webhooks.getDelivery(accountId, r.deliveryId);
    if (!d) throw notFound("wh", input.id);
    return { data: { eventId: formatId("evt", r.eventId), delivery: deliveryView(d) } };
  },
});
