import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { impliesImpossibleSpeed, JUMP_CONFIRMATIONS, JumpFilter } from "../../../src/domain/tracks/position-jump.ts";

const MIN = 60_000;
const T0 = Date.parse("2026-11-20T12:00:00Z");
/** A point `nm` nautical miles north of 60 N, 25 E (one minute of latitude is one mile). */
const north = (nm: number, time: number) => ({ lat: 60 + nm / 60, lon: 25, time });

describe("position jumps: a fix farther than a ship can sail since its last one", () => {
  it("judges by implied speed: 20 kn is a voyage, 70 kn is not; close fixes are always allowed", () => {
    assert.equal(impliesImpossibleSpeed(north(0, T0), north(20, T0 + 60 * MIN)), false);
    assert.equal(impliesImpossibleSpeed(north(0, T0), north(70, T0 + 60 * MIN)), true);
    // 0.5 nm within a second is GNSS noise and whole-second timestamps, not 1,800 kn.
    assert.equal(impliesImpossibleSpeed(north(0, T0), north(0.5, T0 + 1_000)), false);
    // Out of order counts the same as in order.
    assert.equal(impliesImpossibleSpeed(north(70, T0 + 60 * MIN), north(0, T0)), true);
  });

  it("flags a single jump and keeps judging against the last accepted fix", () => {
    const f = new JumpFilter();
    assert.equal(f.accept("1:1", north(0, T0)), true);
    assert.equal(f.accept("1:1", north(2, T0 + 10 * MIN)), true);
    // The real case: a report that puts the ship 1,000 nm away a minute later.
    assert.equal(f.accept("1:1", { lat: 60.06, lon: -92.2, time: T0 + 11 * MIN }), false);
    assert.equal(f.accept("1:1", north(4, T0 + 20 * MIN)), true, "back on course: judged against the fix before the jump");
    // Another ship (or the same MMSI at another station) has its own history.
    assert.equal(f.accept("2:1", { lat: 60.06, lon: -92.2, time: T0 + 11 * MIN }), true);
  });

  it("accepts a new place once enough consecutive fixes agree on it (the earlier fix was the wrong one)", () => {
    const f = new JumpFilter();
    assert.equal(f.accept("k", north(0, T0)), true);
    const there = (i: number) => north(300 + i * 0.2, T0 + (5 + i) * MIN);
    for (let i = 1; i < JUMP_CONFIRMATIONS; i++) assert.equal(f.accept("k", there(i)), false, `fix ${i} there`);
    assert.equal(f.accept("k", there(JUMP_CONFIRMATIONS)), true);
    assert.equal(f.accept("k", there(JUMP_CONFIRMATIONS + 1)), true, "and the track goes on from there");
    assert.equal(f.accept("k", north(0, T0 + 20 * MIN)), false, "the old place is now the jump");
  });

  it("scattered jumps never confirm one another", () => {
    const f = new JumpFilter();
    f.accept("k", north(0, T0));
    for (let i = 1; i <= 10; i++) assert.equal(f.accept("k", north(i % 2 === 0 ? 500 : -500, T0 + i * MIN)), false);
  });

  it("forgets the oldest ship beyond its bound (its next fix is accepted as a first one)", () => {
    const f = new JumpFilter(2);
    f.accept("a", north(0, T0));
    f.accept("b", north(0, T0));
    f.accept("c", north(0, T0));
    assert.equal(f.accept("a", north(500, T0 + MIN)), true);
    assert.equal(f.accept("c", north(500, T0 + MIN)), false);
  });
});
