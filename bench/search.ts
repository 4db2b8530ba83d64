/**
 * GET /api/v1/search over every kind (vessels, ports, companies, wrecks, flags), through the
 * full pipeline, side by side in one run with the bare vessel-name lookup of the store.
 *
 *   npx node bench/search.ts [requests-per-query] [rounds] [vessel-names] [company-names]
 *
 * Names: the bundled EU MRV ships (22,659 names of 19,730 IMOs), the UN/LOCODE ports, the
 * AWOIS wrecks and the flags, plus generated names (maritime words and made-up words): by
 * default 100,000 as fleet-list ships and none as companies; `800000 200000` gives the
 * million-name run of bench/README.md (BENCH_ENGINE=postgres runs that engine alone). The
 * queries are a mix: common prefixes, a later word, an exact name, a substring, a miss
 * (every rank read to the end), two letters, accents, an IMO, an MMSI and a UN/LOCODE.
 * In-process through Fastify's inject() (routing, key, rate limit, input rules, credit
 * charge, the store, rights filter, envelope, JSON; no sockets); requests one at a time,
 * the queries taking turns. SQLite always, PostgreSQL too when DATABASE_URL is set (a
 * scratch database, dropped at the end).
 */
import { importDataset } from "../src/adapters/importers/datasets.ts";
import { isValidImo } from "../src/domain/identifiers.ts";
import { normalizeName } from "../src/domain/vessels/names.ts";
import type { FleetImport } from "../src/interfaces/vessels.ts";
import type { CompanyRecord } from "../src/domain/companies/company.ts";
import { percentile } from "./percentile.ts";
import { withEngineService } from "./engine-service.ts";

const perQuery = Number(process.argv[2] ?? 50);
const rounds = Number(process.argv[3] ?? 4);
const GENERATED_VESSELS = Number(process.argv[4] ?? 100_000);
const GENERATED_COMPANIES = Number(process.argv[5] ?? 0);


/** Distinct names from maritime words and made-up ones (a fixed seed: every run the same). */
function generatedNames(count: number): string[] {
  // mulberry32: 32-bit integer arithmetic (Math.imul), so the sequence does not lose bits to floating point.
  let seed = 42;
  const rand = (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) % n;
  };
  const words =
    "NORDIC STAR OCEAN SEA BLUE GOLDEN PACIFIC ATLANTIC BALTIC ARCTIC GRAND ROYAL SILVER CAPE POLAR NORTHERN SOUTHERN EASTERN WESTERN ISLAND CORAL PEARL DIAMOND EXPRESS SPIRIT PRIDE TRADER CARRIER VOYAGER PIONEER GLORY HOPE FORTUNE WIND WAVE DAWN LIGHT QUEEN KING PRINCESS EAGLE FALCON DOLPHIN MARINER NAVIGATOR HARMONY LIBERTY VICTORY UNITY BRIGHT SUN MOON RIVER BAY HARBOUR COAST STREAM TIDE"
      .split(" ");
  const syllables = "ka ro mi ta ne lo sa vi ku de ra no el an or is ma te ri on al be ga".split(" ");
  const madeUp = () => Array.from({ length: 2 + rand(3) }, () => syllables[rand(syllables.length)]).join("").toUpperCase();
  const names = new Set<string>();
  while (names.size < count) {
    const shape = rand(4);
    const name =
      shape === 0
        ? `${words[rand(words.length)]} ${madeUp()}`
        : shape === 1
          ? `${madeUp()} ${words[rand(words.length)]}`
          : shape === 2
            ? `${words[rand(words.length)]} ${words[rand(words.length)]} ${1 + rand(30)}`
            : `${madeUp()} ${madeUp()}`;
    names.add(name);
  }
  return [...names];
}

/** Names as fleet-list ships (valid IMOs from 1000000 on). */
function generatedFleet(names: readonly string[]): FleetImport[] {
  const out: FleetImport[] = [];
  // Stems 100000-899999 keep every IMO at 7 digits (up to 800,000 ships), mostly below the real 9xxxxxx range.
  let stem = 100_000;
  for (const name of names) {
    // Each six-digit stem has exactly one check digit that makes a valid IMO.
    let imo = stem++ * 10;
    while (!isValidImo(imo)) imo++;
    out.push({ imo, name, shipType: null, grossTons: null, deadweightTons: null, yearBuilt: null, operator: null });
  }
  return out;
}

