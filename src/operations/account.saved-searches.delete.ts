import { z } from "zod";
import { accountOf, deleted, DeletedSchema, idParam, notFound } from "./account.common.ts";
import { defineOperation } from "./operation.ts";

export const savedSearchesDelete = defineOperation({
  id: "account.saved-searches.delete",
  method: "DELETE",
  path: "/api/v1/account/saved-searches/{id}",
  summary: "Delete a saved search",
  description: "Deletes a saved search. Free.",
  auth: "key",
  input: z.strictObject({ id: idParam("search") }),
  output: { data: DeletedSchema },
  responseType: "deleted",
  apiVersion: "1",
  cost: 0,
  async run(ctx, input) {
    if (!(await ctx.services.alerts.deleteSavedSearch(accountOf(ctx), input.id))) throw notFound("search", input.id);
    return { data: deleted("search", input.id) };
  },
});
