/**
 * Server time of GET /api/v1/screen with 50 ids, side by side in one run with two
 * baselines through the same pipeline (screening one unlisted id: the same path and a
 * credit charge; GET /api/v1/usage: free, no charge) and a sanctions list page.
 *
 *   npx node bench/screen.ts [requests-per-round] [rounds]
 *
 * In-process through Fastify's inject(): routing, key check, rate limit, credit charge,
 * the store, the rights filter and JSON, without sockets; so the figure is the time the
 * server spends. Requests run one at a time; the endpoints alternate per round so drift in
 * the machine's load hits them alike. SQLite always, PostgreSQL too when DATABASE_URL is set.
 * The lists are the real samples of test/fixtures/sanctions (OFAC 851, UK 632, EU 674 vessels).
 * Screening runs with its signed receipt (docs/screening-receipts.md) and, in rows of their own,
 * without it (the operation's `receipt` switched off in this process), so what a receipt costs
 * is measured side by side.
 */
import { join } from "node:path";
import { importSanctions, importSanctionsFiles } from "../src/adapters/importers/sanctions-import.ts";
import { isValidImo } from "../src/domain/identifiers.ts";
import { PROJECT_ROOT, type Service } from "../src/main.ts";
import { screen } from "../src/operations/screen.ts";
import { reassembleUkCsv } from "../test/helpers/sanctions-fixtures.ts";
import { percentile } from "./percentile.ts";
import { withEngineService } from "./engine-service.ts";

const perRound = Number(process.argv[2] ?? 500);
const rounds = Number(process.argv[3] ?? 5);
const FIXTURES = join(PROJECT_ROOT, "test/fixtures/sanctions");

async function loadLists(service: Service): Promise<void> {
  const deps = service.services;
  await importSanctions(deps, "ofac", [join(FIXTURES, "ofac/sdn_csv_vessel_rows_2024-05-03.csv")], { asOf: "2024-05-03" });
  await importSanctionsFiles(deps, "uk", [{ name: "UK-Sanctions-List.csv", bytes: Buffer.from(reassembleUkCsv()) }], "uk sample", { asOf: "2026-04-29" });
  await importSanctions(
    deps,
    "eu",
    [join(FIXTURES, "eu/annex_xlii_vessels_consolidated_02014R0833-20260717.csv"), join(FIXTURES, "eu/annex_xlii_vessels_amendment_32026R1848.csv")],
    { asOf: "2026-07-24" },
  );
}

/** 50 ids: 25 designated IMOs (several on two or three lists), 15 unlisted valid IMOs, 10 MMSIs of OFAC vessels. */
async function screenIds(service: Service): Promise<string> {
  const store = service.services.sanctions;
  const ofac = await store.listActive("ofac", 0, 1000);
  const uk = await store.listActive("uk", 0, 1000);
  const listed = [...new Set([...uk.flatMap((r) => r.record.imos), ...ofac.flatMap((r) => r.record.imos)])].slice(0, 25);
  const unlisted: number[] = [];
  const all = new Set([...ofac, ...uk].flatMap((r) => r.record.imos));
  for (let n = 9_100_000; unlisted.length < 15; n++) if (isValidImo(n) && !all.has(n)) unlisted.push(n);
  const mmsis = ofac.flatMap((r) => r.record.mmsis).slice(0, 10);
  return [...listed, ...unlisted, ...mmsis.map((m) => `mmsi-${String(m).padStart(9, "0")}`)].join(",");
}


async function benchEngine(engine: "sqlite" | "postgres"): Promise<string[]> {
  // A fresh service per engine (a scratch database on PostgreSQL), removed at the end.
  return withEngineService(engine, async (service) => {
    await loadLists(service);
    // Keys on accounts of their own: a screen costs 50 credits and each key may make 200 calls a second.
    const keys: string[] = [];
    for (let i = 0; i < 40; i++) {
      const a = await service.services.accounts.createAccount({ name: `bench ${i}`, webPlan: null, apiPlan: "scale" });
      keys.push((await service.services.accounts.createKey(a.id)).key);
    }
    const ids = await screenIds(service);
    // The third field: whether screening keeps its signed receipt (the operation's `receipt`), so its cost shows beside the same call without it.
    const endpoints: [string, string, boolean][] = [
      ["GET /api/v1/screen (50 ids)", `/api/v1/screen?ids=${ids}`, true],
      ["GET /api/v1/screen (50 ids, receipt off)", `/api/v1/screen?ids=${ids}`, false],
      // Baselines through the same pipeline: one id (the same path with a 1-credit charge), and usage (free, no charge).
      ["GET /api/v1/screen (1 id, baseline)", `/api/v1/screen?ids=${ids.split(",")[30]}`, true],
      ["GET /api/v1/screen (1 id, receipt off)", `/api/v1/screen?ids=${ids.split(",")[30]}`, false],
      ["GET /api/v1/usage (baseline, free)", "/api/v1/usage", true],
      ["GET /api/v1/sanctions/ofac?limit=50", "/api/v1/sanctions/ofac?limit=50", true],
    ];
    let k = 0;
    const call = async (url: string, receipts: boolean) => {
      (screen as { receipt?: "screening" }).receipt = receipts ? "screening" : undefined;
      const started = performance.now();
      const r = await service.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${keys[k++ % keys.length]}` } });
      const ms = performance.now() - started;
      if (r.statusCode !== 200) throw new Error(`${url.slice(0, 40)} answered ${r.statusCode}: ${r.body.slice(0, 200)}`);
      return ms;
    };
    for (const [, url, receipts] of endpoints) for (let i = 0; i < 200; i++) await call(url, receipts); // warm-up
    const times = endpoints.map(() => [] as number[]);
    for (let r = 0; r < rounds; r++) {
      for (const [i, [, url, receipts]] of endpoints.entries()) for (let n = 0; n < perRound; n++) times[i]!.push(await call(url, receipts));
    }
    (screen as { receipt?: "screening" }).receipt = "screening";
    const first = JSON.parse((await service.app.inject({ method: "GET", url: endpoints[0]![1], headers: { authorization: `Bearer ${keys[0]}` } })).body);
    console.warn(`${engine}: screen answers ${first.count} ids, ${first.sanctionedCount} sanctioned`);
    return endpoints.map(
      ([name], i) => `| ${engine} | ${name} | ${percentile(times[i]!, 50).toFixed(2)} | ${percentile(times[i]!, 90).toFixed(2)} | ${percentile(times[i]!, 99).toFixed(2)} | ${times[i]!.length} |`,
    );
  });
}

const lines: string[] = [];
for (const engine of process.env.DATABASE_URL ? (["sqlite", "postgres"] as const) : (["sqlite"] as const)) lines.push(...(await benchEngine(engine)));
console.warn(`${rounds} rounds of ${perRound} sequential requests per endpoint, in-process (inject), times in ms`);
process.stdout.write(["| engine | request | p50 ms | p90 ms | p99 ms | requests |", "|---|---|---|---|---|---|", ...lines].join("\n") + "\n");
