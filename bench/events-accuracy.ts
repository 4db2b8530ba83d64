/**
 * Accuracy of the behaviour events (encounters, loitering, AIS gaps, identity changes)
 * against simulated vessels with known truth, through the code live derivation runs
 * (adapters/derived/runtime.ts `apply`: every vessel's fixes interleaved in receive order,
 * pages of 5,000, each page's fixes "stored" before it is derived, as ingest does). The
 * companion of bench/derived-accuracy.ts (port calls and transits). Not a test: it prints
 * precision, recall and start and end errors, which bench/README.md records.
 *
 *   npx node bench/events-accuracy.ts [scenarios per kind, default 100] [seed, default 1]
 *
 * Every scenario at its own site on open ocean (over 60 km from shore on Natural Earth's
 * coastline) and its own hours, among moving traffic heard by the same station:
 * - encounters: two ships lying or drifting (under 1 kn) within 0–300 m for 2.5–10 h;
 *   confusers: together 0.5–1.5 h; 2–5 km apart for 3 h; one ship lying alone 3 h (ships
 *   lying 4 h or more are loitering too, and counted so);
 * - loitering: one ship under 1 kn for 4.5–24 h; confusers: 1–3.5 h;
 * - AIS gaps: a ship at 8–14 kn silent 6.5–20 h while patrol ships keep being heard near
 *   where it went dark; confusers: silent 2–5 h; silent while the station hears nobody
 *   (a receiver outage: every ship near is silent too);
 * - identity changes: static reports every 6 minutes, a share renaming or changing call
 *   sign once; confusers: repeats, first-heard call signs, "not available";
 * - degradations on a third of the scenario ships: random drops (10 %), out-of-order delivery
 *   (neighbours swapped with p = 0.1).
 */
import { MemoryLookups } from "../src/adapters/derived/memory-lookups.ts";
import { apply } from "../src/adapters/derived/runtime.ts";
import { BUNDLED_DATASETS_DIR } from "../src/adapters/importers/bundled-datasets-dir.ts";
import { loadBundledPorts } from "../src/adapters/importers/ports/bundled-ports.ts";
import { loadShore } from "../src/adapters/importers/shore.ts";
import { newVesselDerivedState, type VesselDerivedState } from "../src/domain/derived/derive.ts";
import type { DerivedFix } from "../src/domain/derived/fix.ts";
import { fromPlane } from "../src/domain/derived/geo.ts";
import { identityChanges } from "../src/domain/derived/identity-change-detector.ts";
import { PortAreaIndex, portArea } from "../src/domain/derived/port-areas.ts";
import { GateSet } from "../src/domain/derived/transit-detector.ts";
import type { VesselEvent } from "../src/domain/derived/vessel-event.ts";
import type { VesselIdentity } from "../src/domain/vessels/vessel-identity.ts";
import { type Leg, sailVoyage, seeded, shuffled } from "../test/helpers/voyage.ts";
import { percentile } from "./percentile.ts";

const PER_KIND = Number(process.argv[2] ?? 100);
const random = seeded(Number(process.argv[3] ?? 1));
const T0 = Date.UTC(2026, 10, 1);
const HOUR = 3_600_000;
const MIN = 60_000;
const between = (a: number, b: number) => a + random() * (b - a);

const places = (await loadBundledPorts(BUNDLED_DATASETS_DIR)).filter((p) => p.lat !== null && p.lon !== null);
const ports = new PortAreaIndex(places.map((p) => portArea({ unlocode: p.unlocode, name: p.name, lat: p.lat!, lon: p.lon!, harbourSize: p.wpi?.harborSize ?? null })));
const shore = loadShore();

/** A point `km` away from (lon, lat) at `bearing` degrees. */
function offset(at: [number, number], km: number, bearing: number): [number, number] {
  const rad = (bearing * Math.PI) / 180;
  return fromPlane({ x: Math.sin(rad) * km, y: Math.cos(rad) * km }, at[0], at[1]);
}

