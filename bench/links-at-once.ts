// Time from a type 5 report being acknowledged to `GET /api/v1/vessels/{imo}` answering 200:
// linking driven by the stored report (now) side by side with the periodic registry refresh
// alone (before: every 60 s, what `serve` still runs as a safety net), on SQLite and (when
// DATABASE_URL is set) PostgreSQL, in one run.
//
//   npx node bench/links-at-once.ts [--reports 200] [--baseline-reports 30] [--refresh-ms 60000]
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx node bench/links-at-once.ts
//
// The service is the real one in this process (createService, no bundled data). Each report
// is a new ship (MMSI and a valid IMO) posted to /ingest/nmea, whose answer comes once the
// report is stored; the vessel page is then asked every 5 ms (event-driven) or 100 ms
// (baseline) until it answers 200. Baseline reports are spread evenly over one refresh
// period, so their wait is spread over it too.

import { encodeStatic, toSentences } from "../src/domain/ais/encode.ts";
import type { Service } from "../src/main.ts";
import { percentile } from "./percentile.ts";
import { scratchService } from "./scratch-database.ts";

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? (process.argv[i + 1] as string) : dflt;
}

/** The IMO with this six-digit stem and its check digit. */
function imoOf(stem: number): number {
  const s = String(stem).padStart(6, "0");
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(s[i]) * (7 - i);
  return stem * 10 + (sum % 10);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Posts one type 5 and returns the milliseconds from its acknowledgement to the vessel page answering 200. */
async function oneShip(s: Service, secret: string, keys: () => string, n: number, pollMs: number): Promise<number> {
  const imo = imoOf(400_000 + n);
  const lines = toSentences(encodeStatic({ mmsi: 257_000_000 + n, imo, callsign: "", shipname: `BENCH ${n}`, shipType: 70, toBow: 0, toStern: 0, toPort: 0, toStarboard: 0, destination: "" }), { sequenceId: n % 10 });
  const r = await s.app.inject({ method: "POST", url: "/ingest/nmea", headers: { "content-type": "text/plain", authorization: `Bearer ${secret}` }, payload: lines.join("\r\n") });
  if (r.statusCode !== 200) throw new Error(`ingest answered ${r.statusCode}: ${r.body}`);
  const acked = performance.now();
  for (;;) {
    const page = await s.app.inject({ method: "GET", url: `/api/v1/vessels/${imo}`, headers: { authorization: `Bearer ${keys()}` } });
    if (page.statusCode === 200) return performance.now() - acked;
    if (page.statusCode !== 404 && page.statusCode !== 429) throw new Error(`vessel page answered ${page.statusCode}`);
    await sleep(pollMs);
  }
}

async function main() {
  const reports = Number(arg("reports", "200"));
  const baselineReports = Number(arg("baseline-reports", "30"));
  // The period `serve` refreshes the registry at (adapters/archive/maintenance.ts).
  const REFRESH_MS = Number(arg("refresh-ms", "60000"));
  const engines: { name: string; url?: string }[] = [{ name: "sqlite" }];
  if (process.env.DATABASE_URL) engines.push({ name: "postgres", url: process.env.DATABASE_URL });
  const w = (s: string) => process.stdout.write(`${s}\n`);
  w(`node ${process.version}; ${reports} reports linked as stored, ${baselineReports} over one ${REFRESH_MS / 1000} s refresh period for the baseline`);
  w("");
  w("| engine | linking | reports | p50 ms | p99 ms | max ms |");
  w("|---|---|---|---|---|---|");
  for (const engine of engines) {
    const scratch = await scratchService(engine.url, "links");
    const s = scratch.service;
    try {
      // A shared station, read with a pool of scale-plan keys: the pollers stay under the rate limit.
      const owner = await s.services.accounts.createAccount({ name: "station owner", webPlan: "pro", apiPlan: null });
      const { station, secret } = await s.services.stations.createStation(owner.id, "bench");
      await s.store.db.updateTable("stations").set({ shared: 1 }).where("id", "=", station.id).execute();
      const reader = await s.services.accounts.createAccount({ name: "reader", webPlan: null, apiPlan: "scale" });
      const pool: string[] = [];
      for (let i = 0; i < 8; i++) pool.push((await s.services.accounts.createKey(reader.id)).key);
      let turn = 0;
      const key = () => pool[turn++ % pool.length]!;
      const row = (label: string, xs: number[]) =>
        w(`| ${engine.name} | ${label} | ${xs.length} | ${percentile(xs, 50).toFixed(1)} | ${percentile(xs, 99).toFixed(1)} | ${Math.max(...xs).toFixed(1)} |`);

      const now: number[] = [];
      for (let n = 0; n < reports; n++) now.push(await oneShip(s, secret, key, n, 5));
      row("at once, as the report is stored", now);

      // Before: nothing links a report until the periodic refresh runs.
      s.ingest.pipeline.onIdentities = null;
      const timer = setInterval(() => void s.services.vessels.refresh(Date.now()), REFRESH_MS);
      const waits: Promise<number>[] = [];
      for (let n = 0; n < baselineReports; n++) {
        waits.push(oneShip(s, secret, key, 10_000 + n, 100));
        await sleep(REFRESH_MS / baselineReports);
      }
      const before = await Promise.all(waits);
      clearInterval(timer);
      row(`periodic refresh every ${REFRESH_MS / 1000} s (before)`, before);
    } finally {
      await scratch.close();
    }
  }
}

// The pipeline's flush timer does not hold the process open (close() writes what is left): this does, meanwhile.
const keepAlive = setInterval(() => {}, 1_000);
await main();
clearInterval(keepAlive);
