/**
 * The behaviour detectors (encounters, loitering, AIS gaps) through the one path live
 * derivation and `mds derive` share (adapters/derived/runtime.ts apply), on simulated
 * voyages with known truth, the stored data held in memory. Each rule of
 * docs/vessel-events.md, and the traps that must not raise an event.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MemoryLookups } from "../../../src/adapters/derived/memory-lookups.ts";
import { apply } from "../../../src/adapters/derived/runtime.ts";
import { loadShore } from "../../../src/adapters/importers/shore.ts";
import { newVesselDerivedState, type VesselDerivedState } from "../../../src/domain/derived/derive.ts";
import type { DerivedFix } from "../../../src/domain/derived/fix.ts";
import { PortAreaIndex, portArea } from "../../../src/domain/derived/port-areas.ts";
import { GateSet } from "../../../src/domain/derived/transit-detector.ts";
import type { VesselEvent } from "../../../src/domain/derived/vessel-event.ts";
import { gapId, openGapOf } from "../../../src/domain/derived/gap-detector.ts";
import { type Leg, sailVoyage, seeded, shuffled, withGap } from "../../helpers/voyage.ts";

const PORTS = new PortAreaIndex([{ unlocode: "NLRTM", name: "Rotterdam", lat: 51.9, lon: 4.483333, harbourSize: "Large" }].map(portArea));
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 20, 0, 0, 0);
/** Mid North Sea: over 100 nm from any coast. */
const OPEN_SEA: [number, number] = [2.5, 55.5];

function voyage(mmsi: number, from: [number, number], legs: Leg[], start = T0): DerivedFix[] {
  return sailVoyage(legs, { mmsi, stationId: 1, start, from }).fixes;
}

/**
 * The events a station's fixes give, derived as live derivation does: in pages of `page`
 * fixes in time order, each committed (its episodes and coverage recorded) before the next.
 */
async function derive(fixes: readonly DerivedFix[], page = 5_000): Promise<VesselEvent[]> {
  const sorted = [...fixes].sort((a, b) => a.time - b.time);
  const lookups = new MemoryLookups();
  const states = new Map<string, VesselDerivedState>();
  const events = new Map<string, VesselEvent>();
  const ctx = { ports: PORTS, gates: new GateSet([]), shore: loadShore(), minSilenceMs: 6 * HOUR, lookups };
  for (let at = 0; at < sorted.length; at += page) {
    const batch = sorted.slice(at, at + page);
    lookups.add(batch);
    const r = await apply(batch, async (keys) => new Map(keys.map((k) => [`${k.stationId}:${k.mmsi}`, states.get(`${k.stationId}:${k.mmsi}`) ?? newVesselDerivedState()])), ctx);
    for (const s of r.commit.states) states.set(`${s.stationId}:${s.mmsi}`, s.state);
    lookups.record(r.commit);
    for (const e of r.commit.events) events.set(e.id, e);
  }
  return [...events.values()];
}

const ofType = (events: VesselEvent[], type: string) => events.filter((e) => e.type === type);

/** Two ships sail to one point from either side, lie there `hours`, and part. */
function meeting(at: [number, number], hours: number, apartKm = 0): DerivedFix[] {
  const [lon, lat] = at;
  const other: [number, number] = [lon + apartKm / (111.32 * Math.cos((lat * Math.PI) / 180)), lat];
  return [
    ...voyage(246_000_001, [lon - 0.5, lat], [{ sail: at, knots: 12 }, { stop: hours, navStatus: 0 }, { sail: [lon + 0.5, lat], knots: 12 }]),
    ...voyage(246_000_002, [other[0] + 0.5, lat], [{ sail: other, knots: 12 }, { stop: hours, navStatus: 0 }, { sail: [other[0] - 0.5, lat], knots: 12 }]),
  ];
}