/** Sites on open ocean, each its own: a grid over the North Atlantic, kept where no coast is within 60 km. */
const sites: [number, number][] = [];
for (let lat = 36; lat <= 56 && sites.length < 4_000; lat += 0.7) for (let lon = -45; lon <= -12; lon += 0.9) if (shore.distanceKm(lat, lon, 60) === Infinity && ports.clearanceKm(lat, lon) > 60) sites.push([lon, lat]);
let nextSite = 0;
const site = () => sites[nextSite++ % sites.length]!;

interface Truth {
  type: "encounter" | "loitering" | "ais_gap";
  mmsis: number[];
  start: number;
  end: number;
}
const truth: Truth[] = [];
const fixes: DerivedFix[] = [];
let nextMmsi = 300_000_000;
let degradedShips = 0;

/** A ship's fixes, degraded on a third of them. */
function ship(legs: Leg[], from: [number, number], start: number, degrade = true): { mmsi: number; fixes: DerivedFix[] } {
  const mmsi = nextMmsi++;
  let out = sailVoyage(legs, { mmsi, stationId: 1, start, from, stoppedEverySec: 180 }).fixes;
  if (degrade && random() < 1 / 3) {
    degradedShips++;
    out = shuffled(
      out.filter(() => random() >= 0.1),
      0.1,
      random,
    );
  }
  fixes.push(...out);
  return { mmsi, fixes: out };
}

/** Moving traffic around a site for `hours`: what keeps a station hearing ships there. */
function patrol(at: [number, number], start: number, hours: number, skip: [number, number] | null = null): void {
  const legs: Leg[] = [];
  // Legs between points 12 km out, 47 degrees apart (9.6 km chords at 12 kn), until the span is covered.
  const legHours = (2 * 12 * Math.sin((23.5 * Math.PI) / 180)) / (12 * 1.852);
  for (let h = 0; h * legHours < hours + 1; h++) legs.push({ sail: offset(at, 12, (h * 47) % 360), knots: 12 });
  const mmsi = nextMmsi++;
  const out = sailVoyage(legs, { mmsi, stationId: 1, start, from: offset(at, 5, 0) }).fixes.filter((f) => !skip || f.time < skip[0] || f.time >= skip[1]);
  fixes.push(...out);
}

const day = () => T0 + Math.floor(between(0, 40)) * 24 * HOUR + between(0, 12) * HOUR;

// Encounters, and their confusers.
for (let i = 0; i < PER_KIND; i++) {
  const at = site();
  const start = day();
  const hours = between(2.5, 10);
  const apart = between(0, 0.3);
  const knots = between(0, 1);
  const drift = (from: [number, number]): Leg[] => [{ stop: 0.5, navStatus: 0 }, { sail: offset(from, knots * 1.852 * hours, 90), knots: Math.max(knots, 0.01) }];
  const a = ship([{ sail: at, knots: 12 }, ...drift(at), { sail: offset(at, 20, 0), knots: 12 }], offset(at, 20, 180), start);
  const other = offset(at, apart, 0);
  const b = ship([{ sail: other, knots: 12 }, ...drift(other), { sail: offset(at, 20, 270), knots: 12 }], offset(at, 20, 90), start);
  // Both ships reach the site 20 km away at 12 kn at the same time, lie 30 minutes, then drift together.
  const met = start + (20 / (12 * 1.852)) * HOUR;
  truth.push({ type: "encounter", mmsis: [a.mmsi, b.mmsi], start: met, end: met + (0.5 + hours) * HOUR });
  // Lying 4 h or more at sea is loitering too, by its own rule: each ship's.
  if (0.5 + hours >= 4) for (const s of [a, b]) truth.push({ type: "loitering", mmsis: [s.mmsi], start: met, end: met + (0.5 + hours) * HOUR });
}
for (let i = 0; i < PER_KIND; i++) {
  const at = site();
  const start = day();
  const kind = i % 3;
  if (kind === 0) {
    const h = between(0.5, 1.5);
    ship([{ sail: at, knots: 12 }, { stop: h, navStatus: 0 }, { sail: offset(at, 20, 0), knots: 12 }], offset(at, 20, 180), start);
    ship([{ sail: at, knots: 12 }, { stop: h, navStatus: 0 }, { sail: offset(at, 20, 270), knots: 12 }], offset(at, 20, 90), start);
  } else if (kind === 1) {
    const other = offset(at, between(2, 5), between(0, 360));
    ship([{ sail: at, knots: 12 }, { stop: 3, navStatus: 0 }, { sail: offset(at, 20, 0), knots: 12 }], offset(at, 20, 180), start);
    ship([{ sail: other, knots: 12 }, { stop: 3, navStatus: 0 }, { sail: offset(other, 20, 270), knots: 12 }], offset(other, 20, 90), start);
  } else {
    ship([{ sail: at, knots: 12 }, { stop: 3, navStatus: 0 }, { sail: offset(at, 20, 0), knots: 12 }], offset(at, 20, 180), start);
  }
}

