import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseMembers, refusedInWords } from "../../../src/domain/watchlists/members.ts";
import { WATCHLIST_LIMITS, watchlistLimits } from "../../../src/domain/watchlists/limits.ts";

describe("watchlist members", () => {
  it("takes IMO numbers as text or numbers and mmsi- ids, keeping each vessel once where it first came", () => {
    const r = parseMembers([" 9176187", 9074729, "MMSI-244123456", "9176187", "mmsi-244123456", 9074729]);
    assert.deepEqual(r, {
      ok: true,
      members: [
        { kind: "imo", imo: 9176187 },
        { kind: "imo", imo: 9074729 },
        { kind: "mmsi", mmsi: 244123456 },
      ],
    });
  });

  it("names every bad entry with its index, whatever its type, shortened for quoting", () => {
    const r = parseMembers(["9176187", "9176188", 12.5, null, { imo: 1 }, [], true, "x".repeat(50), "IMO 9176187", "244123456", "mmsi-000000000"]);
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual(
      r.refused.map((e) => [e.index, e.text]),
      [
        [1, "9176188"],
        [2, "12.5"],
        [3, "null"],
        [4, '{"imo":1}'],
        [5, "[]"],
        [6, "true"],
        [7, `${"x".repeat(20)}...`],
        [8, "IMO 9176187"],
        [9, "244123456"],
        [10, "mmsi-000000000"],
      ],
    );
    assert.match(refusedInWords(r.refused), /^10 entries are not a checksum-valid 7-digit IMO number .*: \[1\] `9176188`, \[2\] `12\.5`/);
  });

  it("limits: the higher of an account's plans, the sandbox's without one", () => {
    assert.deepEqual(watchlistLimits({ plans: [] }), WATCHLIST_LIMITS.sandbox);
    assert.deepEqual(watchlistLimits({ plans: ["pro", "developer"] }), { lists: 25, members: 25_000 });
    for (const l of Object.values(WATCHLIST_LIMITS)) assert.ok(l.lists >= 1 && l.members >= 100);
  });
});
