/**
 * Accuracy of the derived facts against simulated vessels with known truth, through the
 * code live derivation runs (adapters/derived/runtime.ts `apply`, pages of 5,000 fixes in
 * receive order), then the detectors over the real AIS captures. Not a test: it prints
 * precision, recall and timing error, which bench/README.md records.
 *
 *   npx node bench/derived-accuracy.ts [vessels per scenario, default 200] [seed, default 1]
 *
 * Scenarios (each vessel a scenario; truth from the continuous path):
 * - calls at real ports (World Port Index positions and harbour sizes of the bundled data):
 *   approach, optional wait at anchor outside the area, berth 1.5 to 48 h, leave;
 * - confusers: anchoring outside a port and leaving, passing through a port area without
 *   stopping, passing slowly (4 kn);
 * - transits of every gate (28 PortWatch + extra), either way, and U-turns back across
 *   within 48 h (one counted transit);
 * - degradations on a share of vessels: reception gaps (30 min to 8 h), random drops (10 %),
 *   out-of-order delivery (neighbours swapped with p = 0.1).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BUNDLED_DATASETS_DIR } from "../src/adapters/importers/bundled-datasets-dir.ts";
import { loadWaterways } from "../src/adapters/importers/gates.ts";
import { loadBundledPorts } from "../src/adapters/importers/ports/bundled-ports.ts";
import { apply } from "../src/adapters/derived/runtime.ts";
import { MemoryLookups } from "../src/adapters/derived/memory-lookups.ts";
import { loadShore } from "../src/adapters/importers/shore.ts";
import { newVesselDerivedState, type VesselDerivedState } from "../src/domain/derived/derive.ts";
import type { DerivedFix } from "../src/domain/derived/fix.ts";
import { fromPlane, toPlane } from "../src/domain/derived/geo.ts";
import { crossGate, type Gate } from "../src/domain/derived/gates.ts";
import { PortAreaIndex, portArea, type PortArea } from "../src/domain/derived/port-areas.ts";
import type { PortCall } from "../src/domain/derived/port-call-detector.ts";
import { countedTransits } from "../src/domain/derived/transit-counts.ts";
import { GateSet, type GateCrossing } from "../src/domain/derived/transit-detector.ts";
import { type Leg, sailVoyage, seeded, shuffled, withGap } from "../test/helpers/voyage.ts";
import { percentile } from "./percentile.ts";

const PER_SCENARIO = Number(process.argv[2] ?? 200);
const random = seeded(Number(process.argv[3] ?? 1));
const T0 = Date.UTC(2026, 10, 1);
const HOUR = 3_600_000;
const MIN = 60_000;

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const between = (a: number, b: number) => a + random() * (b - a);

/** A point `km` away from (lon, lat) at `bearing` degrees. */
function offset(lon: number, lat: number, km: number, bearing: number): [number, number] {
  const rad = (bearing * Math.PI) / 180;
  return fromPlane({ x: Math.sin(rad) * km, y: Math.cos(rad) * km }, lon, lat);
}

interface TrueCall {
  mmsi: number;
  unlocode: string;
  arrival: number;
  departure: number;
  waitingFrom: number | null;
}
interface TrueTransit {
  mmsi: number;
  gateId: string;
  time: number;
  direction: string;
}
interface Degradation {
  gap: boolean;
  drops: boolean;
  shuffle: boolean;
}

const places = (await loadBundledPorts(BUNDLED_DATASETS_DIR)).filter((p) => p.lat !== null && p.lon !== null);
const areas = places.map((p) => portArea({ unlocode: p.unlocode, name: p.name, lat: p.lat!, lon: p.lon!, harbourSize: p.wpi?.harborSize ?? null }));
const ports = new PortAreaIndex(areas);
const { waterways } = await loadWaterways(BUNDLED_DATASETS_DIR);
const gates = new GateSet(waterways.map((w) => w.gate));
/** Port calls and transits only here: the behaviour detectors read what ingest stored, held in memory. */
const context = (fixes: readonly DerivedFix[]) => {
  const lookups = new MemoryLookups();
  lookups.add(fixes);
  return { ports, gates, shore: loadShore(), minSilenceMs: 6 * 3_600_000, lookups };
};
// Ports the World Port Index sizes, whose own area no other port's area overlaps (a call's port is then unambiguous).
const callPorts = areas.filter((a) => a.geometry === "wpi_radius" && ports.nearest(a.lat, a.lon)?.area === a);