// Loitering, and its confusers.
for (let i = 0; i < PER_KIND * 2; i++) {
  const at = site();
  const start = day();
  const real = i < PER_KIND;
  const hours = real ? between(4.5, 24) : between(1, 3.5);
  const s = ship([{ sail: at, knots: 12 }, { stop: hours, navStatus: 0 }, { sail: offset(at, 20, 0), knots: 12 }], offset(at, 20, 180), start);
  const lay = start + (20 / (12 * 1.852)) * HOUR;
  if (real) truth.push({ type: "loitering", mmsis: [s.mmsi], start: lay, end: lay + hours * HOUR });
}

// AIS gaps, and their confusers.
for (let i = 0; i < PER_KIND * 3; i++) {
  const at = site();
  const start = day();
  const kind = i < PER_KIND ? "gap" : i < PER_KIND * 2 ? "short" : "outage";
  const silent = kind === "gap" ? between(6.5, 20) : kind === "short" ? between(2, 5) : between(6.5, 20);
  const knots = between(8, 14);
  const dark = start + 2 * HOUR;
  const sailHours = 2 + silent + 2;
  const mmsi = nextMmsi++;
  const all = sailVoyage([{ sail: offset(at, knots * 1.852 * sailHours, between(0, 360)), knots }], { mmsi, stationId: 1, start, from: at }).fixes;
  const heard = all.filter((f) => f.time < dark || f.time >= dark + silent * HOUR);
  fixes.push(...heard);
  // Traffic near where it went dark, heard all along; in an outage, silent over the same hours.
  patrol(all.find((f) => f.time >= dark)! && ([all.filter((f) => f.time < dark).at(-1)!.lon, all.filter((f) => f.time < dark).at(-1)!.lat] as [number, number]), start, sailHours + 1, kind === "outage" ? [dark - 30 * MIN, dark + silent * HOUR + 30 * MIN] : null);
  const back = heard.find((f) => f.time >= dark)!;
  const last = heard.filter((f) => f.time < dark).at(-1)!;
  if (kind === "gap") truth.push({ type: "ais_gap", mmsis: [mmsi], start: last.time, end: back.time });
}

// Live: receive order, pages of 5,000, each page stored before it is derived.
fixes.sort((x, y) => x.time - y.time);
const lookups = new MemoryLookups();
const ctx = { ports, gates: new GateSet([]), shore, minSilenceMs: 6 * HOUR, lookups };
const states = new Map<string, VesselDerivedState>();
const events = new Map<string, VesselEvent>();
const started = performance.now();
for (let at = 0; at < fixes.length; at += 5_000) {
  const page = fixes.slice(at, at + 5_000);
  lookups.add(page);
  const r = await apply(page, async (keys) => new Map(keys.map((k) => [`${k.stationId}:${k.mmsi}`, states.get(`${k.stationId}:${k.mmsi}`) ?? newVesselDerivedState()])), ctx);
  for (const s of r.commit.states) states.set(`${s.stationId}:${s.mmsi}`, s.state);
  lookups.record(r.commit);
  for (const e of r.commit.events) events.set(e.id, e);
}
const elapsed = performance.now() - started;
console.log(`${fixes.length} fixes of ${nextMmsi - 300_000_000} simulated ships (${degradedShips} degraded) at ${Math.min(nextSite, sites.length)} ocean sites; derived in ${elapsed.toFixed(0)} ms (${Math.round(fixes.length / (elapsed / 1000))} fixes/s)`);

