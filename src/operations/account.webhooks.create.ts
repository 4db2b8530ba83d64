import { z } from "zod";
import { newWebhookSecret } from "../domain/webhooks/signature.ts";
import { accountOf, limitReached, nameField } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";
import { endpointView, EndpointWithSecretSchema } from "./projections/webhook-endpoint-view.ts";
import { urlField, eventsField } from "./webhook-endpoint-fields.ts";

export const webhooksCreate = defineAccountOperation({
  id: "account.webhooks.create",
  method: "POST",
  path: "/api/v1/account/webhooks",
  summary: "Add a webhook endpoint",
  description:
    "Adds an https endpoint (port 443 or 8443, a public host) that receives the account's alerts as signed POSTs. The answer carries the endpoint's signing secret, " +
    "`whsec_...`, shown this once. Endpoints per account: Pro 5, Developer 5, Growth 100, Scale 1,000 (the higher plan applies). Free.",
  input: z.strictObject({}),
  body: z.strictObject({ url: urlField, description: nameField(200).optional(), events: eventsField.optional() }),
  output: { data: EndpointWithSecretSchema },
  responseType: "webhook_endpoint",
  async run(ctx, input) {
    const accountId = accountOf(ctx);
    const limit = ctx.principal.entitlements.webhookEndpoints;
    if (limit === 0) throw limitReached("webhook endpoints", 0);
    const secret = newWebhookSecret();
    const r = await ctx.services.webhooks.createEndpoint(accountId, { url: input.url, description: input.description ?? null, events: input.events ?? null }, secret, limit, ctx.now);
    if (!r.ok) throw limitReached("webhook endpoints", r.limit);
    return { data: { ...endpointView(r.endpoint, ctx.now), secret } };
  },
});
