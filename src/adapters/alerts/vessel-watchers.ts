import type { Watcher } from "../../domain/alerts/watcher.ts";
import type { AlertStore, VesselWatchers } from "../../interfaces/alerts.ts";
import type { WatchlistStore } from "../../interfaces/watchlists.ts";

/** Accounts' vessel follows as watchers. */
export function followWatchers(alerts: Pick<AlertStore, "vesselFollowers">): VesselWatchers {
  return {
    async watchersOf(imos, mmsis) {
      const follows = await alerts.vesselFollowers(imos, mmsis);
      return follows.map((f): Watcher => ({ accountId: f.accountId, imo: f.imo, mmsi: f.mmsi, reason: { kind: "follow", followId: f.id } }));
    },
  };
}

/** Members of accounts' watchlists as watchers: the alert names the watchlist. */
export function watchlistWatchers(watchlists: Pick<WatchlistStore, "watchlistMembersMatching">): VesselWatchers {
  return {
    async watchersOf(imos, mmsis) {
      const members = await watchlists.watchlistMembersMatching(imos, mmsis);
      return members.map((m): Watcher => ({ accountId: m.accountId, imo: m.imo, mmsi: m.mmsi, reason: { kind: "watchlist", watchlistId: m.watchlistId, watchlistName: m.watchlistName } }));
    },
  };
}

/** Every kind of watcher as one: each source is read once per call. */
export function allWatchers(...sources: readonly VesselWatchers[]): VesselWatchers {
  return {
    async watchersOf(imos, mmsis) {
      if (imos.length === 0 && mmsis.length === 0) return [];
      return (await Promise.all(sources.map((s) => s.watchersOf(imos, mmsis)))).flat();
    },
  };
}
