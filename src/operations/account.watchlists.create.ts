import { z } from "zod";
import { watchlistLimits } from "../domain/watchlists/limits.ts";
import { accountOf } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";
import { watchlistView, WatchlistSchema } from "./projections/watchlist-view.ts";
import { watchlistIdsField, watchlistNameField, watchlistWriteError } from "./watchlist-fields.ts";

export const watchlistsCreate = defineAccountOperation({
  id: "account.watchlists.create",
  method: "POST",
  path: "/api/v1/account/watchlists",
  summary: "Add a watchlist",
  description:
    "A named list of vessels (checksum-valid IMO numbers or `mmsi-` ids, up to 10,000; the same vessel twice is kept once) to screen as a whole with " +
    "`GET /api/v1/account/watchlists/{id}/screen`. Every bad id is named with its index and nothing is stored. The plans limit the number of lists and of members in all lists together. Free.",
  input: z.strictObject({}),
  body: z.strictObject({ name: watchlistNameField, ids: watchlistIdsField }),
  output: { data: WatchlistSchema },
  responseType: "watchlist",
  async run(ctx, input) {
    const r = await ctx.services.watchlists.createWatchlist(accountOf(ctx), input.name, input.ids, watchlistLimits(ctx.principal.entitlements), ctx.now);
    if (!r.ok) throw watchlistWriteError(ctx, r);
    return { data: watchlistView(r.value) };
  },
});