describe("encounters", () => {
  it("two ships side by side 3 h far at sea: one encounter each, naming the other, the same meeting", async () => {
    for (const page of [5_000, 25]) {
      const events = ofType(await derive(meeting(OPEN_SEA, 3), page), "encounter");
      assert.equal(events.length, 2, `pages of ${page}: ${JSON.stringify(events)}`);
      const [a, b] = events.sort((x, y) => x.mmsi - y.mmsi) as [VesselEvent, VesselEvent];
      assert.deepEqual([a.mmsi, a.counterpartMmsi, b.mmsi, b.counterpartMmsi], [246_000_001, 246_000_002, 246_000_002, 246_000_001]);
      assert.deepEqual([a.start, a.end], [b.start, b.end]);
      const hours = (a.end! - a.start) / HOUR;
      assert.ok(hours >= 2.8 && hours <= 3.1, `lasted ${hours} h`);
      assert.ok(a.confidence > 0.5 && a.confidence <= 1, String(a.confidence));
      assert.equal(a.method, "encounter.close_and_slow");
    }
  });

  it("only 1 h together, or 3 h but 2 km apart: no encounter", async () => {
    assert.deepEqual(ofType(await derive(meeting(OPEN_SEA, 1)), "encounter"), []);
    assert.deepEqual(ofType(await derive(meeting(OPEN_SEA, 3, 2)), "encounter"), []);
  });

  it("3 h side by side at the anchorage off Rotterdam: no encounter (within 10 km of a port's anchorage)", async () => {
    assert.deepEqual(ofType(await derive(meeting([4.3, 51.95], 3)), "encounter"), []);
  });
});

describe("loitering", () => {
  const drift = (at: [number, number], hours: number) => voyage(246_000_010, [at[0] - 0.5, at[1]], [{ sail: at, knots: 12 }, { stop: hours, navStatus: 0 }, { sail: [at[0] + 0.5, at[1]], knots: 12 }]);

  it("5 h under 2 kn 100 nm from shore: one loitering event, closed when it sails on", async () => {
    const events = ofType(await derive(drift(OPEN_SEA, 5)), "loitering");
    assert.equal(events.length, 1, JSON.stringify(events));
    const e = events[0]!;
    assert.ok(e.end !== null);
    const hours = (e.end! - e.start) / HOUR;
    assert.ok(hours >= 4.8 && hours <= 5.1, `lasted ${hours} h`);
    assert.ok(Math.abs(e.lat! - OPEN_SEA[1]) < 0.01 && Math.abs(e.lon! - OPEN_SEA[0]) < 0.01);
  });

  it("still drifting after 4 h: open (no end) until it moves", async () => {
    const fixes = voyage(246_000_011, [OPEN_SEA[0] - 0.5, OPEN_SEA[1]], [{ sail: OPEN_SEA, knots: 12 }, { stop: 6, navStatus: 0 }]);
    const events = ofType(await derive(fixes), "loitering");
    assert.equal(events.length, 1);
    assert.equal(events[0]!.end, null);
  });

  it("5 h drifting 10 km off the Dutch coast, or 3 h far at sea: no loitering", async () => {
    assert.deepEqual(ofType(await derive(drift([4.25, 52.6], 5)), "loitering"), []);
    assert.deepEqual(ofType(await derive(drift(OPEN_SEA, 3)), "loitering"), []);
  });
});

