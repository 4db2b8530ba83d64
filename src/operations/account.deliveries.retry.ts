import { z } from "zod";
import { AppError } from "../domain/errors.ts";
import { accountOf, idParam, notFound } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";
import { deliveryView, DeliverySchema } from "./projections/webhook-delivery-view.ts";

export const deliveriesRetry = defineAccountOperation({
  id: "account.deliveries.retry",
  method: "POST",
  path: "/api/v1/account/deliveries/{id}/retry",
  summary: "Retry a delivery now",
  description:
    "One more attempt of a delivery now, with the same event id (receivers de-duplicate on it). A delivery waiting for a scheduled retry is brought forward; a delivered, given-up " +
    "or failed one gets one extra attempt and keeps its state unless it succeeds; one skipped while its endpoint was off takes up its schedule. Refused (409) while the endpoint is off. Free.",
  input: z.strictObject({ id: idParam("dlv") }),
  output: { data: DeliverySchema },
  responseType: "webhook_delivery",
  async run(ctx, input) {
    const r = await ctx.services.webhooks.retryDelivery(accountOf(ctx), input.id, ctx.now);
    if (!r.ok) {
      if (r.reason === "not_found") throw notFound("dlv", input.id);
      if (r.reason === "endpoint_disabled") throw new AppError("conflict", "The delivery's endpoint is turned off; turn it on (POST .../enable) first.");
      throw new AppError("conflict", "The delivery is being sent right now; look at its log in a few seconds.");
    }
    ctx.services.webhookDispatch.wake();
    return { data: deliveryView(r.delivery) };
  },
});
