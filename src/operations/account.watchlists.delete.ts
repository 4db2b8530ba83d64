import { z } from "zod";
import { accountOf, deleted, DeletedSchema, idParam, notFound } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";

export const watchlistsDelete = defineAccountOperation({
  id: "account.watchlists.delete",
  method: "DELETE",
  path: "/api/v1/account/watchlists/{id}",
  summary: "Delete a watchlist",
  description: "Deletes a watchlist and its members. Free.",
  input: z.strictObject({ id: idParam("wl") }),
  output: { data: DeletedSchema },
  responseType: "deleted",
  async run(ctx, input) {
    if (!(await ctx.services.watchlists.deleteWatchlist(accountOf(ctx), input.id))) throw notFound("wl", input.id);
    return { data: deleted("wl", input.id) };
  },
});
