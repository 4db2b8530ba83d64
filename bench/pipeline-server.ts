/**
 * The service under benchmark, in a process of its own: full pipeline, one engine.
 * Prints one JSON line {url, keys, body} when ready: the keys to rotate and a sample body.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importMissingDatasets } from "../src/adapters/importers/datasets.ts";
import { parseConfig } from "../src/config.ts";
import { createService, PROJECT_ROOT } from "../src/main.ts";

/** sqlite; postgres (credits charged in the database); postgres+redis (credits and rate limits in Redis, written behind). */
const engine = process.argv[2] === "postgres" || process.argv[2] === "postgres+redis" ? process.argv[2] : "sqlite";
const env: Record<string, string | undefined> = { ...process.env, LOG_LEVEL: "silent", PORT: "0", DATA_DIR: mkdtempSync(join(tmpdir(), "mds-bench-")) };
if (engine === "sqlite") delete env.DATABASE_URL;
if (engine !== "postgres+redis") delete env.REDIS_URL;
// Processes of one run share a Redis namespace (BENCH_REDIS_PREFIX), as the processes of one deployment do.
else env.REDIS_PREFIX = process.env.BENCH_REDIS_PREFIX ?? `mds-bench-${process.pid}`;
const service = await createService(parseConfig(env, PROJECT_ROOT));
await importMissingDatasets(service, { progress: false });
const account = await service.services.accounts.createAccount({ name: "bench", webPlan: null, apiPlan: "scale" });
// The scale plan allows 200 calls per second per key; rotating keys keeps the limiter in the path without throttling the run.
const keys: string[] = [];
for (let i = 0; i < 400; i++) keys.push((await service.services.accounts.createKey(account.id)).key);
const url = await service.app.listen({ port: 0, host: "127.0.0.1" });
const sample = await fetch(`${url}/api/v1/ports/NLRTM`, { headers: { authorization: `Bearer ${keys[0]}` } });
process.stdout.write(`${JSON.stringify({ url, keys, body: await sample.text() })}\n`);
process.on("SIGTERM", async () => {
  await service.close();
  process.exit(0);
});
