/**
 * Live derivation equals a recompute, for every kind of derived fact (DERIVED_FACT_KINDS):
 * each kind's scenario is ingested through the real pipeline into a fresh store, once as one
 * batch and once in small batches each derived on its own, and `mds derive` over the same
 * positions must give the same rows. A kind added without a scenario fails the first test.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { DerivedFix } from "../../../src/domain/derived/fix.ts";
import { DERIVED_FACT_KINDS, type DerivedFactKind } from "../../../src/interfaces/derived.ts";
import { recomputeDerived } from "../../../src/cli/derive.ts";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";
import { type Leg, sailVoyage, withGap } from "../../helpers/voyage.ts";
import { positionLine, stationFor } from "../../helpers/ingest.ts";

const HOUR = 3_600_000;
const SEA: [number, number] = [3.7, 52.05];
const MOUTH: [number, number] = [4.02, 51.985];
const BERTH: [number, number] = [4.483333, 51.9];

/** A voyage: where it starts, its legs, how long ago, and hours (from its start) in which it is not heard. */
interface VoyagePlan {
  from: [number, number];
  legs: Leg[];
  hoursAgo: number;
  silent?: [number, number];
}

/** The voyages, heard by one station, that give at least one fact of a kind. */
type Scenario = VoyagePlan[];

/** One scenario per kind; the type makes a missing one a compile error, the first test a failure. */
const SCENARIOS: Record<DerivedFactKind, Scenario> = {
  port_call: [{ from: SEA, legs: [{ sail: MOUTH, knots: 14 }, { sail: BERTH, knots: 9 }, { stop: 3, port: "NLRTM" }, { sail: MOUTH, knots: 10 }, { sail: SEA, knots: 14 }], hoursAgo: 9 }],
  gate_crossing: [{ from: [2.0, 51.3], legs: [{ sail: [1.2, 50.8], knots: 15 }, { sail: [2.0, 51.3], knots: 15 }], hoursAgo: 6 }],
  gate_coverage: [{ from: [2.0, 51.3], legs: [{ sail: [1.2, 50.8], knots: 12 }], hoursAgo: 4 }],
  // Two ships meet mid North Sea, 3 h side by side, and part.
  encounter: [
    { from: [2.0, 55.5], legs: [{ sail: [2.5, 55.5], knots: 12 }, { stop: 3, navStatus: 0 }, { sail: [3.0, 55.5], knots: 12 }], hoursAgo: 8 },
    { from: [3.0, 55.5], legs: [{ sail: [2.5, 55.5], knots: 12 }, { stop: 3, navStatus: 0 }, { sail: [2.0, 55.5], knots: 12 }], hoursAgo: 8 },
  ],
  // Five hours drifting 100 nm off the English coast.
  loitering: [{ from: [2.0, 54.8], legs: [{ sail: [2.5, 54.8], knots: 12 }, { stop: 5, navStatus: 0 }, { sail: [3.0, 54.8], knots: 12 }], hoursAgo: 9 }],
  // A ship silent 8 h while the station keeps hearing another one lying near where it went dark.
  ais_gap: [
    { from: [2.0, 56.5], legs: [{ sail: [4.5, 56.5], knots: 5 }], hoursAgo: 12, silent: [1, 9] },
    { from: [2.2, 56.5], legs: [{ stop: 11, navStatus: 1 }], hoursAgo: 12 },
  ],
};

const MODES = { "one batch": Infinity, "batches of 25 lines, each derived on its own": 25 } as const;

it("every derived fact kind has an equivalence scenario", () => {
  assert.deepEqual(Object.keys(SCENARIOS).sort(), Object.keys(DERIVED_FACT_KINDS).sort());
});

for (const engine of ENGINES) {
  for (const [mode, size] of Object.entries(MODES)) {
    describe(`live derivation equals a recompute (${engine}, ${mode})`, () => {
      let t: TestService;
      const live = new Map<DerivedFactKind, string[]>();
      before(async () => {
        t = await startTestService({ engine });
        const kinds = Object.keys(SCENARIOS) as DerivedFactKind[];
        for (const [i, kind] of kinds.entries()) {
          // Each kind on its own station and vessel, so its facts are its scenario's alone.
          const st = await stationFor(t, "pro", `equivalence ${kind}`);
          // The voyages' fixes in time order, as one station hears them.
          const fixes = SCENARIOS[kind]
            .flatMap((s, j) => {
              const start = t.clock.now() - s.hoursAgo * HOUR;
              const v = sailVoyage(s.legs, { mmsi: 244_300_001 + i * 10 + j, stationId: st.id, start, from: s.from });
              return s.silent ? withGap(v.fixes, start + s.silent[0] * HOUR, start + s.silent[1] * HOUR) : v.fixes;
            })
            .sort((a, b) => a.time - b.time);
          const lines = fixes.map((f: DerivedFix) => positionLine({ mmsi: f.mmsi, lat: f.lat, lon: f.lon, sog: f.sog ?? 0, navStatus: f.navStatus ?? 15 }, Math.floor(f.time / 1000) * 1000));
          const station = (await t.service.ingest.directory.byId(st.id))!;
          for (let at = 0; at < lines.length; at += Math.min(size, lines.length)) {
            const r = t.service.ingest.pipeline.submit(station, lines.slice(at, at + Math.min(size, lines.length)), { source: "equivalence", transport: "http" });
            await t.service.ingest.pipeline.flush();
            await r.stored;
            if (size !== Infinity) await t.service.derived!.idle();
          }
        }
        await t.service.derived!.idle();
        for (const kind of kinds) live.set(kind, await rowsOf(t, kind));
        // In small batches, the recompute too commits a vessel at a time: what one vessel's
        // facts rest on (what the station heard, the other ship's episode) comes from another's commit.
        await recomputeDerived(t.service, {}, size === Infinity ? undefined : 1);
      });
      after(() => t.close());

      for (const kind of Object.keys(SCENARIOS) as DerivedFactKind[]) {
        it(`${kind}: the rows derived live are the rows a recompute gives`, async () => {
          assert.ok(live.get(kind)!.length > 0, `the ${kind} scenario gives at least one fact live`);
          assert.deepEqual(await rowsOf(t, kind), live.get(kind));
        });
      }
    });
  }
}

/** The kind's rows without their bookkeeping columns, each as JSON, sorted: comparable whatever the order of writing. */
async function rowsOf(t: TestService, kind: DerivedFactKind): Promise<string[]> {
  const spec: { table: (typeof DERIVED_FACT_KINDS)[DerivedFactKind]["table"]; type?: string; bookkeeping: readonly string[] } = DERIVED_FACT_KINDS[kind];
  const { table, bookkeeping } = spec;
  const all = (await t.service.store.db.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
  const rows = spec.type === undefined ? all : all.filter((r) => r.type === spec.type);
  return rows
    .map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).filter(([k]) => !(bookkeeping as readonly string[]).includes(k)).sort(([a], [b]) => a.localeCompare(b)))))
    .sort();
}
