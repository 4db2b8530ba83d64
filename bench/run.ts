/**
 * Runs the benchmarks of bench/, one after another, each in a child process of its own
 * (so one benchmark's heap, JIT state and open handles cannot colour the next), printing
 * its name, its command and its own output.
 *
 *   npm run bench                       every benchmark with its default sizes
 *   npm run bench -- --quick            small sizes: checks that each one starts and finishes
 *   npm run bench -- track search       only the benchmarks named
 *
 * Benchmarks that also measure PostgreSQL do so when DATABASE_URL is set; a benchmark that
 * needs a service to be running is skipped, with a line saying so, when its variable is unset.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";

interface Benchmark {
  name: string;
  file: string;
  /** Arguments for `--quick`: sizes small enough to see it start and finish. */
  quickArgs: string[];
  /** Variables without which it cannot run at all. */
  requires?: string[];
  /** Variables that add a second engine to its run. */
  alsoUses?: string[];
}

const BENCHMARKS: Benchmark[] = [
  { name: "ais-decode", file: "ais-decode.ts", quickArgs: ["--sentences", "20000", "--runs", "2"] },
  { name: "ais-decoders", file: "ais-decoders.ts", quickArgs: ["--sentences", "20000", "--runs", "2"] },
  { name: "ingest-e2e", file: "ingest-e2e.ts", quickArgs: ["--positions", "5000"], alsoUses: ["DATABASE_URL"] },
  { name: "ports-pipeline", file: "ports-pipeline.ts", quickArgs: ["1", "1"], alsoUses: ["DATABASE_URL"] },
  { name: "mcp-vs-rest", file: "mcp-vs-rest.ts", quickArgs: ["20", "1"] },
  { name: "sanctions-import", file: "sanctions-import.ts", quickArgs: ["0.02"] },
  { name: "screen", file: "screen.ts", quickArgs: ["20", "1"], alsoUses: ["DATABASE_URL"] },
  { name: "search", file: "search.ts", quickArgs: ["5", "1"], alsoUses: ["DATABASE_URL"] },
  { name: "track", file: "track.ts", quickArgs: ["5", "1"], alsoUses: ["DATABASE_URL"] },
  { name: "webhooks", file: "webhooks.ts", quickArgs: ["200", "1"], alsoUses: ["DATABASE_URL"] },
  { name: "delivery-client", file: "delivery-client.ts", quickArgs: ["200", "2"] },
  { name: "links-at-once", file: "links-at-once.ts", quickArgs: ["--reports", "5", "--baseline-reports", "2", "--refresh-ms", "2000"], alsoUses: ["DATABASE_URL"] },
  { name: "position-jump", file: "position-jump.ts", quickArgs: ["--fixes", "20000", "--vessels", "1000", "--rounds", "1"] },
  { name: "feeds", file: "feeds.ts", quickArgs: ["--messages", "2000", "--samples", "10"] },
  { name: "derived-accuracy", file: "derived-accuracy.ts", quickArgs: ["20", "1"] },
  { name: "derived-cost", file: "derived-cost.ts", quickArgs: ["5000", "1"] },
  { name: "events-accuracy", file: "events-accuracy.ts", quickArgs: ["5", "1"] },
  { name: "pages-vs-api", file: "pages-vs-api.ts", quickArgs: ["5", "1"], alsoUses: ["DATABASE_URL"] },
  { name: "api-processes", file: "api-processes.ts", quickArgs: ["1", "1"], requires: ["DATABASE_URL", "REDIS_URL"] },
  { name: "sanctions-changes", file: "sanctions-changes.ts", quickArgs: ["1", "200"], alsoUses: ["DATABASE_URL"] },
  { name: "envelope-serializers", file: "envelope-serializers.ts", quickArgs: [] },
  { name: "mcp-server-profile", file: "mcp-server-profile.ts", quickArgs: ["200", "both"] },
];

/** Files of bench/ that other benchmarks use; everything else in bench/ must be in BENCHMARKS. */
const HELPERS = new Set(["run.ts", "percentile.ts", "scratch-database.ts", "engine-service.ts", "bare-server.ts", "pipeline-server.ts", "child-server.ts", "process-cpu.ts", "envelope-serializer.ts", "serializable-schema.ts"]);

const benchDir = import.meta.dirname;

// A new benchmark file that nobody added here would silently never run.
const unlisted = readdirSync(benchDir).filter((f) => f.endsWith(".ts") && !HELPERS.has(f) && !BENCHMARKS.some((b) => b.file === f));
if (unlisted.length > 0) {
  console.error(`bench/run.ts: add ${unlisted.join(", ")} to BENCHMARKS (or to HELPERS if it is not a benchmark)`);
  process.exit(2);
}

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const names = args.filter((a) => a !== "--quick");
const unknown = names.filter((n) => !BENCHMARKS.some((b) => b.name === n));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(", ")}; known: ${BENCHMARKS.map((b) => b.name).join(", ")}`);
  process.exit(2);
}
const chosen = names.length > 0 ? BENCHMARKS.filter((b) => names.includes(b.name)) : BENCHMARKS;

const outcomes: { name: string; outcome: string }[] = [];
for (const bench of chosen) {
  const missing = (bench.requires ?? []).filter((v) => !process.env[v]);
  if (missing.length > 0) {
    console.log(`\n=== ${bench.name}: skipped, needs ${missing.join(" and ")}`);
    outcomes.push({ name: bench.name, outcome: `skipped (needs ${missing.join(", ")})` });
    continue;
  }
  const runArgs = quick ? bench.quickArgs : [];
  const unset = (bench.alsoUses ?? []).filter((v) => !process.env[v]);
  console.log(`\n=== ${bench.name}: node bench/${bench.file} ${runArgs.join(" ")}`.trimEnd());
  if (unset.length > 0) console.log(`(${unset.join(", ")} unset: SQLite only)`);
  const started = performance.now();
  // The same node binary that runs this script (npm scripts pin Node 24).
  const result = spawnSync(process.execPath, [join(benchDir, bench.file), ...runArgs], { stdio: "inherit" });
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  const outcome = result.status === 0 ? `ok in ${seconds} s` : `FAILED (exit ${result.status ?? result.signal}) after ${seconds} s`;
  outcomes.push({ name: bench.name, outcome });
}

console.log("\n=== summary");
for (const { name, outcome } of outcomes) console.log(`${name.padEnd(16)} ${outcome}`);
if (outcomes.some((o) => o.outcome.startsWith("FAILED"))) process.exit(1);
