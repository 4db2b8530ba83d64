import { z } from "zod";
import { formatVesselId } from "../domain/identifiers.ts";
import { idParam } from "./account.common.ts";
import { defineOperation } from "./operation.ts";
import { ownedWatchlist } from "./owned-watchlist.ts";
import { memberId, watchlistView, WatchlistSchema } from "./projections/watchlist-view.ts";
import { listsParam, SCREEN_TOP, ScreenResultSchema, screenVessels } from "./screening.ts";
import { afterPosition, memberPageParams, nextPageCursor } from "./watchlist-fields.ts";

export const watchlistsScreen = defineOperation({
  id: "account.watchlists.screen",
  method: "GET",
  path: "/api/v1/account/watchlists/{id}/screen",
  tool: "screen_watchlist",
  summary: "Screen a watchlist against sanctions lists",
  description:
    "Screens the list's members in the order given, a page at a time (`limit` 1 to 100, default 50; `next` continues): each row exactly as `/api/v1/screen` answers it, " +
    "`query` being the member's id. `sanctionedCount` counts this page's sanctioned members. 1 credit per vessel screened: a page reserves `limit` credits and gives back " +
    "what it did not screen (the last page of a list is shorter), so with fewer credits left than `limit`, ask for a smaller `limit`.",
  auth: "key",
  input: z.strictObject({ id: idParam("wl").describe("The watchlist, `wl_` and its number, as creating or listing watchlists answers it."), lists: listsParam, ...memberPageParams(100, 50) }),
  output: { top: { watchlist: WatchlistSchema, ...SCREEN_TOP }, data: z.array(ScreenResultSchema) },
  responseType: "screen",
  apiVersion: "1",
  paged: true,
  // The page's members are known only once the list is read: `limit` is reserved, and run() charges what it screened.
  cost: (input) => input.limit,
  receipt: "screening",
  async run(ctx, input) {
    const list = await ownedWatchlist(ctx, input.id);
    const read = await ctx.services.watchlists.watchlistMembers(list.id, afterPosition(input.cursor), input.limit + 1);
    const page = read.slice(0, input.limit).map(memberId);
    const screened = await screenVessels(ctx, page.map((id) => ({ text: formatVesselId(id), id })), input.lists);
    return { top: { watchlist: watchlistView(list), ...screened.top }, data: screened.data, nextCursor: nextPageCursor(read, input.limit), charge: page.length, listVersions: screened.listVersions };
  },
});