let nextMmsi = 200_000_000;
const fixes: DerivedFix[] = [];
const trueCalls: TrueCall[] = [];
const trueTransits: TrueTransit[] = [];
const degraded = new Map<number, Degradation>();

function degrade(vessel: DerivedFix[], d: Degradation): DerivedFix[] {
  let out = vessel;
  if (d.gap) {
    // A hole in coverage the vessel comes back from: it ends before the track does.
    const first = out[0]!.time;
    const last = out.at(-1)!.time;
    const from = between(first, first + (last - first) * 0.7);
    out = withGap(out, from, from + Math.min(between(0.5, 8) * HOUR, (last - from) * 0.8));
  }
  if (d.drops) out = out.filter(() => random() >= 0.1);
  if (d.shuffle) out = shuffled(out, 0.1, random);
  return out;
}

function addVessel(legs: Leg[], from: [number, number], start: number): { mmsi: number; v: ReturnType<typeof sailVoyage> } {
  const mmsi = nextMmsi++;
  const v = sailVoyage(legs, { mmsi, stationId: 1, start, from });
  const d = { gap: random() < 0.3, drops: random() < 0.3, shuffle: random() < 0.3 };
  degraded.set(mmsi, d);
  fixes.push(...degrade(v.fixes, d));
  // Truth of transits: where the continuous path meets any gate (a ship bound for Singapore
  // crosses the Singapore Strait gate too), counted by the 48-hour rule.
  const crossings: GateCrossing[] = [];
  for (let k = 1; k < v.path.length; k++) {
    const [t1, lon1, lat1] = v.path[k - 1]!;
    const [t2, lon2, lat2] = v.path[k]!;
    for (const g of gates.gates) {
      const c = crossGate(g, { lon: lon1, lat: lat1, time: t1 }, { lon: lon2, lat: lat2, time: t2 });
      if (c) crossings.push({ ...c, mmsi, stationId: 1, observed: true });
    }
  }
  for (const t of countedTransits(crossings)) trueTransits.push({ mmsi, gateId: t.gateId, time: t.time, direction: t.direction });
  return { mmsi, v };
}

/**
 * A point whose port, by the service's areas, is `p`: where ports crowd together a random
 * point near one is often inside a neighbour's area, and which port a berth belongs to is
 * a question of port geometry, not of the detector (counted apart below).
 */
let ambiguousDraws = 0;
let draws = 0;
function unambiguous(p: PortArea, draw: () => [number, number]): [number, number] | null {
  for (let i = 0; i < 20; i++) {
    const at = draw();
    draws++;
    if (ports.nearest(at[1], at[0])?.area === p) return at;
    ambiguousDraws++;
  }
  return null;
}

// Calls.
for (let i = 0; i < PER_SCENARIO; i++) {
  const p = pick(callPorts);
  const bearing = between(0, 360);
  const outside = offset(p.lon, p.lat, p.anchorageKm + 25, bearing);
  const berth = unambiguous(p, () => offset(p.lon, p.lat, between(0, 0.6) * p.radiusKm, between(0, 360))) ?? [p.lon, p.lat];
  const anchorage = unambiguous(p, () => offset(p.lon, p.lat, p.exitKm + between(1, p.anchorageKm - p.exitKm - 1), bearing));
  const wait = anchorage !== null && random() < 0.4;
  const legs: Leg[] = wait
    ? [{ sail: anchorage!, knots: 12 }, { stop: between(2, 20), navStatus: 1 }, { sail: berth, knots: 6 }, { stop: between(1.5, 48), port: p.unlocode }, { sail: outside, knots: 12 }]
    : [{ sail: berth, knots: between(8, 14) }, { stop: between(1.5, 48), port: p.unlocode }, { sail: outside, knots: 12 }];
  const { mmsi, v } = addVessel(legs, outside, T0 + between(0, 20) * 24 * HOUR);
  const berthStop = v.stops.find((s) => s.port === p.unlocode)!;
  trueCalls.push({ mmsi, unlocode: p.unlocode, arrival: berthStop.from, departure: berthStop.to, waitingFrom: wait ? v.stops[0]!.from : null });
}

