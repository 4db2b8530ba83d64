import { z } from "zod";
import { accountOf, deleted, DeletedSchema, idParam, notFound } from "./account.common.ts";
import { defineOperation } from "./operation.ts";

export const followsDelete = defineOperation({
  id: "account.follows.delete",
  method: "DELETE",
  path: "/api/v1/account/follows/{id}",
  summary: "Stop following",
  description: "Deletes a follow. Free.",
  auth: "key",
  input: z.strictObject({ id: idParam("follow") }),
  output: { data: DeletedSchema },
  responseType: "deleted",
  apiVersion: "1",
  cost: 0,
  async run(ctx, input) {
    if (!(await ctx.services.alerts.deleteFollow(accountOf(ctx), input.id))) throw notFound("follow", input.id);
    return { data: deleted("follow", input.id) };
  },
});
