import { z } from "zod";
import { accountOf, idParam, nameField, notFound } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";
import { endpointView, EndpointSchema } from "./projections/webhook-endpoint-view.ts";
import { urlField, eventsField } from "./webhook-endpoint-fields.ts";

export const webhooksUpdate = defineAccountOperation({
  id: "account.webhooks.update",
  method: "PATCH",
  path: "/api/v1/account/webhooks/{id}",
  summary: "Change a webhook endpoint",
  description: "Changes the URL, description or event types of an endpoint. Pending retries go to the new URL. Free.",
  input: z.strictObject({ id: idParam("wh") }),
  body: z
    .strictObject({ url: urlField.optional(), description: nameField(200).nullable().optional(), events: eventsField.nullable().optional() })
    .refine((b) => b.url !== undefined || b.description !== undefined || b.events !== undefined, { error: "must change at least one of url, description, events" }),
  output: { data: EndpointSchema },
  responseType: "webhook_endpoint",
  async run(ctx, input) {
    const { id, ...patch } = input;
    const e = await ctx.services.webhooks.updateEndpoint(accountOf(ctx), id, patch, ctx.now);
    if (!e) throw notFound("wh", id);
    return { data: endpointView(e, ctx.now) };
  },
});
