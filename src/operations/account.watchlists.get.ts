import { z } from "zod";
import { idParam } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";
import { ownedWatchlist } from "./owned-watchlist.ts";
import { memberView, WatchlistMemberSchema, watchlistView, WatchlistSchema } from "./projections/watchlist-view.ts";
import { afterPosition, memberPageParams, nextPageCursor } from "./watchlist-fields.ts";

export const watchlistsGet = defineAccountOperation({
  id: "account.watchlists.get",
  method: "GET",
  path: "/api/v1/account/watchlists/{id}",
  summary: "One watchlist and its members",
  description: "A watchlist of the account (`watchlist`) and its members in the order given, paged (`limit` 1 to 1,000, default 1,000; `next` continues). Free.",
  input: z.strictObject({ id: idParam("wl"), ...memberPageParams(1_000, 1_000) }),
  output: { top: { watchlist: WatchlistSchema }, data: z.array(WatchlistMemberSchema) },
  responseType: "watchlist_members",
  paged: true,
  async run(ctx, input) {
    const list = await ownedWatchlist(ctx, input.id);
    const read = await ctx.services.watchlists.watchlistMembers(list.id, afterPosition(input.cursor), input.limit + 1);
    return { top: { watchlist: watchlistView(list) }, data: read.slice(0, input.limit).map(memberView), nextCursor: nextPageCursor(read, input.limit) };
  },
});
