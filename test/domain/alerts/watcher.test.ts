/**
 * Who is alerted of a designation: one entry per account however many of its follows and
 * watchlists name the vessel, by the identifier kind screening matches on.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Watcher, WatcherIndex } from "../../../src/domain/alerts/watcher.ts";

const follow = (accountId: string, followId: number, imo: number | null, mmsi: number | null): Watcher => ({ accountId, imo, mmsi, reason: { kind: "follow", followId } });
const member = (accountId: string, watchlistId: string, imo: number | null, mmsi: number | null): Watcher => ({ accountId, imo, mmsi, reason: { kind: "watchlist", watchlistId, watchlistName: `list ${watchlistId}` } });

describe("WatcherIndex", () => {
  it("an account whose follows and watchlists all name the vessel is one entry, naming a follow and a watchlist; the follow's identifier names the vessel", () => {
    const index = new WatcherIndex([member("a", "watchlist_1", null, 256842000), follow("a", 7, 9187655, null), follow("a", 8, null, 256842000), member("a", "watchlist_2", 9187655, null)]);
    assert.deepEqual(index.accounts([9187655], [256842000]), [{ accountId: "a", imo: 9187655, mmsi: null, followId: 7, watchlist: { id: "watchlist_2", name: "list watchlist_2" } }]);
  });

  it("a watchlist alone names the watchlist and the member's identifier; accounts stay apart", () => {
    const index = new WatcherIndex([member("a", "watchlist_1", null, 256842000), follow("b", 3, 9187655, null)]);
    assert.deepEqual(index.accounts([9187655], [256842000]), [
      { accountId: "b", imo: 9187655, mmsi: null, followId: 3, watchlist: null },
      { accountId: "a", imo: null, mmsi: 256842000, followId: null, watchlist: { id: "watchlist_1", name: "list watchlist_1" } },
    ]);
  });

  it("an IMO matches IMOs and an MMSI matches MMSIs, never across kinds", () => {
    const index = new WatcherIndex([follow("a", 1, 9187655, null), follow("b", 2, null, 9187655)]);
    assert.deepEqual(index.accounts([9187655], []).map((w) => w.accountId), ["a"]);
    assert.deepEqual(index.accounts([], [9187655]).map((w) => w.accountId), ["b"]);
    assert.deepEqual(index.accounts([1234567], [111111111]), []);
  });
});