// Confusers: anchoring outside, passing through, passing slowly.
for (let i = 0; i < PER_SCENARIO; i++) {
  const p = pick(callPorts);
  const bearing = between(0, 360);
  const far = offset(p.lon, p.lat, p.anchorageKm + 25, bearing);
  const kind = i % 3;
  if (kind === 0) {
    const anchorage = unambiguous(p, () => offset(p.lon, p.lat, p.exitKm + between(1.5, p.anchorageKm - p.exitKm - 1), between(0, 360)));
    if (!anchorage) continue;
    addVessel([{ sail: anchorage, knots: 12 }, { stop: between(2, 30), navStatus: 1 }, { sail: far, knots: 12 }], far, T0 + between(0, 20) * 24 * HOUR);
  } else {
    const across = offset(p.lon, p.lat, p.anchorageKm + 25, bearing + 180 + between(-20, 20));
    addVessel([{ sail: across, knots: kind === 1 ? between(8, 16) : 4 }], far, T0 + between(0, 20) * 24 * HOUR);
  }
}

// Transits: across each gate's middle, either way; every fourth turns back across within 48 h.
function gateAxis(g: Gate): { mid: [number, number]; normal: number } {
  const a = g.plane[0]!;
  const b = g.plane[g.plane.length - 1]!;
  const mid = fromPlane({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }, g.lon0, g.lat0);
  // Bearing of the line's left normal.
  const normal = (Math.atan2(-(b.y - a.y), b.x - a.x) * 180) / Math.PI;
  return { mid, normal: (90 - normal + 360) % 360 };
}
for (let i = 0; i < PER_SCENARIO; i++) {
  const g = gates.gates[i % gates.gates.length]!;
  const { mid } = gateAxis(g);
  const a = g.plane[0]!;
  const b = g.plane[g.plane.length - 1]!;
  const len = Math.hypot(b.x - a.x, b.y - a.y);
  const nx = -(b.y - a.y) / len;
  const ny = (b.x - a.x) / len;
  const m = toPlane(mid[0], mid[1], g.lon0, g.lat0);
  const side = random() < 0.5 ? 1 : -1;
  const start = fromPlane({ x: m.x + nx * 25 * side, y: m.y + ny * 25 * side }, g.lon0, g.lat0);
  const end = fromPlane({ x: m.x - nx * 25 * side, y: m.y - ny * 25 * side }, g.lon0, g.lat0);
  const uTurn = i % 4 === 3;
  const legs: Leg[] = uTurn ? [{ sail: end, knots: between(8, 18) }, { stop: between(1, 10), navStatus: 1 }, { sail: start, knots: 12 }] : [{ sail: end, knots: between(8, 18) }];
  addVessel(legs, start, T0 + between(0, 20) * 24 * HOUR);
}

// Live: fixes in receive order (vessels interleaved by time, late ones where degraded), pages of 5,000.
fixes.sort((x, y) => x.time - y.time);
const states = new Map<string, VesselDerivedState>();
const liveContext = context(fixes);
const calls = new Map<string, PortCall>();
const crossings: GateCrossing[] = [];
const started = performance.now();
for (let at = 0; at < fixes.length; at += 5000) {
  const r = await apply(fixes.slice(at, at + 5000), async (keys) => new Map(keys.map((k) => [`${k.stationId}:${k.mmsi}`, states.get(`${k.stationId}:${k.mmsi}`) ?? newVesselDerivedState()])), liveContext);
  for (const s of r.commit.states) states.set(`${s.stationId}:${s.mmsi}`, s.state);
  for (const c of r.commit.calls) calls.set(c.id, c);
  crossings.push(...r.commit.crossings);
}
const elapsed = performance.now() - started;

function report(name: string, truth: number, detected: number, matched: number) {
  const precision = detected === 0 ? 1 : matched / detected;
  const recall = truth === 0 ? 1 : matched / truth;
  console.log(`${name}: truth ${truth}, detected ${detected}, matched ${matched}; precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}`);
}
const minutes = (xs: number[]) => (xs.length === 0 ? "n/a" : `median ${percentile(xs, 50).toFixed(1)}, p90 ${percentile(xs, 90).toFixed(1)}, max ${Math.max(...xs).toFixed(1)} min`);

