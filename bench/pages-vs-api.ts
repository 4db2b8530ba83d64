/**
 * Each kind of public page against the API call behind it, side by side in one run: the
 * server time of `GET /vessel/{imo}-{slug}`, `/port/{unlocode}`, `/flag/{iso2}`,
 * `/wreck/{id}-{slug}` and `/search?q=` next to `GET /api/v1/vessels/{imo}`, `/ports/...`,
 * `/flags/...`, `/wrecks/...` and `/search?q=`. The target: page p50 at most 2x API p50.
 *
 *   npx node bench/pages-vs-api.ts [requests-per-kind] [rounds]
 *
 * In-process through Fastify's inject() (routing, rate limit, validation, store reads,
 * rights filter; for a page also the session lookup, rendering and its ETag; no sockets),
 * one request at a time, page and API call alternating so both see the same machine load.
 * Callers are anonymous from rotating addresses (the API's optional-auth calls) or rotate
 * scale-plan keys (search needs a key), so the rate limits stay in the path without
 * refusing the run. The vessel is heard by a shared station: 24 hours of fixes every
 * 10 seconds, so its page draws 1,440 track points; its page runs the vessel call and the
 * track call, and the API column shows both. SQLite always, PostgreSQL too when
 * DATABASE_URL is set (a scratch database, dropped at the end).
 */
import { importDataset } from "../src/adapters/importers/datasets.ts";
import type { PositionFix } from "../src/interfaces/positions.ts";
import { BENCH_ENGINES, withEngineService } from "./engine-service.ts";
import { percentile } from "./percentile.ts";

const perKind = Number(process.argv[2] ?? 200);
const rounds = Number(process.argv[3] ?? 3);

const MMSI = 244_123_456;
const IMO = 9_321_483;

