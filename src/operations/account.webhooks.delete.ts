import { z } from "zod";
import { accountOf, deleted, DeletedSchema, idParam, notFound } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";

export const webhooksDelete = defineAccountOperation({
  id: "account.webhooks.delete",
  method: "DELETE",
  path: "/api/v1/account/webhooks/{id}",
  summary: "Delete a webhook endpoint",
  description: "Deletes the endpoint, its pending deliveries and its delivery log. Free.",
  input: z.strictObject({ id: idParam("wh") }),
  output: { data: DeletedSchema },
  responseType: "deleted",
  async run(ctx, input) {
    if (!(await ctx.services.webhooks.deleteEndpoint(accountOf(ctx), input.id))) throw notFound("wh", input.id);
    return { data: deleted("wh", input.id) };
  },
});
