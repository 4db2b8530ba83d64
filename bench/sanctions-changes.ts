/**
 * The sanctions change feed and the `alert.sanctions` fan-out.
 *
 *   npx node bench/sanctions-changes.ts [rounds] [watchers]
 *   BENCH_PARTS=feed|fanout (default both), BENCH_CHANGED=50,500 (designations changed per fan-out run)
 *
 * 1. Feed: the real OFAC history (the state before the recorded changes, the 56 versions of
 *    2021-08 .. 2024-05 that changed anything, rebuilt as the history tests do, and the real
 *    2024-05-03 file) is imported, then GET /api/v1/sanctions/changes is walked from the
 *    first row to the last, page by page, for several page sizes, `rounds` times each,
 *    alternating; p50 and p90 of a page's server time (in-process through Fastify's
 *    inject(): key, rate limit, credit charge, store, rights filter, JSON).
 * 2. Fan-out: on the real 2024-05-03 list, one account watches `watchers` vessels (default
 *    10,000: every designated IMO and valid IMOs not on the list, as one watchlist) with one
 *    webhook endpoint. An import that
 *    renames N of the watched designations commits; then the alert reader runs: the time
 *    from the import's commit to the last alert and its delivery queued, for several N.
 *    The watchers come from follows and watchlist members, as in `serve`.
 *    A GET /api/v1/sanctions/ofac page is timed idle and while the reader runs, to show
 *    what the fan-out costs the API.
 *
 * SQLite always, PostgreSQL too when DATABASE_URL is set.
 */
import { join } from "node:path";
import { importSanctionsFiles } from "../src/adapters/importers/sanctions-import.ts";
import { SanctionsAlerts } from "../src/adapters/alerts/sanctions-alerts.ts";
import { allWatchers, followWatchers, watchlistWatchers } from "../src/adapters/alerts/vessel-watchers.ts";
import { isValidImo } from "../src/domain/identifiers.ts";
import { PROJECT_ROOT, type Service } from "../src/main.ts";
import { ofacChanges, ofacCsvBefore, ofacWithRenames } from "../test/helpers/sanctions-fixtures.ts";
import { readFileSync } from "node:fs";
import { withEngineService, BENCH_ENGINES } from "./engine-service.ts";
import { percentile } from "./percentile.ts";

const rounds = Number(process.argv[2] ?? 5);
const watcherCount = Number(process.argv[3] ?? 10_000);
const PAGE_SIZES = [10, 50, 100];
const CHANGED = (process.env.BENCH_CHANGED ?? "50,500").split(",").map(Number);
const OFAC_2024_05_03 = join(PROJECT_ROOT, "test/fixtures/sanctions/ofac/sdn_csv_vessel_rows_2024-05-03.csv");

const ofac = (service: Service, csv: string | Buffer, asOf: string) => importSanctionsFiles(service.services, "ofac", [{ name: "sdn.csv", bytes: Buffer.from(csv) }], `sdn.csv ${asOf}`, { asOf });

/** Keys on accounts of their own, so a walk never meets one key's rate limit (200 a second on scale). */
async function keys(service: Service, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const a = await service.services.accounts.createAccount({ name: `bench ${i}`, webPlan: null, apiPlan: "scale" });
    out.push((await service.services.accounts.createKey(a.id)).key);
  }
  return out;
}

