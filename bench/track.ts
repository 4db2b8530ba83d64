/**
 * GET /api/v1/vessels/{id}/track through the full pipeline, side by side in one run with
 * the bare storage query that returns the same buckets.
 *
 *   npx node bench/track.ts [requests-per-round] [rounds]
 *
 * The vessel reports every 10 s for 7 days (60,480 fixes) among a million fixes of 1,000
 * other vessels, all from one shared station. Requests: the 7-day track (`hours=168`, 1,009
 * buckets of 10 minutes, 7 credits) and the last day (`hours=24`, 1,441 buckets of a minute;
 * one more than the span holds, because bucket edges are aligned and the window's are not).
 * The pipeline is in-process through Fastify's inject(): routing, key, rate limit, input
 * rules, credit charge, registry lookup, the bucket query, the rights filter, envelope,
 * JSON; no sockets. The baseline is the store's own read of the same buckets
 * (`lastPerBucket`: the bucket statement, on PostgreSQL two halves at once, and decoding).
 * Requests run one at a time, the cases taking turns. SQLite always, PostgreSQL too
 * when DATABASE_URL is set (a scratch database, dropped at the end).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { parseConfig } from "../src/config.ts";
import { bucketMsFor } from "../src/domain/tracks/window.ts";
import { createService, PROJECT_ROOT, type Service } from "../src/main.ts";
import type { PositionFix } from "../src/interfaces/positions.ts";
import { percentile } from "./percentile.ts";
import { scratchDatabase } from "./scratch-database.ts";

const perRound = Number(process.argv[2] ?? 100);
const rounds = Number(process.argv[3] ?? 5);
const NOW = Date.now();
const DAY = 86_400_000;
const MMSI = 244_660_001;
const IMO = 9_074_729;


async function write(service: Service, fixes: PositionFix[]): Promise<void> {
  for (let at = 0; at < fixes.length; at += 5_000) {
    const chunk = fixes.slice(at, at + 5_000);
    const latest = new Map<number, PositionFix>();
    for (const f of chunk) if ((latest.get(f.mmsi)?.time ?? -1) < f.time) latest.set(f.mmsi, f);
    await service.services.positions.writeBatch({ positions: chunk, latest: [...latest.values()], identities: [], counters: [], heard: [] });
  }
}

async function load(service: Service, stationId: number): Promise<number> {
  const started = performance.now();
  const fix = (mmsi: number, time: number): PositionFix => ({ mmsi, time, stationId, lat: 55 + (time % 1e7) / 1e8, lon: 11 + (time % 1e6) / 1e7, sog: 12.5, cog: 88, heading: 88, navStatus: 0 });
  const target: PositionFix[] = [];
  for (let t = NOW - 7 * DAY; t < NOW; t += 10_000) target.push(fix(MMSI, t));
  await write(service, target);
  // A million others: 1,000 vessels, 1,000 fixes each over the same week.
  for (let v = 0; v < 1_000; v += 50) {
    const batch: PositionFix[] = [];
    for (let k = v; k < v + 50; k++) for (let i = 0; i < 1_000; i++) batch.push(fix(200_000_000 + k, NOW - 7 * DAY + i * 604_800 + k));
    await write(service, batch);
  }
  await service.services.positions.writeBatch({ positions: [], latest: [], identities: [{ stationId, mmsi: MMSI, imo: IMO, name: "BENCH RUNNER", updatedAt: NOW }], counters: [], heard: [] });
  // As ingest does when it stores a static report: the broadcast IMO joins the vessel registry.
  await service.services.vessels.linkIdentities([{ stationId, mmsi: MMSI }]);
  await service.services.vessels.refresh(NOW);
  // The table as autovacuum keeps it on a database that filled up over time: statistics, and the
  // visibility map that lets the probes read the index alone (autovacuum vacuums insert-only
  // tables since PostgreSQL 13; this machine's server runs with autovacuum off).
  if (service.store.engine === "postgres") await sql`VACUUM (ANALYZE) positions`.execute(service.store.db);
  return performance.now() - started;
}

async function benchEngine(engine: "sqlite" | "postgres"): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), "mds-bench-track-"));
  const env: Record<string, string | undefined> = { ...process.env, LOG_LEVEL: "silent", DATA_DIR: dataDir };
  delete env.ARCHIVE_DATABASE_URL;
  if (engine === "sqlite") delete env.DATABASE_URL;
  const scratch = engine === "postgres" ? await scratchDatabase(process.env.DATABASE_URL!) : null;
  if (scratch) env.DATABASE_URL = scratch.url;
  const service = await createService(parseConfig(env, PROJECT_ROOT), { clock: { now: () => NOW } });
  try {
    const owner = await service.services.accounts.createAccount({ name: "station owner", webPlan: "pro", apiPlan: null });
    const { station } = await service.services.stations.createStation(owner.id, "shared mast");
    // Through the service, so its cached list of shared stations learns of it (a direct UPDATE left the track a 404).
    await service.services.stations.updateStation(station.id, { shared: true, redistribution: true, commercial: true });
    const loadMs = await load(service, station.id);
    console.warn(`${engine}: 1,060,480 fixes written in ${(loadMs / 1000).toFixed(1)} s`);

    const keys: string[] = [];
    for (let i = 0; i < 40; i++) {
      const a = await service.services.accounts.createAccount({ name: `bench ${i}`, webPlan: null, apiPlan: "scale" });
      keys.push((await service.services.accounts.createKey(a.id)).key);
    }
    let k = 0;
    const pipeline = async (hours: number) => {
      const started = performance.now();
      const r = await service.app.inject({ method: "GET", url: `/api/v1/vessels/${IMO}/track?hours=${hours}`, headers: { authorization: `Bearer ${keys[k++ % keys.length]}` } });
      const ms = performance.now() - started;
      if (r.statusCode !== 200) throw new Error(`track answered ${r.statusCode}: ${r.body.slice(0, 200)}`);
      return { ms, count: (JSON.parse(r.body) as { count: number }).count };
    };
    const bare = async (hours: number) => {
      const window = { from: NOW - hours * 3_600_000, to: NOW };
      const started = performance.now();
      // The store's own read of the buckets, decoded into points; nothing of the pipeline around it.
      const points = await service.tracks.lastPerBucket({ mmsi: MMSI, ...window, bucketMs: bucketMsFor(window), stationIds: [station.id] });
      return { ms: performance.now() - started, count: points.length };
    };
    const cases = [
      { name: "track hours=168, full pipeline", run: () => pipeline(168) },
      { name: "bare bucket query, 168 h", run: () => bare(168) },
      { name: "track hours=24, full pipeline", run: () => pipeline(24) },
      { name: "bare bucket query, 24 h", run: () => bare(24) },
    ];
    for (const c of cases) for (let i = 0; i < 30; i++) await c.run(); // warm-up
    const times = cases.map(() => [] as number[]);
    const counts = cases.map(() => 0);
    // The cases take turns request by request, so drift in the machine's load hits them alike.
    for (let r = 0; r < rounds; r++) {
      for (let n = 0; n < perRound; n++) {
        for (const [i, c] of cases.entries()) {
          const x = await c.run();
          times[i]!.push(x.ms);
          counts[i] = x.count;
        }
      }
    }
    return cases.map((c, i) => {
      const p50 = percentile(times[i]!, 50);
      const base = i % 2 === 0 ? percentile(times[i + 1]!, 50) : p50;
      return `| ${engine} | ${c.name} | ${counts[i]} | ${p50.toFixed(2)} | ${percentile(times[i]!, 90).toFixed(2)} | ${percentile(times[i]!, 99).toFixed(2)} | ${i % 2 === 0 ? `${(p50 / base).toFixed(2)}x` : ""} |`;
    });
  } finally {
    await service.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const lines: string[] = [];
for (const engine of process.env.DATABASE_URL ? (["sqlite", "postgres"] as const) : (["sqlite"] as const)) lines.push(...(await benchEngine(engine)));
console.warn(`${rounds} rounds of ${perRound} sequential requests per case, in-process (inject), times in ms`);
process.stdout.write(["| engine | request | points | p50 ms | p90 ms | p99 ms | pipeline / bare (p50) |", "|---|---|---|---|---|---|---|", ...lines].join("\n") + "\n");
