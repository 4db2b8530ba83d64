import { apply } from "../adapters/derived/runtime.ts";
import type { ServiceCore } from "../compose/services.ts";
import type { DerivedCommit } from "../interfaces/derived.ts";
import { parseIsoTime } from "../domain/tracks/window.ts";
import { newVesselDerivedState } from "../domain/derived/derive.ts";
import { GateSet } from "../domain/derived/transit-detector.ts";
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
}

/**
 * Recomputes port calls and gate crossings from stored positions: each (station, vessel)
 * from a fresh state, its fixes in time order, through the same code live derivation
 * runs (adapters/derived/runtime.ts `apply`), so fixes that arrived in order give the
 * same facts as live. Facts in [from, to) are replaced. Without `to`, the detectors'
 * saved states are replaced too and live derivation continues from them; with `to`, the
 * live states are left alone. Alerts are not raised again.
 */
export async function recomputeDerived(core: ServiceCore, window: { from?: number; to?: number }): Promise<RecomputeResult> {
  const store = core.services.derived;
  const from = window.from ?? 0;
  const to = window.to ?? core.services.clock.now() + 1;
  const keepStates = window.to !== undefined;
  await core.derived?.idle();
  const ports = core.derived ? await core.derived.ports() : null;
  if (!ports) throw new CliError("derivation is off (DERIVED_FACTS=off): nothing to recompute");
  const gates = new GateSet(core.services.waterways.waterways.map((w) => w.gate));
  await store.clear(from, to, !keepStates);
  const vessels = await store.vesselsHeard(from, to);
  const result: RecomputeResult = { vessels: vessels.length, positions: 0, calls: 0, crossings: 0 };
  for (let at = 0; at < vessels.length; at += VESSELS_PER_COMMIT) {
    const commit: Omit<DerivedCommit, "alerts"> & { alerts: [] } = { first: 0, last: 0, count: 0, states: [], calls: [], crossings: [], coverage: [], events: [], alerts: [] };
    for (const v of vessels.slice(at, at + VESSELS_PER_COMMIT)) {
      const fixes = await core.services.positions.track(v.mmsi, from, to, [v.stationId]);
      result.positions += fixes.length;
      const applied = await apply(fixes, async () => new Map([[`${v.stationId}:${v.mmsi}`, newVesselDerivedState()]]), ports, gates);
      commit.calls.push(...applied.commit.calls);
      commit.crossings.push(...applied.commit.crossings);
      commit.coverage.push(...applied.commit.coverage);
      commit.events.push(...applied.commit.events);
      if (!keepStates) commit.states.push(...applied.commit.states);
    }
    result.calls += new Set(commit.calls.map((c) => c.id)).size;
    result.crossings += commit.crossings.length;
    await store.commit(commit, core.services.clock.now());
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

/** `mds derive port-calls [--from <t>] [--to <t>]`: recomputes port calls and chokepoint crossings over stored history. */
export async function deriveCommand(argv: string[], io: CliIo): Promise<void> {
  const { values, rest } = parseCommandArgs("derive port-calls", argv, { from: { type: "string" }, to: { type: "string" } });
  if (rest.length > 0) throw new CliError(`mds derive port-calls: unexpected argument "${rest[0]}"`);
  const from = timeOption(values, "from");
  const to = timeOption(values, "to");
  if (from !== undefined && to !== undefined && from >= to) throw new CliError("--from must be before --to");
  await withServices(io, async (s) => {
    const r = await recomputeDerived(s, { from, to });
    io.out(values.json ? JSON.stringify(r) : `recomputed ${r.calls} port calls and ${r.crossings} gate crossings from ${r.positions} positions of ${r.vessels} vessels`);
  });
}
