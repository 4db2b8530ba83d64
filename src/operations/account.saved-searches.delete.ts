import { z } from "zod";
import { accountOf, deleted, DeletedSchema, idParam, notFound } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";

export const savedSearchesDelete = defineAccountOperation({
  id: "account.saved-searches.delete",
  method: "DELETE",
  path: "/api/v1/account/saved-searches/{id}",
  summary: "Delete a saved search",
  description: "Deletes a saved search. Free.",
  input: z.strictObject({ id: idParam("search") }),
  output: { data: DeletedSchema },
  responseType: "deleted",
  async run(ctx, input) {
    if (!(await ctx.services.alerts.deleteSavedSearch(accountOf(ctx), input.id))) throw notFound("search", input.id);
    return { data: deleted("search", input.id) };
  },
});
