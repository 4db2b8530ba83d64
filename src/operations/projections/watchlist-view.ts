import { z } from "zod";
import { formatVesselId, type VesselId } from "../../domain/identifiers.ts";
import { formatId } from "../../domain/ids.ts";
import type { Watchlist, WatchlistMember } from "../../interfaces/watchlists.ts";
import { iso } from "../account.common.ts";

/** A watchlist as its account sees it: its name and how many vessels it holds (the members are paged apart). */
export const WatchlistSchema = z.object({
  id: z.string(),
  name: z.string(),
  memberCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** A member: its id as `/screen` takes it (`9176187`, `mmsi-244123456`), and the number it carries. */
export const WatchlistMemberSchema = z.object({
  id: z.string(),
  imo: z.number().int().nullable(),
  mmsi: z.number().int().nullable(),
});

export function watchlistView(w: Watchlist): z.infer<typeof WatchlistSchema> {
  return { id: formatId("wl", w.id), name: w.name, memberCount: w.memberCount, createdAt: iso(w.createdAt)!, updatedAt: iso(w.updatedAt)! };
}

/** A stored member as the vessel id it was given as. */
export function memberId(m: WatchlistMember): VesselId {
  return m.imo !== null ? { kind: "imo", imo: m.imo } : { kind: "mmsi", mmsi: m.mmsi! };
}

export function memberView(m: WatchlistMember): z.infer<typeof WatchlistMemberSchema> {
  return { id: formatVesselId(memberId(m)), imo: m.imo, mmsi: m.mmsi };
}
