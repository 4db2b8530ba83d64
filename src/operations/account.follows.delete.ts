import { z } from "zod";
import { accountOf, deleted, DeletedSchema, idParam, notFound } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";

export const followsDelete = defineAccountOperation({
  id: "account.follows.delete",
  method: "DELETE",
  path: "/api/v1/account/follows/{id}",
  summary: "Stop following",
  description: "Deletes a follow. Free.",
  input: z.strictObject({ id: idParam("follow") }),
  output: { data: DeletedSchema },
  responseType: "deleted",
  async run(ctx, input) {
    if (!(await ctx.services.alerts.deleteFollow(accountOf(ctx), input.id))) throw notFound("follow", input.id);
    return { data: deleted("follow", input.id) };
  },
});