async function benchEngine(engine: "sqlite" | "postgres"): Promise<string[]> {
  // A fresh service per engine (a scratch database on PostgreSQL), removed at the end.
  return withEngineService(engine, async (service) => {
    let started = performance.now();
    await importDataset(service, "ports", undefined, { progress: false });
    await importDataset(service, "wrecks", undefined, { progress: false });
    await importDataset(service, "flags", undefined, { progress: false });
    const emissions = await importDataset(service, "emissions", undefined, { progress: false });
    console.warn(`${engine}: ports and ${emissions.rows} MRV reports imported in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    started = performance.now();
    const generated = generatedNames(GENERATED_VESSELS + GENERATED_COMPANIES);
    const fleet = generatedFleet(generated.slice(0, GENERATED_VESSELS));
    await service.services.vessels.replaceFleet("marad", fleet, Date.now());
    // Companies filed under a cleared source, so their hits are served, not withheld.
    const companies: CompanyRecord[] = generated.slice(GENERATED_VESSELS).map((name, i) => ({
      source: "marad", key: `bench:${i}`, entityId: `marad-id-${i}`, name: `${name} SHIPPING`, aliases: [], companyImo: null, lei: null, country: null, address: null, designations: [], fleet: [],
    }));
    await service.services.companies.replaceSource("marad", companies);
    const names = await service.store.db.selectFrom("vessel_names").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    console.warn(`${engine}: ${fleet.length} generated ship names and ${companies.length} company names stored in ${((performance.now() - started) / 1000).toFixed(1)} s; ${names.n} names in the registry`);

    const keys: string[] = [];
    for (let i = 0; i < 20; i++) {
      const a = await service.services.accounts.createAccount({ name: `bench ${i}`, webPlan: null, apiPlan: "scale" });
      keys.push((await service.services.accounts.createKey(a.id)).key);
    }
    const queries: [string, string][] = [
      ["prefix, many hits", "star"],
      ["prefix", "nordic ka"],
      ["a later word", "express"],
      ["an exact name", "ever given"],
      ["substring", "aeroy"],
      ["no match at all", "qqxz"],
      ["two letters", "ka"],
      ["accents", "Værøy"],
      ["an IMO", "9607382"],
      ["a UN/LOCODE", "NLRTM"],
      ["a port name", "rotterdam"],
      ["a wreck name", "algeria"],
      ["a company name prefix", "golden ka"],
    ];
    let k = 0;
    const pipeline = async (q: string) => {
      const t0 = performance.now();
      const r = await service.app.inject({ method: "GET", url: `/api/v1/search?q=${encodeURIComponent(q)}`, headers: { authorization: `Bearer ${keys[k++ % keys.length]}` } });
      const ms = performance.now() - t0;
      if (r.statusCode !== 200) throw new Error(`search answered ${r.statusCode}: ${r.body.slice(0, 200)}`);
      return { ms, hits: (JSON.parse(r.body) as { count: number }).count };
    };
    const bare = async (q: string) => {
      const t0 = performance.now();
      const hits = await service.services.search.vesselNames(normalizeName(q), [], 20);
      return { ms: performance.now() - t0, hits: hits.length };
    };
    for (const [, q] of queries) for (let i = 0; i < 20; i++) await pipeline(q); // warm-up
    const times = queries.map(() => ({ pipeline: [] as number[], bare: [] as number[], hits: 0 }));
    for (let r = 0; r < rounds; r++) {
      for (let n = 0; n < perQuery; n++) {
        for (const [i, [, q]] of queries.entries()) {
          const p = await pipeline(q);
          times[i]!.pipeline.push(p.ms);
          times[i]!.hits = p.hits;
          times[i]!.bare.push((await bare(q)).ms);
        }
      }
    }
    const all = times.flatMap((t) => t.pipeline);
    const allBare = times.flatMap((t) => t.bare);
    return [
      ...queries.map(
        ([name, q], i) =>
          `| ${engine} | ${name} (\`${q}\`) | ${times[i]!.hits} | ${percentile(times[i]!.pipeline, 50).toFixed(2)} | ${percentile(times[i]!.pipeline, 90).toFixed(2)} | ${percentile(times[i]!.pipeline, 99).toFixed(2)} | ${percentile(times[i]!.bare, 50).toFixed(2)} |`,
      ),
      `| ${engine} | **all queries** | | **${percentile(all, 50).toFixed(2)}** | ${percentile(all, 90).toFixed(2)} | ${percentile(all, 99).toFixed(2)} | ${percentile(allBare, 50).toFixed(2)} |`,
    ];
  });
}

const lines: string[] = [];
// BENCH_ENGINE=sqlite|postgres runs one engine only (a million names take minutes to load on each).
const engines = (process.env.DATABASE_URL ? (["sqlite", "postgres"] as const) : (["sqlite"] as const)).filter((e) => !process.env.BENCH_ENGINE || e === process.env.BENCH_ENGINE);
for (const engine of engines) lines.push(...(await benchEngine(engine)));
console.warn(`${rounds} rounds of ${perQuery} sequential requests per query, in-process (inject), times in ms`);
process.stdout.write(
  ["| engine | query | hits | pipeline p50 ms | p90 ms | p99 ms | bare name lookup p50 ms |", "|---|---|---|---|---|---|---|", ...lines].join("\n") + "\n",
);
