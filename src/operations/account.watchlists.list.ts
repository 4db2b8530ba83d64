import { z } from "zod";
import { accountOf } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";
import { watchlistView, WatchlistSchema } from "./projections/watchlist-view.ts";

export const watchlistsList = defineAccountOperation({
  id: "account.watchlists.list",
  method: "GET",
  path: "/api/v1/account/watchlists",
  summary: "The account's watchlists",
  description: "Every watchlist of the account with its name and number of members. Free.",
  input: z.strictObject({}),
  output: { data: z.array(WatchlistSchema) },
  responseType: "watchlists",
  async run(ctx) {
    return { data: (await ctx.services.watchlists.listWatchlists(accountOf(ctx))).map(watchlistView) };
  },
});
