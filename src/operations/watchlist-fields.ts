import { z } from "zod";
import { MAX_WATCHLIST_MEMBERS, MEMBER_RULE, parseMembers, refusedInWords } from "../domain/watchlists/members.ts";
import { watchlistLimits } from "../domain/watchlists/limits.ts";
import type { WatchlistWrite } from "../interfaces/watchlists.ts";
import { limitReached, nameField, notFound } from "./account.common.ts";
import type { OperationContext } from "./operation.ts";
import { CURSOR_DESCRIPTION, cursorParam, decodeCursor, encodeCursor, intParam } from "./params.ts";

/** What the watchlist operations share: the body fields, the member pages' cursor and the refusals of a write. */

export const watchlistNameField = nameField(100);

/** `ids`: every bad entry named with its index, duplicates kept once, at most MAX_WATCHLIST_MEMBERS vessels. */
export const watchlistIdsField = z
  .array(z.unknown(), { error: `must be an array of vessel ids, each ${MEMBER_RULE}` })
  .transform((entries, ctx) => {
    const r = parseMembers(entries);
    if (!r.ok) {
      ctx.addIssue({ code: "custom", message: refusedInWords(r.refused) });
      return z.NEVER;
    }
    if (r.members.length === 0) {
      ctx.addIssue({ code: "custom", message: "must name at least one vessel; delete the list to drop it" });
      return z.NEVER;
    }
    if (r.members.length > MAX_WATCHLIST_MEMBERS) {
      ctx.addIssue({ code: "custom", message: `names ${r.members.length} vessels; a watchlist holds at most ${MAX_WATCHLIST_MEMBERS.toLocaleString("en-US")}` });
      return z.NEVER;
    }
    return r.members;
  })
  .describe(`The vessels: each ${MEMBER_RULE}, up to ${MAX_WATCHLIST_MEMBERS.toLocaleString("en-US")} per list; the same vessel twice is kept once.`);

/** Pages of members: `limit` and the cursor after the last member of the previous page. */
export function memberPageParams(max: number, fallback: number) {
  return { limit: intParam(1, max, fallback).describe("Members per page."), cursor: cursorParam.optional().describe(CURSOR_DESCRIPTION) };
}

/** The position a member page starts after: 0 for the first page. */
export function afterPosition(cursor: string | undefined): number {
  return cursor ? decodeCursor(cursor, z.object({ after: z.number().int().nonnegative() })).after : 0;
}

/** The cursor of the next page, when one member more than the page was read. */
export function nextPageCursor(read: readonly { position: number }[], limit: number): string | null {
  return read.length > limit ? encodeCursor({ after: read[limit - 1]!.position }) : null;
}

/** A refused write in the words of the API: over a plan limit (limit_reached), or not the caller's list (404). */
export function watchlistWriteError(ctx: OperationContext, r: Exclude<WatchlistWrite, { ok: true }>, id?: number) {
  if (r.reason === "not_found") return notFound("wl", id ?? 0);
  const limits = watchlistLimits(ctx.principal.entitlements);
  return r.reason === "lists" ? limitReached("watchlists", limits.lists) : limitReached("watchlist members in all lists together", r.limit);
}
