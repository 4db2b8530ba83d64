/**
 * What derivation costs ingest: positions per second through the ingest pipeline (submit,
 * batch, store, acknowledge) with DERIVED_FACTS=off and =on, in alternating rounds of one
 * run, each round on a fresh copy of one store holding the bundled ports (so port areas
 * are real). With derivation on, a round ends only when the detectors have drained the
 * queue too: "derived/s" is positions stored and derived per second, so it says whether
 * derivation keeps up with ingest, not only what it adds to the write.
 *
 *   npx node bench/derived-cost.ts [positions per round, default 100000] [rounds per mode, default 3]
 *
 * Traffic: 1,000 vessels reporting every minute (simulated time) on tracks across the Dover
 * Strait gate, into the Rotterdam and Dover port areas (where they lie for the rest of the
 * run) and on open sea.
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importDataset } from "../src/adapters/importers/datasets.ts";
import { encodePositionA, toSentences } from "../src/domain/ais/encode.ts";
import { parseConfig } from "../src/config.ts";
import { createService, PROJECT_ROOT } from "../src/main.ts";
import { percentile } from "./percentile.ts";

const TOTAL = Number(process.argv[2] ?? 100_000);
const ROUNDS = Number(process.argv[3] ?? 3);
const VESSELS = 1_000;
const T0 = Date.parse("2026-11-20T00:00:00Z");
const CHUNK = 1_000;

function traffic(firstMmsi: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < TOTAL; i++) {
    const v = i % VESSELS;
    const k = Math.floor(i / VESSELS);
    let lat: number;
    let lon: number;
    let sog = 12;
    let navStatus = 0;
    if (v % 4 === 0) {
      // Lying in Rotterdam or Dover (the second half of the run), sailing in before.
      const [plat, plon] = v % 8 === 0 ? [51.9, 4.48] : [51.117, 1.333];
      const inPort = k > 1;
      lat = plat + (inPort ? 0 : 0.05 - k * 0.01) + (v % 50) * 0.0005;
      lon = plon + (inPort ? 0 : -0.3 + k * 0.05);
      if (inPort) {
        sog = 0;
        navStatus = 5;
      }
    } else if (v % 4 === 1) {
      // South-west down the Channel, 12 kn, across the Dover gate.
      lat = 51.14 + (v % 40) * 0.002 - k * 0.00236;
      lon = 1.7 + (v % 30) * 0.003 - k * 0.00374;
    } else {
      // Open sea, away from ports and gates.
      lat = 56 + (v % 100) / 20 + k * 0.0005;
      lon = 3 + Math.floor(v / 100) / 20;
    }
    const p = encodePositionA({ mmsi: firstMmsi + v, lat, lon, sog, cog: 225, heading: 225, navStatus, second: k % 60 });
    out.push(toSentences(p, { time: T0 + k * 60_000 })[0]!);
  }
  return out;
}

const w = (s: string) => process.stdout.write(`${s}\n`);
const templateDir = mkdtempSync(join(tmpdir(), "mds-bench-derived-"));
{
  const s = await createService(parseConfig({ DATA_DIR: templateDir, LOG_LEVEL: "silent" }, PROJECT_ROOT));
  await importDataset(s, "ports", undefined, { progress: false });
  await s.close();
}

const results: Record<"off" | "on", { ingest: number[]; derived: number[] }> = { off: { ingest: [], derived: [] }, on: { ingest: [], derived: [] } };
w(`node ${process.version}; ${TOTAL.toLocaleString("en")} positions of ${VESSELS.toLocaleString("en")} vessels per round, ${ROUNDS} rounds per mode, alternating; SQLite`);
for (let round = 0; round < ROUNDS * 2; round++) {
  const mode = round % 2 === 0 ? "off" : "on";
  const dir = mkdtempSync(join(tmpdir(), "mds-bench-derived-round-"));
  copyFileSync(join(templateDir, "mds.sqlite"), join(dir, "mds.sqlite"));
  const service = await createService(parseConfig({ DATA_DIR: dir, LOG_LEVEL: "silent", DERIVED_FACTS: mode }, PROJECT_ROOT));
  // Port areas are read once at start, before any position arrives.
  await service.derived?.ports();
  const account = await service.services.accounts.createAccount({ name: "bench", webPlan: "pro", apiPlan: null });
  const { station } = await service.services.stations.createStation(account.id, "bench");
  const st = (await service.ingest.directory.byId(station.id))!;
  const lines = traffic(230_000_000 + round * 10_000);
  const started = performance.now();
  const pending: Promise<unknown>[] = [];
  for (let at = 0; at < lines.length; at += CHUNK) {
    const r = service.ingest.pipeline.submit(st, lines.slice(at, at + CHUNK), { source: "bench", transport: "tcp" });
    pending.push(r.stored);
    // Let the pipeline write as a connection's reads would arrive.
    if ((at / CHUNK) % 10 === 9) await new Promise((resolve) => setImmediate(resolve));
  }
  await service.ingest.pipeline.flush();
  await Promise.all(pending);
  const stored = performance.now();
  await service.derived?.idle();
  await service.derived?.poll();
  const derived = performance.now();
  const count = await service.services.positions.countPositions(station.id);
  const calls = Number((await service.store.db.selectFrom("port_calls").select((eb) => eb.fn.countAll().as("n")).executeTakeFirst())?.n ?? 0);
  const crossings = Number((await service.store.db.selectFrom("gate_crossings").select((eb) => eb.fn.countAll().as("n")).executeTakeFirst())?.n ?? 0);
  const queued = Number((await service.store.db.selectFrom("derived_feed").select((eb) => eb.fn.countAll().as("n")).executeTakeFirst())?.n ?? 0);
  results[mode].ingest.push(count / ((stored - started) / 1000));
  results[mode].derived.push(count / ((derived - started) / 1000));
  w(
    `round ${round + 1} derivation ${mode}: ${count.toLocaleString("en")} stored, ${Math.round(count / ((stored - started) / 1000)).toLocaleString("en")} stored/s` +
      (mode === "on" ? `, ${Math.round(count / ((derived - started) / 1000)).toLocaleString("en")} stored and derived/s (${calls} calls, ${crossings} crossings, ${queued} left queued)` : ""),
  );
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}
rmSync(templateDir, { recursive: true, force: true });
const med = (xs: number[]) => percentile(xs, 50);
w("");
w("| mode | positions stored/s (median) | positions stored and derived/s (median) |");
w("|---|---|---|");
w(`| derivation off | ${Math.round(med(results.off.ingest)).toLocaleString("en")} | - |`);
w(`| derivation on | ${Math.round(med(results.on.ingest)).toLocaleString("en")} | ${Math.round(med(results.on.derived)).toLocaleString("en")} |`);
w(`| on / off | ${((med(results.on.ingest) / med(results.off.ingest)) * 100).toFixed(1)}% | ${((med(results.on.derived) / med(results.off.ingest)) * 100).toFixed(1)}% |`);
