/**
 * Who is told of a vessel's designation changes, and why: an account's follow of the vessel,
 * or its membership of one of the account's watchlists. Alerts name the reason: the follow's
 * id, or the watchlist's id and name.
 */
export type WatchReason = { kind: "follow"; followId: number } | { kind: "watchlist"; /** As clients see it (its prefixed form). */ watchlistId: string; watchlistName: string };

/** One account watching one vessel by the identifier it gave (an IMO number or an MMSI). */
export interface Watcher {
  accountId: string;
  imo: number | null;
  mmsi: number | null;
  reason: WatchReason;
}

/** What an account is alerted for, on one designation: every reason it has, and the identifiers it watches the vessel by. */
export interface AccountWatch {
  accountId: string;
  /** The identifiers the account gave (the first match's), which name the vessel in the alert. */
  imo: number | null;
  mmsi: number | null;
  followId: number | null;
  watchlist: { id: string; name: string } | null;
}

/** Watchers by the identifier they watch, to match every row of a page against them in memory. */
export class WatcherIndex {
  readonly #byImo = new Map<number, Watcher[]>();
  readonly #byMmsi = new Map<number, Watcher[]>();

  constructor(watchers: readonly Watcher[]) {
    for (const w of watchers) {
      if (w.imo !== null) this.#byImo.set(w.imo, [...(this.#byImo.get(w.imo) ?? []), w]);
      if (w.mmsi !== null) this.#byMmsi.set(w.mmsi, [...(this.#byMmsi.get(w.mmsi) ?? []), w]);
    }
  }

  /**
   * The accounts watching a vessel that carries any of these identifiers (by the rule screening
   * applies to an id: an IMO matches IMOs, an MMSI matches MMSIs), one entry per account
   * however many of its follows and watchlists match: a follow is named before a watchlist.
   */
  accounts(imos: readonly number[], mmsis: readonly number[]): AccountWatch[] {
    const byAccount = new Map<string, AccountWatch>();
    const matched = [...new Set([...imos.flatMap((v) => this.#byImo.get(v) ?? []), ...mmsis.flatMap((v) => this.#byMmsi.get(v) ?? [])])];
    for (const w of matched) {
      const a = byAccount.get(w.accountId) ?? { accountId: w.accountId, imo: w.imo, mmsi: w.mmsi, followId: null, watchlist: null };
      if (w.reason.kind === "follow") {
        // A follow names the vessel by the identifier followed, as the follow's own alerts always did.
        if (a.followId === null) Object.assign(a, { followId: w.reason.followId, imo: w.imo, mmsi: w.mmsi });
      } else if (a.watchlist === null) {
        a.watchlist = { id: w.reason.watchlistId, name: w.reason.watchlistName };
      }
      byAccount.set(w.accountId, a);
    }
    return [...byAccount.values()];
  }
}