function benchEngine(engine: "sqlite" | "postgres"): Promise<string[]> {
  return withEngineService(engine, async (service) => {
    for (const d of ["ports", "flags", "emissions", "wrecks"]) await importDataset(service, d, undefined, { progress: false });
    // A ship heard by a shared station: 24 hours of fixes every 10 seconds.
    const a = await service.services.accounts.createAccount({ name: "station owner", webPlan: "pro", apiPlan: null });
    // Shared through the store, so the service's snapshot of shared stations learns it at once.
    const { station } = await service.services.stations.createStation(a.id, "shared mast", { shared: true });
    const now = Date.now();
    const fixes: PositionFix[] = [];
    for (let t = now - 24 * 3_600_000; t < now; t += 10_000) {
      const i = (t - now) / 10_000;
      fixes.push({ mmsi: MMSI, time: t, stationId: station.id, lat: 54 + i * 1e-4, lon: 7 + i * 2e-4, sog: 12, cog: 45, heading: 45, navStatus: 0 });
    }
    for (let at = 0; at < fixes.length; at += 5_000) {
      const chunk = fixes.slice(at, at + 5_000);
      await service.services.positions.writeBatch({ positions: chunk, latest: [chunk.at(-1)!], identities: [], counters: [], heard: [] });
    }
    await service.services.positions.writeBatch({
      positions: [],
      latest: [],
      identities: [{ stationId: station.id, mmsi: MMSI, imo: IMO, name: "BENCH RUNNER", callsign: "BNCH", updatedAt: now }],
      counters: [],
      heard: [],
    });
    await service.services.vessels.refresh(now);

    const keys: string[] = [];
    for (let i = 0; i < 10; i++) {
      const acc = await service.services.accounts.createAccount({ name: `bench ${i}`, webPlan: null, apiPlan: "scale" });
      keys.push((await service.services.accounts.createKey(acc.id)).key);
    }
    let caller = 0;
    const get = async (url: string, key: boolean) => {
      const n = ++caller;
      const t0 = performance.now();
      const r = await service.app.inject({
        method: "GET",
        url,
        remoteAddress: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
        headers: key ? { authorization: `Bearer ${keys[n % keys.length]}` } : {},
      });
      const ms = performance.now() - t0;
      if (r.statusCode !== 200) throw new Error(`${url} answered ${r.statusCode}: ${r.body.slice(0, 200)}`);
      return { ms, bytes: r.rawPayload.length };
    };
    const vesselPage = (await service.app.inject({ method: "GET", url: `/vessel/${IMO}` })).headers.location as string;
    const wreckPage = (await service.app.inject({ method: "GET", url: "/wreck/14296" })).headers.location as string;
    // Each kind: the page, and the API call(s) behind it.
    const kinds: { name: string; page: string; api: { url: string; key: boolean }[] }[] = [
      { name: "vessel (1,440 track points)", page: vesselPage, api: [{ url: `/api/v1/vessels/${IMO}`, key: false }, { url: `/api/v1/vessels/${IMO}/track?hours=24`, key: true }] },
      { name: "port", page: "/port/NLRTM", api: [{ url: "/api/v1/ports/NLRTM", key: false }] },
      { name: "flag (with its ports)", page: "/flag/PA", api: [{ url: "/api/v1/flags/PA", key: false }, { url: "/api/v1/ports?country=PA&limit=100", key: true }] },
      { name: "wreck", page: wreckPage, api: [{ url: "/api/v1/wrecks/14296", key: false }] },
      { name: "search", page: "/search?q=rotterdam", api: [{ url: "/api/v1/search?q=rotterdam", key: true }] },
    ];
    const times = kinds.map(() => ({ page: [] as number[], api: kinds.map(() => [] as number[]), apiSum: [] as number[], pageBytes: 0 }));
    for (const k of kinds) for (let i = 0; i < 20; i++) {
      await get(k.page, false);
      for (const c of k.api) await get(c.url, c.key);
    } // warm-up
    for (let r = 0; r < rounds; r++) {
      for (let n = 0; n < perKind; n++) {
        for (const [i, k] of kinds.entries()) {
          const p = await get(k.page, false);
          times[i]!.page.push(p.ms);
          times[i]!.pageBytes = p.bytes;
          let sum = 0;
          for (const [j, c] of k.api.entries()) {
            const ms = (await get(c.url, c.key)).ms;
            times[i]!.api[j]!.push(ms);
            sum += ms;
          }
          times[i]!.apiSum.push(sum);
        }
      }
    }
    return kinds.map((k, i) => {
      const t = times[i]!;
      const page50 = percentile(t.page, 50);
      const first50 = percentile(t.api[0]!, 50);
      const all50 = percentile(t.apiSum, 50);
      const apiCell = k.api.length === 1 ? first50.toFixed(2) : `${first50.toFixed(2)} (with ${k.api.slice(1).map((c) => c.url.split("?")[0]!.split("/").pop()).join(", ")}: ${all50.toFixed(2)})`;
      const ratio = k.api.length === 1 ? `${(page50 / first50).toFixed(2)}x` : `${(page50 / first50).toFixed(2)}x (${(page50 / all50).toFixed(2)}x)`;
      return `| ${engine} | ${k.name} | ${page50.toFixed(2)} | ${percentile(t.page, 99).toFixed(2)} | ${apiCell} | ${percentile(t.api[0]!, 99).toFixed(2)} | ${ratio} | ${Math.round(t.pageBytes / 1024)} |`;
    });
  });
}

const lines: string[] = [];
for (const engine of BENCH_ENGINES) lines.push(...(await benchEngine(engine)));
console.warn(`${rounds} rounds of ${perKind} sequential requests per kind, page and API alternating, in-process (inject), times in ms`);
process.stdout.write(
  [
    "| engine | page kind | page p50 ms | page p99 ms | API p50 ms (all calls behind it) | API p99 ms | page / API p50 (/ all calls) | page KB |",
    "|---|---|---|---|---|---|---|---|",
    ...lines,
  ].join("\n") + "\n",
);
