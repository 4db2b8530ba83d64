import { z } from "zod";
import { newWebhookSecret } from "../domain/webhooks/signature.ts";
import { accountOf, idParam, notFound } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";
import { endpointView, EndpointWithSecretSchema } from "./projections/webhook-endpoint-view.ts";

export const webhooksRotate = defineAccountOperation({
  id: "account.webhooks.rotate",
  method: "POST",
  path: "/api/v1/account/webhooks/{id}/rotate-secret",
  summary: "Rotate an endpoint's signing secret",
  description:
    "Makes a new secret, shown this once. During the grace period (`graceHours`, 0 to 168, default 24) every delivery carries two signatures, `v1=<new>,v1=<old>`, so receivers " +
    "can switch over at their pace; 0 stops the old secret at once. Free.",
  input: z.strictObject({ id: idParam("wh") }),
  body: z.strictObject({ graceHours: z.number({ error: "must be a number of hours" }).int({ error: "must be a whole number" }).min(0).max(168).optional() }),
  output: { data: EndpointWithSecretSchema },
  responseType: "webhook_endpoint",
  async run(ctx, input) {
    const secret = newWebhookSecret();
    const until = ctx.now + (input.graceHours ?? 24) * 3_600_000;
    const e = await ctx.services.webhooks.rotateSecret(accountOf(ctx), input.id, secret, until, ctx.now);
    if (!e) throw notFound("wh", input.id);
    return { data: { ...endpointView(e, ctx.now), secret } };
  },
});
