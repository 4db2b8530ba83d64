/**
 * The backup and restore of docs/deploy.md, run end to end: a PostgreSQL deployment with the
 * bundled data, an account with an exact allowance and some credits used, dumped with
 * `pg_dump -Fc`, restored with `pg_restore` into a new database, and served from there by a
 * fresh API process (with an empty Redis namespace, as after losing Redis too). It checks
 * that the restored service is ready, knows the key, the credits used and the allowance
 * left, and keeps the partitioned positions table. Exits 1 on any miss.
 *
 *   DATABASE_URL=postgres://... REDIS_URL=redis://... node scripts/restore-drill.ts
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { PROJECT_ROOT } from "../src/main.ts";
import { type ServeProcess, startServe, waitForStatus } from "../test/helpers/serve-process.ts";

const ADMIN = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
if (!ADMIN || !REDIS_URL) {
  process.stderr.write("restore-drill: set DATABASE_URL and REDIS_URL\n");
  process.exit(1);
}
const say = (line: string) => process.stdout.write(`restore-drill  ${line}\n`);
const run = randomBytes(4).toString("hex");
const dir = mkdtempSync(join(tmpdir(), "mds-drill-"));
const names = { source: `mds_drill_src_${run}`, restored: `mds_drill_dst_${run}` };
const urlOf = (db: string) => {
  const u = new URL(ADMIN);
  u.pathname = `/${db}`;
  return u.toString();
};
const secretsKey = randomBytes(32).toString("base64");
const envFor = (db: string, redisPrefix: string) => ({ DATABASE_URL: urlOf(db), REDIS_URL: REDIS_URL!, REDIS_PREFIX: redisPrefix, DATA_DIR: dir, SECRETS_KEY: secretsKey, LOG_LEVEL: "warn" });
const mds = (args: string[], env: Record<string, string>) => execFileSync(process.execPath, [join(PROJECT_ROOT, "bin/mds.ts"), ...args], { env: { ...process.env, ...env }, encoding: "utf8" }).trim();
const procs: ServeProcess[] = [];
const admin = new pg.Client({ connectionString: ADMIN });

async function stop(p: ServeProcess): Promise<void> {
  p.child.kill("SIGTERM");
  const end = await p.exited;
  assert.equal(end.code, 0, `serve stopped with ${end.code ?? end.signal}`);
}

async function paid(base: string, key: string): Promise<number> {
  const r = await fetch(`${base}/api/v1/ports/NLRTM`, { headers: { authorization: `Bearer ${key}` } });
  await r.arrayBuffer();
  return r.status;
}

async function main(): Promise<void> {
  await admin.connect();
  await admin.query(`CREATE DATABASE ${names.source}`);
  const source = envFor(names.source, `mds-drill-${run}-a`);

  // A deployment in use: the bundled data, an account with 5 credits a month, 2 of them spent.
  mds(["migrate"], source);
  const worker = await startServe(["--role", "worker"], source, 300_000);
  procs.push(worker);
  await waitForStatus(`${worker.base}/readyz`, 200, 300_000);
  await stop(worker);
  const key = JSON.parse(mds(["keys", "create", "--plan", "developer", "--json"], source)) as { key: string; account: string };
  mds(["accounts", "set", key.account, "--monthly-credits-total", "5"], source);
  const api = await startServe(["--role", "api"], source);
  procs.push(api);
  await waitForStatus(`${api.base}/readyz`, 200);
  assert.deepEqual([await paid(api.base, key.key), await paid(api.base, key.key)], [200, 200]);
  await stop(api);
  say("source: bundled data, one account with 5 credits a month and 2 spent");

  // The backup and the restore, as docs/deploy.md gives them.
  const dump = join(dir, "mds.dump");
  execFileSync("pg_dump", ["--format=custom", `--file=${dump}`, urlOf(names.source)]);
  say(`pg_dump --format=custom: ${(statSync(dump).size / 1e6).toFixed(1)} MB`);
  await admin.query(`CREATE DATABASE ${names.restored}`);
  execFileSync("pg_restore", ["--no-owner", "--exit-on-error", `--dbname=${urlOf(names.restored)}`, dump]);
  say("pg_restore into a new database");

  // Served from the restored database, with a Redis that never saw this deployment.
  const restored = envFor(names.restored, `mds-drill-${run}-b`);
  const again = await startServe(["--role", "api"], restored);
  procs.push(again);
  await waitForStatus(`${again.base}/readyz`, 200, 30_000);
  const usage = await fetch(`${again.base}/api/v1/usage`, { headers: { authorization: `Bearer ${key.key}` } });
  const body = (await usage.json()) as { data: { credits: { limit: number; used: number } } };
  assert.equal(body.data.credits.limit, 5, "the account's own allowance survived");
  assert.equal(body.data.credits.used, 2, "the credits spent survived");
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push(await paid(again.base, key.key));
  assert.deepEqual(statuses, [200, 200, 200, 402], "exactly the 3 credits left");
  await stop(again);
  const c = new pg.Client({ connectionString: urlOf(names.restored) });
  await c.connect();
  const parts = await c.query("SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'positions'::regclass");
  await c.end();
  assert.ok(parts.rows[0].n > 1, "positions is still partitioned");
  say(`restored service: ready, the key works, credits used 2 of 5, then 3 more and a 402; positions in ${parts.rows[0].n} partitions`);
  say("passed");
}

let failed = false;
try {
  await main();
} catch (e) {
  failed = true;
  process.stderr.write(`restore-drill: FAILED: ${e instanceof Error ? e.message : String(e)}\n`);
  for (const p of procs) if (p.stderr.length > 0) process.stderr.write(p.stderr.join("").slice(-2000));
} finally {
  for (const p of procs) p.child.kill("SIGKILL");
  for (const db of Object.values(names)) await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`).catch(() => undefined);
  await admin.end();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