async function timed(service: Service, url: string, key: string): Promise<{ ms: number; body: Record<string, any> }> {
  const t0 = performance.now();
  const res = await service.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${key}` } });
  const ms = performance.now() - t0;
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  return { ms, body: res.json() };
}

async function feed(engine: "sqlite" | "postgres"): Promise<string[]> {
  return withEngineService(engine, async (service) => {
    const snapshots = [...new Set(ofacChanges().map((c) => c.snapshot))].sort();
    const t0 = performance.now();
    await ofac(service, ofacCsvBefore("0000").csv, snapshots[0]!);
    for (const day of snapshots) await ofac(service, ofacCsvBefore(day).csv, day);
    await ofac(service, readFileSync(OFAC_2024_05_03), "2024-05-04");
    const versions = (await service.services.sanctions.versions("ofac")).length;
    const importMs = performance.now() - t0;
    const ks = await keys(service, 20);
    let k = 0;
    const samples = new Map<number, number[]>(PAGE_SIZES.map((s) => [s, []]));
    let rows = 0;
    for (let r = 0; r < rounds; r++) {
      for (const size of PAGE_SIZES) {
        let cursor: string | null = null;
        let n = 0;
        do {
          const { ms, body } = await timed(service, `/api/v1/sanctions/changes?lists=ofac&limit=${size}${cursor ? `&cursor=${cursor}` : ""}`, ks[k++ % ks.length]!);
          samples.get(size)!.push(ms);
          n += (body.data as unknown[]).length;
          cursor = body.next ? new URL(body.next as string, "http://x").searchParams.get("cursor") : null;
        } while (cursor);
        rows = n;
      }
    }
    const out = [`${engine}: ${versions} OFAC versions imported in ${(importMs / 1000).toFixed(1)} s; the feed holds ${rows} rows`];
    for (const size of PAGE_SIZES) {
      const xs = samples.get(size)!;
      out.push(`| ${engine} | ${size} | ${xs.length / rounds} | ${percentile(xs, 50).toFixed(2)} | ${percentile(xs, 90).toFixed(2)} | ${(xs.reduce((a, b) => a + b, 0) / rounds).toFixed(0)} |`);
    }
    return out;
  });
}

async function fanOut(engine: "sqlite" | "postgres", changed: number): Promise<string> {
  return withEngineService(engine, async (service) => {
    const s = service.services;
    const csv = readFileSync(OFAC_2024_05_03, "utf8");
    await ofac(service, csv, "2024-05-03");
    const listed = (await s.sanctions.listActive("ofac", 0, 10_000)).flatMap((r) => r.record.imos);
    // The watchers: one account's watchlist (its fleet book) of every designated IMO and valid IMOs not listed, `watcherCount` in all.
    const account = await s.accounts.createAccount({ name: "fleet book", webPlan: null, apiPlan: "scale" });
    // Fewer watchers than designated IMOs (the quick run's 200) watch the first ones only: the watchlist holds `watcherCount` members.
    const watched = new Set(listed.slice(0, watcherCount));
    for (let n = 9_000_000; watched.size < watcherCount; n++) if (isValidImo(n)) watched.add(n);
    const now = s.clock.now();
    const list = await s.watchlists.createWatchlist(account.id, "fleet book", [...watched].map((imo) => ({ kind: "imo" as const, imo })), { lists: 1, members: watcherCount }, now);
    if (!list.ok) throw new Error(`watchlist: ${JSON.stringify(list)}`);
    const ep = await s.webhooks.createEndpoint(account.id, { url: "https://hooks.example.com/mds", description: null, events: null }, "whsec_bench", 10, now);
    if (!ep.ok) throw new Error("endpoint");
    const reader = new SanctionsAlerts({ alerts: s.alerts, webhooks: s.webhooks, sanctions: s.sanctions, accounts: s.accounts, sources: s.sources, clock: s.clock, baseUrl: "https://mds.example", watchers: allWatchers(followWatchers(s.alerts), watchlistWatchers(s.watchlists)) });
    await reader.poll(); // the baseline: nothing

    const ks = await keys(service, 40);
    let k = 0;
    const get = async () => (await timed(service, "/api/v1/sanctions/ofac?limit=50", ks[k++ % ks.length]!)).ms;
    const idle: number[] = [];
    for (let i = 0; i < 200; i++) idle.push(await get());

    // Alone: the import commits, then the reader runs with nothing else going on.
    const r = await ofac(service, ofacWithRenames(changed, " II").csv, "2024-05-10");
    const committed = performance.now();
    const n = await reader.poll();
    const ms = performance.now() - committed;
    // Under API load: the next import's changes, read while API requests run one after another (at most 300).
    await ofac(service, ofacWithRenames(changed, " III").csv, "2024-05-11");
    const again = performance.now();
    let loadedMs = 0;
    const polled = reader.poll().then(() => {
      loadedMs = performance.now() - again;
    });
    const busy: number[] = [];
    while (loadedMs === 0 && busy.length < 300) busy.push(await get());
    await polled;
    const deliveries = await service.store.db
      .selectFrom("webhook_deliveries")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return `| ${engine} | ${watched.size.toLocaleString("en")} | ${r.changed} | ${n} | ${Number(deliveries.n) / 2} | ${ms.toFixed(0)} | ${loadedMs.toFixed(0)} | ${percentile(idle, 50).toFixed(2)} | ${percentile(busy, 50).toFixed(2)} / ${percentile(busy, 90).toFixed(2)} (${busy.length}) |`;
  });
}

const feedLines: string[] = [];
const fanLines: string[] = [];
const parts = (process.env.BENCH_PARTS ?? "feed,fanout").split(",");
for (const engine of BENCH_ENGINES) {
  if (parts.includes("feed")) feedLines.push(...(await feed(engine)));
  if (parts.includes("fanout")) for (const n of CHANGED) fanLines.push(await fanOut(engine, n));
}
console.log("Change feed, lists=ofac, walked first row to last:");
console.log("| engine | page size | pages per walk | p50 ms | p90 ms | ms per walk |");
console.log("|---|---|---|---|---|---|");
for (const l of feedLines.filter((l) => l.startsWith("|"))) console.log(l);
for (const l of feedLines.filter((l) => !l.startsWith("|"))) console.log(l);
console.log("\nFan-out: import commit to the last alert queued:");
console.log("| engine | watchers | designations changed | alerts | deliveries queued | commit to last queued, ms | the same under API load, ms | GET /sanctions/ofac?limit=50 p50 idle, ms | p50 / p90 while the reader runs, ms (requests) |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const l of fanLines) console.log(l);
