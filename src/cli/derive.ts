import { apply, emptyDerivedCommit } from "../adapters/derived/runtime.ts";
import { judgeOpenGaps } from "../adapters/derived/open-gaps.ts";
import type { ServiceCore } from "../compose/services.ts";
import { parseIsoTime } from "../domain/tracks/window.ts";
import { newVesselDerivedState } from "../domain/derived/derive.ts";
import { heardCell } from "../domain/derived/gap-detector.ts";
import { parseCommandArgs, str } from "./arguments.ts";
import { CliError } from "./cli-error.ts";
import { withServices } from "./context.ts";
import type { CliIo } from "./io.ts";

/** Vessels whose facts are written in one transaction. */
const VESSELS_PER_COMMIT = 200;

export interface RecomputeResult {
  vessels: number;
  positions: number;
  calls: number;
  crossings: number;
  /** Distinct behaviour events written (an encounter's two rows count two). */
  events: number;
}

/**
 * Recomputes port calls, gate crossings and vessel events from stored positions: each (station, vessel)
 * from a fresh state, its fixes in time order, through the same code live derivation
 * runs (adapters/derived/runtime.ts `apply`), so fixes that arrived in order give the
 * same facts as live. Facts in [from, to) are replaced. Without `to`, the detectors'
 * saved states are replaced too and live derivation continues from them; with `to`, the
 * live states are left alone. Alerts are not raised again.
 */
export async function recomputeDerived(core: ServiceCore, window: { from?: number; to?: number }, vesselsPerCommit = VESSELS_PER_COMMIT): Promise<RecomputeResult> {
  const store = core.services.derived;
  const from = window.from ?? 0;
  const to = window.to ?? core.services.clock.now() + 1;
  const keepStates = window.to !== undefined;
  await core.derived?.idle();
  const ports = core.derived ? await core.derived.ports() : null;
  if (!core.derived || !ports) throw new CliError("derivation is off (DERIVED_FACTS=off): nothing to recompute");
  const context = core.derived.context(ports);
  await store.clear(from, to, !keepStates);
  const vessels = await store.vesselsHeard(from, to);
  const result: RecomputeResult = { vessels: vessels.length, positions: 0, calls: 0, crossings: 0, events: 0 };
  const batches = [];
  for (let at = 0; at < vessels.length; at += vesselsPerCommit) batches.push(vessels.slice(at, at + vesselsPerCommit));
  const tracks = (batch: typeof vessels) => Promise.all(batch.map((v) => core.services.positions.track(v.mmsi, from, to, [v.stationId])));
  // First what every station heard, where and when: an AIS gap is judged against all of it,
  // whichever vessels come later in the walk.
  for (const batch of batches) {
    const commit = emptyDerivedCommit();
    for (const track of await tracks(batch)) for (const f of track) commit.heard.push({ stationId: f.stationId, hour: Math.floor(f.time / 3_600_000) * 3_600_000, cell: heardCell(f.lat, f.lon) });
    await store.commit(commit, core.services.clock.now());
  }
  for (const batch of batches) {
    const fixes = (await tracks(batch)).flat();
    result.positions += fixes.length;
    // Each vessel from a fresh state; the batch's vessels in one pass, so their episodes meet.
    const applied = await apply(fixes, async (keys) => new Map(keys.map((k) => [`${k.stationId}:${k.mmsi}`, newVesselDerivedState()])), context);
    const { basis: _basis, ...facts } = applied.commit;
    const commit = { ...emptyDerivedCommit(), ...facts, states: keepStates ? [] : facts.states };
    result.calls += new Set(commit.calls.map((c) => c.id)).size;
    result.crossings += commit.crossings.length;
    result.events += new Set(commit.events.map((e) => e.id)).size;
    await store.commit(commit, core.services.clock.now());
  }
  // Up to now, the gaps still open are judged as live derivation's sweep judges them.
  if (!keepStates) {
    const now = core.services.clock.now();
    const open = await judgeOpenGaps(store, now, context.minSilenceMs);
    result.events += open.events.length;
    await store.commit({ ...emptyDerivedCommit(), events: open.events }, now);
  }
  return result;
}

function timeOption(values: Record<string, string | boolean | undefined>, name: string): number | undefined {
  const v = str(values, name);
  if (v === undefined) return undefined;
  const t = parseIsoTime(v);
  if (t === null) throw new CliError(`--${name}: "${v}" is not an ISO 8601 timestamp with a time zone (e.g. 2026-11-19T06:00:00Z) or a date (e.g. 2026-11-19)`);
  return t;
}

/**
 * `mds derive port-calls|events [--from <t>] [--to <t>]`: recomputes every derived fact over
 * stored history (port calls, chokepoint crossings and vessel events come from one walk, so
 * either name recomputes all of them).
 */
export const deriveCommand = (what: "port-calls" | "events") => async (argv: string[], io: CliIo): Promise<void> => {
  const { values, rest } = parseCommandArgs(`derive ${what}`, argv, { from: { type: "string" }, to: { type: "string" } });
  if (rest.length > 0) throw new CliError(`mds derive ${what}: unexpected argument "${rest[0]}"`);
  const from = timeOption(values, "from");
  const to = timeOption(values, "to");
  if (from !== undefined && to !== undefined && from >= to) throw new CliError("--from must be before --to");
  await withServices(io, async (s) => {
    const r = await recomputeDerived(s, { from, to });
    io.out(values.json ? JSON.stringify(r) : `recomputed ${r.calls} port calls, ${r.crossings} gate crossings and ${r.events} vessel events from ${r.positions} positions of ${r.vessels} vessels`);
  });
};