// Calls: same vessel and port, arrivals within 6 h.
const detectedCalls = [...calls.values()];
const used = new Set<string>();
const arrivalErr: number[] = [];
const departureErr: number[] = [];
const waitingErr: number[] = [];
let matchedCalls = 0;
for (const t of trueCalls) {
  const m = detectedCalls.find((c) => !used.has(c.id) && c.mmsi === t.mmsi && c.unlocode === t.unlocode && Math.abs(c.arrival - t.arrival) <= 6 * HOUR);
  if (!m) continue;
  used.add(m.id);
  matchedCalls++;
  arrivalErr.push(Math.abs(m.arrival - t.arrival) / MIN);
  if (m.departure !== null) departureErr.push(Math.abs(m.departure - t.departure) / MIN);
  if (t.waitingFrom !== null && m.waitingFrom !== null) waitingErr.push(Math.abs(m.waitingFrom - t.waitingFrom) / MIN);
}
console.log(`${fixes.length} fixes of ${nextMmsi - 200_000_000} simulated vessels (${[...degraded.values()].filter((d) => d.gap || d.drops || d.shuffle).length} degraded), ${ports.size} port areas, ${gates.gates.length} gates; derived in ${elapsed.toFixed(0)} ms (${Math.round(fixes.length / (elapsed / 1000))} fixes/s)`);
console.log(`  (points drawn near a port that fell in a neighbour's area instead, and were drawn again: ${ambiguousDraws} of ${draws})`);
report("port calls", trueCalls.length, detectedCalls.length, matchedCalls);
console.log(`  arrival error: ${minutes(arrivalErr)}; departure error: ${minutes(departureErr)} (${departureErr.length} with a departure)`);
console.log(`  waiting start error: ${minutes(waitingErr)} (${waitingErr.length} of ${trueCalls.filter((c) => c.waitingFrom !== null).length} waits reported)`);
const falseCalls = detectedCalls.filter((c) => !used.has(c.id));
console.log(`  unmatched detections: ${falseCalls.length}${falseCalls.length ? ` (e.g. ${falseCalls.slice(0, 3).map((c) => `${c.mmsi} ${c.unlocode}`).join(", ")})` : ""}`);

// Transits: counted (48 h rule) vs truth; same vessel and gate within 1 h.
const counted = countedTransits(crossings);
const usedT = new Set<number>();
const timeErr: number[] = [];
let matchedT = 0;
let directionRight = 0;
for (const t of trueTransits) {
  const i = counted.findIndex((c, k) => !usedT.has(k) && c.mmsi === t.mmsi && c.gateId === t.gateId && Math.abs(c.time - t.time) <= HOUR);
  if (i < 0) continue;
  usedT.add(i);
  matchedT++;
  if (counted[i]!.direction === t.direction) directionRight++;
  timeErr.push(Math.abs(counted[i]!.time - t.time) / MIN);
}
report("transits", trueTransits.length, counted.length, matchedT);
console.log(`  direction right: ${directionRight} of ${matchedT}; crossing time error: ${minutes(timeErr)}; unobserved crossings: ${crossings.filter((c) => !c.observed).length}`);