const minutes = (xs: number[]) => (xs.length === 0 ? "n/a" : `median ${percentile(xs, 50).toFixed(1)}, p90 ${percentile(xs, 90).toFixed(1)}, max ${Math.max(...xs).toFixed(1)} min`);
for (const type of ["encounter", "loitering", "ais_gap"] as const) {
  // An encounter is one meeting of two ships: its two rows count once.
  const detected = [...events.values()].filter((e) => e.type === type && (type !== "encounter" || e.mmsi < e.counterpartMmsi!));
  const wanted = truth.filter((t) => t.type === type);
  const used = new Set<string>();
  const startErr: number[] = [];
  const endErr: number[] = [];
  for (const t of wanted) {
    const m = detected.find((e) => !used.has(e.id) && t.mmsis.includes(e.mmsi) && (type !== "encounter" || t.mmsis.includes(e.counterpartMmsi!)) && e.start < t.end && (e.end ?? Infinity) > t.start);
    if (!m) continue;
    used.add(m.id);
    startErr.push(Math.abs(m.start - t.start) / MIN);
    if (m.end !== null) endErr.push(Math.abs(m.end - t.end) / MIN);
  }
  const precision = detected.length === 0 ? 1 : used.size / detected.length;
  const recall = wanted.length === 0 ? 1 : used.size / wanted.length;
  console.log(`${type}: truth ${wanted.length}, detected ${detected.length}, matched ${used.size}; precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}`);
  console.log(`  start error: ${minutes(startErr)}; end error: ${minutes(endErr)}`);
  const extra = detected.filter((e) => !used.has(e.id));
  if (extra.length > 0) console.log(`  unmatched: ${extra.slice(0, 3).map((e) => `${e.mmsi} ${new Date(e.start).toISOString()}`).join(", ")}`);
}

// Identity changes: a static report every 6 minutes for a day per ship; a third rename once,
// a third change call sign once (the change is due at the first report carrying the new value).
let idTruth = 0;
let idDetected = 0;
let idMatched = 0;
for (let i = 0; i < PER_KIND * 3; i++) {
  const base = { stationId: 1, mmsi: 400_000_000 + i, imo: null, shipType: 70, toBow: 100, toStern: 20, toPort: 10, toStarboard: 10, draught: 8, destination: "ROTTERDAM", eta: null };
  let stored: VesselIdentity | undefined;
  const at = Math.floor(between(10, 230));
  const kind = i % 3;
  let due = false;
  for (let k = 0; k < 240; k++) {
    const name = kind === 0 && k >= at ? `NEW NAME ${i}` : `SHIP ${i}`;
    // Confusers: the call sign first heard late (kind 2), "not available" now and then.
    const callsign = kind === 2 && k < at ? null : random() < 0.05 ? null : kind === 1 && k >= at ? `C${i}B` : `C${i}A`;
    const update = { ...base, updatedAt: T0 + k * 6 * MIN, name, callsign };
    const changedNow = (kind === 0 && k === at) || (kind === 1 && callsign === `C${i}B` && !due);
    if (kind === 1 && callsign === `C${i}B`) due = true;
    const found = identityChanges(stored, update, null);
    idDetected += found.length;
    if (changedNow) {
      idTruth++;
      if (found.length === 1) idMatched++;
    }
    stored = { ...(stored ?? update), ...update, callsign: callsign ?? stored?.callsign ?? null };
  }
}
console.log(`identity_change: truth ${idTruth}, detected ${idDetected}, matched ${idMatched}; precision ${(idDetected === 0 ? 1 : idMatched / idDetected).toFixed(3)}, recall ${(idMatched / idTruth).toFixed(3)}`);