describe("AIS gaps", () => {
  // A ship heading east at 5 kn for 10 h; another lying near where the first goes dark.
  const sailing = (silent: [number, number] | null) => {
    const fixes = voyage(246_000_020, [2.0, 56.5], [{ sail: [4.5, 56.5], knots: 5 }]);
    return silent ? withGap(fixes, T0 + silent[0] * HOUR, T0 + silent[1] * HOUR) : fixes;
  };
  const lying = (hours: [number, number]) => withGap(voyage(246_000_021, [2.2, 56.5], [{ stop: 11, navStatus: 1 }]), T0 + hours[0] * HOUR, T0 + hours[1] * HOUR);

  it("silent 8 h while the station keeps hearing a ship near its last position: one gap, with where it went dark and came back", async () => {
    const events = ofType(await derive([...sailing([1, 9]), ...lying([11, 11])]), "ais_gap");
    assert.equal(events.length, 1, JSON.stringify(events));
    const e = events[0]!;
    assert.equal(e.mmsi, 246_000_020);
    const hours = (e.end! - e.start) / HOUR;
    assert.ok(hours >= 7.9 && hours <= 8.1, `lasted ${hours} h`);
    assert.ok((e.details.impliedKnots as number) > 4 && (e.details.impliedKnots as number) < 6, JSON.stringify(e.details));
    assert.equal(e.confidence, 1);
  });

  it("the station heard nobody near during the silence (a receiver outage): no gap", async () => {
    assert.deepEqual(ofType(await derive([...sailing([1, 9]), ...lying([0.5, 9.5])]), "ais_gap"), []);
  });

  it("silent under 6 h: no gap", async () => {
    assert.deepEqual(ofType(await derive([...sailing([1, 6]), ...lying([11, 11])]), "ais_gap"), []);
  });

  it("back 8 h later 900 km away (over 60 kn) (two ships on one MMSI, or a bad position): no gap", async () => {
    const far = voyage(246_000_020, [17.0, 56.5], [{ sail: [17.5, 56.5], knots: 5 }], T0 + 9 * HOUR);
    const fixes = [...sailing([1, 11]).filter((f) => f.time < T0 + HOUR), ...far, ...lying([11, 11])];
    assert.deepEqual(ofType(await derive(fixes), "ais_gap"), []);
  });
});

describe("traps that raise no event", () => {
  it("one MMSI used by two ships 200 km apart, both heard all along: no gap, no encounter, no loitering", async () => {
    const a = voyage(246_000_030, [2.0, 55.0], [{ sail: [3.5, 55.0], knots: 10 }]);
    const b = voyage(246_000_030, [6.0, 57.0], [{ sail: [7.5, 57.0], knots: 10 }], T0 + 30_000);
    const events = await derive([...a, ...b]);
    assert.deepEqual(events, []);
  });

  it("fixes out of order: the same events as in order, none more", async () => {
    const fixes = [...meeting(OPEN_SEA, 3)].sort((x, y) => x.time - y.time);
    const inOrder = await derive(fixes, 200);
    const disordered = await derive(shuffled(fixes, 0.2, seeded(7)), 200);
    assert.equal(ofType(inOrder, "encounter").length, 2);
    assert.deepEqual(disordered.map((e) => e.id).sort(), inOrder.map((e) => e.id).sort());
  });

  it("ordinary traffic under way all day: no event", async () => {
    const fixes = [0, 1, 2, 3].flatMap((i) => voyage(246_000_040 + i, [2.0 + i * 0.01, 55.0], [{ sail: [5.0, 55.0 + i * 0.01], knots: 11 + i }]));
    assert.deepEqual(await derive(fixes), []);
  });
});

describe("AIS gaps still open", () => {
  const last = { stationId: 1, mmsi: 246_000_030, time: T0, lat: 56.5, lon: 2.3 };
  const minSilence = 6 * HOUR;

  it("silent 8 h so far while others were heard near in 5 of its 8 whole hours: open, from the last fix, with no end, no position after and no speed", () => {
    const gap = openGapOf(last, T0 + 8 * HOUR, minSilence, 5)!;
    assert.equal(gap.id, gapId(1, 246_000_030, T0));
    assert.equal(gap.end, null);
    assert.deepEqual([gap.lat, gap.lon, gap.details.after, gap.details.impliedKnots, gap.details.hours], [56.5, 2.3, null, null, 8]);
    assert.equal(gap.confidence, 0.63);
  });

  it("others heard near in under half the hours so far (a receiver outage), or silent under 6 h: not open", () => {
    assert.equal(openGapOf(last, T0 + 8 * HOUR, minSilence, 3), null);
    assert.equal(openGapOf(last, T0 + 5 * HOUR, minSilence, 5), null);
  });
});