// The real captures: what the detectors find in them.
function realCsv(file: string, columns: { mmsi: string; time: string; lat: string; lon: string; sog: string; nav?: string }, time: (v: string) => number): DerivedFix[] {
  const text = readFileSync(join(import.meta.dirname, "../../shared/data/ais_positions", file), "utf8").split("\n");
  const head = text[0]!.replace(/^# /, "").split(",");
  const at = (name: string) => head.indexOf(name);
  const out: DerivedFix[] = [];
  for (const line of text.slice(1)) {
    const f = line.split(",");
    const mmsi = Number(f[at(columns.mmsi)]);
    const lat = Number(f[at(columns.lat)]);
    const lon = Number(f[at(columns.lon)]);
    const t = time(f[at(columns.time)] ?? "");
    if (!mmsi || !Number.isFinite(lat) || !Number.isFinite(lon) || !Number.isFinite(t)) continue;
    const sog = Number(f[at(columns.sog)]);
    const nav = columns.nav ? Number(f[at(columns.nav)]) : NaN;
    out.push({ mmsi, stationId: 1, time: t, lat, lon, sog: Number.isFinite(sog) ? sog : null, navStatus: Number.isFinite(nav) ? nav : null });
  }
  return out.sort((a, b) => a.time - b.time);
}
async function realRun(name: string, real: DerivedFix[]) {
  const st = new Map<string, VesselDerivedState>();
  const r = await apply(real, async (keys) => new Map(keys.map((k) => [`${k.stationId}:${k.mmsi}`, st.get(`${k.stationId}:${k.mmsi}`) ?? newVesselDerivedState()])), context(real));
  const inArea = r.commit.states.filter((s) => s.state.calls.port !== null);
  const stopped = inArea.filter((s) => s.state.calls.stop !== null);
  const byGate = new Map<string, number>();
  for (const c of r.commit.crossings) byGate.set(c.gateId, (byGate.get(c.gateId) ?? 0) + 1);
  const realCalls = new Map(r.commit.calls.map((c) => [c.id, c]));
  const overGap = [...realCalls.values()].filter((c) => c.maxGapMinutes >= 240).length;
  console.log(
    `real ${name}: ${real.length} fixes of ${r.commit.states.length} vessels; calls ${realCalls.size} (${overGap} resting on a silence of 4 h or more in port), vessels inside a port area at the end ${inArea.length} (${stopped.length} stopped), ` +
      `gate crossings ${r.commit.crossings.length}${byGate.size ? ` (${[...byGate].map(([g, n]) => `${g} ${n}`).join(", ")})` : ""}`,
  );
  // The behaviour events too (bench/events-accuracy.ts measures them on simulated truth).
  const events = [...new Map(r.commit.events.map((e) => [e.id, e])).values()];
  const lying = r.commit.states.filter((s) => s.state.behaviour?.episode).length;
  const last = new Map<number, number>();
  let silences = 0;
  for (const f of [...real].sort((a, b) => a.time - b.time)) {
    const before = last.get(f.mmsi);
    if (before !== undefined && f.time - before >= 6 * HOUR) silences++;
    last.set(f.mmsi, f.time);
  }
  console.log(`  events: ${events.length}${events.length ? ` (${events.map((e) => `${e.type} ${e.mmsi} ${new Date(e.start).toISOString()}`).join("; ")})` : ""}; silences of 6 h or more judged ${silences}; vessels lying under 2 kn at the end ${lying}`);
}
try {
  await realRun("MarineCadastre 2022-01-03 (US, 25 min)", realCsv("marinecadastre_AIS_2022-01-03_first99999rows.csv", { mmsi: "MMSI", time: "BaseDateTime", lat: "LAT", lon: "LON", sog: "SOG", nav: "Status" }, (v) => Date.parse(`${v}Z`)));
  await realRun("Digitraffic 2025-12-11 (Baltic, one snapshot)", realCsv("digitraffic_baltic_snapshot_2025-12-11.csv", { mmsi: "mmsi", time: "collected_at", lat: "latitude", lon: "longitude", sog: "sog", nav: "nav_stat" }, (v) => Date.parse(v)));
  await realRun("DMA 2018-06-01 (Denmark, one instant)", realCsv("dma_aisdk_2018-06-01_sample.csv", { mmsi: "MMSI", time: "Timestamp", lat: "Latitude", lon: "Longitude", sog: "SOG" }, (v) => {
    const m = /^(\d\d)\/(\d\d)\/(\d{4}) (\d\d):(\d\d):(\d\d)$/.exec(v);
    return m ? Date.UTC(+m[3]!, +m[2]! - 1, +m[1]!, +m[4]!, +m[5]!, +m[6]!) : NaN;
  }));
} catch (e) {
  console.log(`real captures not read: ${(e as Error).message}`);
}
if (process.env.DEBUG_ACCURACY) {
  for (const c of falseCalls.slice(0, 8)) {
    const t = trueCalls.find((x) => x.mmsi === c.mmsi);
    console.log("false", c.mmsi, c.unlocode, new Date(c.arrival).toISOString(), "truth", t ? `${t.unlocode} ${new Date(t.arrival).toISOString()}` : "none (confuser)", degraded.get(c.mmsi), c.positions, c.maxGapMinutes);
  }
  const missed = trueCalls.filter((t) => ![...used].some((id) => calls.get(id)!.mmsi === t.mmsi));
  for (const t of missed.slice(0, 8)) {
    const mine = detectedCalls.filter((c) => c.mmsi === t.mmsi);
    console.log("missed", t.mmsi, t.unlocode, new Date(t.arrival).toISOString(), ((t.departure - t.arrival) / HOUR).toFixed(1), "h", degraded.get(t.mmsi), "got", mine.map((c) => `${c.unlocode} ${new Date(c.arrival).toISOString()}`));
  }
  const missedT = trueTransits.filter((t) => !counted.some((c) => c.mmsi === t.mmsi && c.gateId === t.gateId));
  for (const t of missedT.slice(0, 10)) console.log("missed transit", t.mmsi, t.gateId, degraded.get(t.mmsi), crossings.filter((c) => c.mmsi === t.mmsi).map((c) => `${c.gateId} ${c.observed}`));
}
if (process.env.DEBUG_ACCURACY) {
  const extra = counted.filter((c, k) => !usedT.has(k));
  for (const c of extra.slice(0, 6)) {
    const truth = trueTransits.filter((t) => t.mmsi === c.mmsi);
    console.log("false transit", c.mmsi, c.gateId, c.direction, new Date(c.time).toISOString(), "truth", truth.map((t) => `${t.gateId} ${new Date(t.time).toISOString()}`), degraded.get(c.mmsi));
  }
}
