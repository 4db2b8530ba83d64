import { z } from "zod";
import { watchlistLimits } from "../domain/watchlists/limits.ts";
import { accountOf, idParam } from "./account.common.ts";
import { defineAccountOperation } from "./account-operation.ts";
import { watchlistView, WatchlistSchema } from "./projections/watchlist-view.ts";
import { watchlistIdsField, watchlistNameField, watchlistWriteError } from "./watchlist-fields.ts";

export const watchlistsUpdate = defineAccountOperation({
  id: "account.watchlists.update",
  method: "PUT",
  path: "/api/v1/account/watchlists/{id}",
  summary: "Rename a watchlist or replace its members",
  description:
    "`name` renames the list; `ids` replaces all its members (the same rules as when it was made). Either or both; a bad id refuses the whole change and nothing is stored. Free.",
  input: z.strictObject({ id: idParam("wl") }),
  body: z
    .strictObject({ name: watchlistNameField.optional(), ids: watchlistIdsField.optional() })
    .refine((b) => b.name !== undefined || b.ids !== undefined, { error: "must change at least one of name, ids" }),
  output: { data: WatchlistSchema },
  responseType: "watchlist",
  async run(ctx, input) {
    const r = await ctx.services.watchlists.updateWatchlist(accountOf(ctx), input.id, { name: input.name, members: input.ids }, watchlistLimits(ctx.principal.entitlements).members, ctx.now);
    if (!r.ok) throw watchlistWriteError(ctx, r, input.id);
    return { data: watchlistView(r.value) };
  },
});
