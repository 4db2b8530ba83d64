import assert from "node:assert/strict";
import { test } from "node:test";
import { buildGate, crossGate, type GateDefinition } from "../../../src/domain/derived/gates.ts";
import { categoryOf, countedTransits, dailySeries, transitConfidence, windowCounts } from "../../../src/domain/derived/transit-counts.ts";
import { GateSet, type GateCrossing, observeTransit } from "../../../src/domain/derived/transit-detector.ts";
import type { DerivedFix } from "../../../src/domain/derived/fix.ts";
import { sailVoyage } from "../../helpers/voyage.ts";

const DOVER: GateDefinition = {
  id: "chokepoint9",
  name: "Dover Strait",
  line: [
    [1.376, 51.165],
    [1.712, 50.906],
  ],
  directions: { leftToRight: "southwest-bound", rightToLeft: "northeast-bound" },
  maxGapMinutes: 120,
};
const GATES = new GateSet([buildGate(DOVER)]);
const T0 = Date.UTC(2026, 10, 20, 0, 0, 0);
const HOUR = 3_600_000;

function crossings(fixes: readonly DerivedFix[]): GateCrossing[] {
  const s = { t: -1, lat: 0, lon: 0 };
  return fixes.flatMap((f) => observeTransit(s, f, GATES).crossings);
}

test("a ship sailing down the Channel crosses the Dover gate once, south-west bound, at the right time", () => {
  const v = sailVoyage([{ sail: [1.2, 50.8], knots: 15 }], { mmsi: 235_000_001, stationId: 1, start: T0, from: [2.0, 51.3] });
  const found = crossings(v.fixes);
  assert.equal(found.length, 1);
  assert.equal(found[0]!.direction, "southwest-bound");
  assert.equal(found[0]!.observed, true);
  // Truth: where the continuous straight path from start to end meets the line.
  const truth = crossGate(GATES.gates[0]!, { lon: 2.0, lat: 51.3, time: T0 }, { lon: 1.2, lat: 50.8, time: v.path[1]![0] })!;
  assert.ok(Math.abs(found[0]!.time - truth.time) <= 60_000, "within one reporting interval of the true crossing");
  const back = crossings(sailVoyage([{ sail: [2.0, 51.3], knots: 15 }], { mmsi: 235_000_001, stationId: 1, start: T0, from: [1.2, 50.8] }).fixes);
  assert.equal(back[0]!.direction, "northeast-bound");
});

test("a step longer than the gate's maximum gap is an unobserved crossing, not a transit", () => {
  const fixes: DerivedFix[] = [
    { mmsi: 1, stationId: 1, time: T0, lat: 51.3, lon: 2.0, sog: 12, navStatus: 0 },
    { mmsi: 1, stationId: 1, time: T0 + 5 * HOUR, lat: 50.8, lon: 1.2, sog: 12, navStatus: 0 },
  ];
  const found = crossings(fixes);
  assert.equal(found.length, 1);
  assert.equal(found[0]!.observed, false);
  assert.deepEqual(countedTransits(found.map((c) => ({ ...c }))), []);
});

test("the same vessel is counted again only 48 hours after it was counted", () => {
  const at = (h: number, mmsi = 7) => ({ gateId: "chokepoint9", mmsi, time: T0 + h * HOUR, direction: h % 2 ? "northeast-bound" : "southwest-bound", observed: true });
  const counted = countedTransits([at(0), at(10), at(47), at(49), at(60), at(3, 8)]);
  assert.deepEqual(
    counted.map((c) => [c.mmsi, (c.time - T0) / HOUR]),
    [
      [7, 0],
      [8, 3],
      [7, 49],
    ],
  );
});

test("window counts split by direction and by category; daily series have every day", () => {
  const transits = [
    { gateId: "g", mmsi: 1, time: T0 + 1 * HOUR, direction: "a" },
    { gateId: "g", mmsi: 2, time: T0 - 3 * 24 * HOUR, direction: "b" },
    { gateId: "g", mmsi: 3, time: T0 - 20 * 24 * HOUR, direction: "a" },
  ];
  const categories = new Map([
    [1, categoryOf(70)],
    [2, categoryOf(84)],
  ]);
  const w = windowCounts(transits, ["a", "b"], categories, T0 + 2 * HOUR);
  assert.deepEqual([w["24h"].total, w["7d"].total, w["30d"].total], [1, 2, 3]);
  assert.deepEqual(w["7d"].byDirection, { a: 1, b: 1 });
  assert.deepEqual([w["30d"].byCategory.cargo, w["30d"].byCategory.tanker, w["30d"].byCategory.unknown], [1, 1, 1]);
  const days = dailySeries(transits, ["a", "b"], categories, T0 - 7 * 24 * HOUR, T0 + 24 * HOUR);
  assert.equal(days.length, 8);
  assert.equal(days.reduce((a, d) => a + d.total, 0), 2);
});

test("confidence follows coverage, continuity and unobserved crossings", () => {
  assert.equal(transitConfidence(24, 24, [60_000], 10, 0).level, "high");
  assert.equal(transitConfidence(20, 24, [20 * 60_000], 10, 1).level, "medium");
  assert.equal(transitConfidence(5, 24, [60_000], 10, 0).level, "low");
  assert.equal(transitConfidence(0, 24, [], 0, 0).level, "none");
});
