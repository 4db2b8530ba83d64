import type { Watchlist } from "../interfaces/watchlists.ts";
import { accountOf, notFound } from "./account.common.ts";
import type { OperationContext } from "./operation.ts";

/** The caller's watchlist with this id; another account's list is the same 404 as one that never existed. */
export async function ownedWatchlist(ctx: OperationContext, id: number): Promise<Watchlist> {
  const w = await ctx.services.watchlists.getWatchlist(accountOf(ctx), id);
  if (!w) throw notFound("wl", id);
  return w;
}
