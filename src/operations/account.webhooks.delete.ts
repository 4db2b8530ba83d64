import { z } from "zod";
import { accountOf, deleted, DeletedSchema, idParam, notFound } from "./account.common.ts";
import { defineOperation } from "./operation.ts";

export const webhooksDelete = defineOperation({
  id: "account.webhooks.delete",
  method: "DELETE",
  path: "/api/v1/account/webhooks/{id}",
  summary: "Delete a webhook endpoint",
  description: "Deletes the endpoint, its pending deliveries and its delivery log. Free.",
  auth: "key",
  input: z.strictObject({ id: idParam("wh") }),
  output: { data: DeletedSchema },
  responseType: "deleted",
  apiVersion: "1",
  cost: 0,
  async run(ctx, input) {
    if (!(await ctx.services.webhooks.deleteEndpoint(accountOf(ctx), input.id))) throw notFound("wh", input.id);
    return { data: deleted("wh", input.id) };
  },
});
