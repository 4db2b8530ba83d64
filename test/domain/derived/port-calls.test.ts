import assert from "node:assert/strict";
import { test } from "node:test";
import { PortAreaIndex, portArea } from "../../../src/domain/derived/port-areas.ts";
import { newPortCallState, observePortCall, type PortCall } from "../../../src/domain/derived/port-call-detector.ts";
import type { DerivedFix } from "../../../src/domain/derived/fix.ts";
import { sailVoyage, shuffled, seeded, withGap } from "../../helpers/voyage.ts";

// World Port Index positions and harbour sizes of the ports along the Nieuwe Waterweg.
const PORTS = new PortAreaIndex(
  [
    { unlocode: "NLRTM", name: "Rotterdam", lat: 51.9, lon: 4.483333, harbourSize: "Large" },
    { unlocode: "NLSCI", name: "Schiedam", lat: 51.9, lon: 4.4, harbourSize: "Very Small" },
    { unlocode: "NLVLA", name: "Vlaardingen", lat: 51.9, lon: 4.35, harbourSize: "Very Small" },
    { unlocode: "NLEUR", name: "Europoort", lat: 51.95, lon: 4.116667, harbourSize: "Medium" },
  ].map(portArea),
);

const T0 = Date.UTC(2026, 10, 20, 6, 0, 0);
const MIN = 60_000;

/** Calls as the detector leaves them: the last version of each call id. */
function detect(fixes: readonly DerivedFix[]): PortCall[] {
  const state = newPortCallState();
  const calls = new Map<string, PortCall>();
  for (const f of fixes) for (const e of observePortCall(state, f, PORTS)) calls.set(e.call.id, e.call);
  return [...calls.values()];
}

const SEA: [number, number] = [3.7, 52.05];
const MOUTH: [number, number] = [4.02, 51.985];
const BERTH: [number, number] = [4.483333, 51.9];

test("a three-hour stop at Rotterdam is one call, arrival and departure within 15 minutes of the truth", () => {
  const v = sailVoyage(
    [{ sail: MOUTH, knots: 14 }, { sail: [4.3, 51.905], knots: 10 }, { sail: BERTH, knots: 8 }, { stop: 3, port: "NLRTM" }, { sail: [4.3, 51.905], knots: 8 }, { sail: MOUTH, knots: 10 }, { sail: SEA, knots: 14 }],
    { mmsi: 244_000_001, stationId: 1, start: T0, from: SEA },
  );
  const calls = detect(v.fixes);
  assert.equal(calls.length, 1, JSON.stringify(calls));
  const c = calls[0]!;
  assert.equal(c.unlocode, "NLRTM");
  const truth = v.stops[0]!;
  assert.ok(Math.abs(c.arrival - truth.from) <= 15 * MIN, `arrival off by ${(c.arrival - truth.from) / MIN} min`);
  assert.ok(c.departure !== null && Math.abs(c.departure - truth.to) <= 15 * MIN, `departure off by ${((c.departure ?? 0) - truth.to) / MIN} min`);
  assert.equal(c.confidence, 4);
  assert.equal(c.arrivalObserved, true);
  assert.equal(c.departureObserved, true);
});

test("while the vessel is still in port its call has no departure", () => {
  const v = sailVoyage([{ sail: MOUTH, knots: 14 }, { sail: BERTH, knots: 9 }, { stop: 2 }], { mmsi: 244_000_002, stationId: 1, start: T0, from: SEA });
  const calls = detect(v.fixes);
  assert.equal(calls.length, 1);
  assert.equal(calls[0]!.departure, null);
});

test("passing close to a port without stopping makes no call", () => {
  // Through Europoort's area (1 km from its point) without slowing down.
  const v = sailVoyage([{ sail: [4.2, 51.975], knots: 12 }, { sail: [4.0, 52.2], knots: 12 }], { mmsi: 244_000_003, stationId: 1, start: T0, from: [3.9, 51.85] });
  assert.deepEqual(detect(v.fixes), []);
});

test("anchoring outside the port, then leaving, makes no call", () => {
  // 12 km off Europoort: in its anchorage ring, not its area.
  const v = sailVoyage([{ sail: [3.95, 51.98], knots: 12 }, { stop: 10, navStatus: 1 }, { sail: [3.6, 52.2], knots: 12 }], { mmsi: 244_000_004, stationId: 1, start: T0, from: [3.5, 52.1] });
  assert.deepEqual(detect(v.fixes), []);
});

test("waiting at the anchorage before berthing is reported apart from the call", () => {
  const v = sailVoyage(
    [{ sail: [3.95, 51.98], knots: 12 }, { stop: 6, navStatus: 1 }, { sail: [4.1, 51.955], knots: 10 }, { stop: 4, port: "NLEUR" }, { sail: SEA, knots: 12 }],
    { mmsi: 244_000_005, stationId: 1, start: T0, from: [3.5, 52.1] },
  );
  const calls = detect(v.fixes);
  assert.equal(calls.length, 1);
  assert.equal(calls[0]!.unlocode, "NLEUR");
  assert.ok(Math.abs(calls[0]!.waitingFrom! - v.stops[0]!.from) <= 5 * MIN, "waiting starts when the anchor went down");
  assert.ok(Math.abs(calls[0]!.arrival - v.stops[1]!.from) <= 15 * MIN);
});

test("a reception gap over the berth keeps one call; the hours of silence count as the stay", () => {
  const v = sailVoyage([{ sail: MOUTH, knots: 14 }, { sail: BERTH, knots: 9 }, { stop: 12 }, { sail: SEA, knots: 12 }], { mmsi: 244_000_006, stationId: 1, start: T0, from: SEA });
  const stop = v.stops[0]!;
  const calls = detect(withGap(v.fixes, stop.from + 30 * MIN, stop.to - 30 * MIN));
  assert.equal(calls.length, 1);
  assert.ok(Math.abs(calls[0]!.arrival - stop.from) <= 15 * MIN);
  assert.ok(Math.abs(calls[0]!.departure! - stop.to) <= 15 * MIN);
  assert.ok(calls[0]!.maxGapMinutes >= 10 * 60);
});

test("fixes out of order are skipped, not replayed backwards: still one call", () => {
  const v = sailVoyage([{ sail: MOUTH, knots: 14 }, { sail: BERTH, knots: 9 }, { stop: 3 }, { sail: SEA, knots: 12 }], { mmsi: 244_000_007, stationId: 1, start: T0, from: SEA });
  const calls = detect(shuffled(v.fixes, 0.2, seeded(7)));
  assert.equal(calls.length, 1);
  assert.ok(Math.abs(calls[0]!.arrival - v.stops[0]!.from) <= 15 * MIN);
});

test("a port's area follows its WPI harbour size; without one it gets the default radius", () => {
  assert.equal(portArea({ unlocode: "NLRTM", name: "Rotterdam", lat: 51.9, lon: 4.48, harbourSize: "Large" }).radiusKm, 8);
  assert.equal(portArea({ unlocode: "NLSCI", name: "Schiedam", lat: 51.9, lon: 4.4, harbourSize: "Very Small" }).radiusKm, 2);
  const plain = portArea({ unlocode: "XXABC", name: "X", lat: 0, lon: 0, harbourSize: null });
  assert.equal(plain.geometry, "default_radius");
  assert.ok(plain.exitKm > plain.radiusKm && plain.anchorageKm > plain.exitKm);
});
