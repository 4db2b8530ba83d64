import { createHash, randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { DATASETS, importMissingDatasets } from "../../src/adapters/importers/datasets.ts";
import { columnTypes } from "../../src/adapters/storage/migrations/column-types.ts";
import { allMigrations } from "../../src/adapters/storage/migrations/index.ts";
import { openStore } from "../../src/adapters/storage/database.ts";
import { type Config, parseConfig } from "../../src/config.ts";
import type { PlanId } from "../../src/domain/plans.ts";
import { createService, DATASETS_DIR, type OAuthSeams, PROJECT_ROOT, type Service } from "../../src/main.ts";
import type { Clock } from "../../src/interfaces/clock.ts";
import type { WebhooksOptions } from "../../src/adapters/webhooks/runtime.ts";
import type { FeedRunnerOptions } from "../../src/adapters/ingest/feeds/runner.ts";
import { dropRedisKeys } from "./redis.ts";
import type { McpTaskSeams } from "../../src/adapters/mcp/tasks/task-runner.ts";

export type Engine = "sqlite" | "postgres";

/** The engines a contract suite runs on: SQLite always, PostgreSQL when DATABASE_URL is set. */
export const ENGINES: Engine[] = process.env.DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];

/** A manual clock for tests that move time. */
export class TestClock implements Clock {
  t: number;
  constructor(t = Date.parse("2026-11-20T12:00:00Z")) {
    this.t = t;
  }
  now(): number {
    return this.t;
  }
}

/** The template is rebuilt whenever the bundled data, the dataset list or the migrations change. */
function datasetsFingerprint(): string {
  const h = createHash("sha256");
  h.update(Object.keys(DATASETS).join(","));
  h.update(Object.keys(allMigrations(columnTypes("sqlite"))).join(","));
  // A migration changed in place before it ever shipped changes the template too.
  h.update(migrationsHash());
  for (const f of ["unlocode/unece_unlocode_2018-1_raw.csv.gz", "ports/wpi_UpdatedPub150.csv.gz", "flags/iso3166_country-codes.csv"]) {
    const p = join(DATASETS_DIR, f);
    h.update(`${f}:${existsSync(p) ? statSync(p).size : 0}`);
  }
  return h.digest("hex").slice(0, 12);
}

/**
 * SQLite template with the bundled data imported once per machine and code version; each
 * test copies it, so a test starts from real data in milliseconds.
 */
async function sqliteTemplate(): Promise<string> {
  const dir = join(tmpdir(), `mds-test-template-${datasetsFingerprint()}`);
  const file = join(dir, "mds.sqlite");
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), "mds-template-build-"));
  const s = await createService(config({ DATA_DIR: work }));
  await importMissingDatasets(s, { progress: false });
  await s.close();
  // Rename is atomic: test files building the template at once never see half of one.
  renameSync(join(work, "mds.sqlite"), file);
  rmSync(work, { recursive: true, force: true });
  return file;
}

/**
 * The schema's fingerprint: every migration's source, and today's UTC date (on PostgreSQL
 * migration 0020 makes daily partitions around the day it runs, so a template is of its day).
 */
function schemaFingerprint(): string {
  return createHash("sha256").update(migrationsHash()).update(new Date().toISOString().slice(0, 10)).digest("hex").slice(0, 12);
}

/** Every migration file's name and source. */
function migrationsHash(): string {
  const h = createHash("sha256");
  const dir = join(PROJECT_ROOT, "src", "adapters", "storage", "migrations");
  for (const f of readdirSync(dir).sort()) h.update(`${f}\0`).update(readFileSync(join(dir, f)));
  return h.digest("hex");
}

/**
 * An empty SQLite store with every migration run, built once per machine, schema and day;
 * a suite without the bundled data copies it instead of running the migrations again.
 */
async function sqliteEmptyTemplate(): Promise<string> {
  const dir = join(tmpdir(), `mds-test-empty-${schemaFingerprint()}`);
  const file = join(dir, "mds.sqlite");
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), "mds-empty-build-"));
  const store = await openStore({ engine: "sqlite", file: join(work, "mds.sqlite") });
  await store.close();
  renameSync(join(work, "mds.sqlite"), file);
  rmSync(work, { recursive: true, force: true });
  return file;
}

function config(env: Record<string, string | undefined>): Config {
  return parseConfig({ LOG_LEVEL: "silent", ...env }, PROJECT_ROOT);
}

export interface TestService {
  service: Service;
  clock: TestClock;
  /** A key on a fresh account of the plan. */
  key(plan: PlanId, accountName?: string): Promise<{ key: string; keyId: string; accountId: string }>;
  close(): Promise<void>;
}

const pgDatabases: string[] = [];

/**
 * Set on every database the tests make: commits do not wait for the WAL to reach the disk.
 * What a commit makes visible, and when, is unchanged (only a crash of the PostgreSQL server
 * itself could lose the last commits, and no test crashes it); a suite that commits
 * hundreds of times (the OFAC history imports 58 versions) no longer waits for a flush each time.
 */
export const NO_FLUSH_WAIT = "synchronous_commit = off";

/**
 * The PostgreSQL twins of the SQLite templates, built once per machine and code version:
 * `data` has the bundled data (every dataset imported), `empty` only the migrated schema.
 * Suites get a copy (`CREATE DATABASE ... TEMPLATE`, a file copy) instead of importing every
 * dataset or running every migration again.
 */
async function postgresTemplate(admin: string, kind: "data" | "empty"): Promise<string> {
  const prefix = kind === "data" ? "mds_tmpl_" : "mds_empty_";
  const name = `${prefix}${kind === "data" ? datasetsFingerprint() : schemaFingerprint()}`;
  const lock = kind === "data" ? 7274001 : 7274002;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    // One builder at a time on the machine; the others wait here and then find it built.
    await client.query("SELECT pg_advisory_lock($1)", [lock]);
    if ((await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 0) {
      const work = `${name}_build`;
      await client.query(`DROP DATABASE IF EXISTS ${work} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${work}`);
      await client.query(`ALTER DATABASE ${work} SET ${NO_FLUSH_WAIT}`);
      const url = new URL(admin);
      url.pathname = `/${work}`;
      if (kind === "data") {
        const dir = mkdtempSync(join(tmpdir(), "mds-template-build-"));
        const s = await createService(config({ DATA_DIR: dir, DATABASE_URL: url.toString() }));
        await importMissingDatasets(s, { progress: false });
        await s.close();
        rmSync(dir, { recursive: true, force: true });
      } else {
        const store = await openStore({ engine: "postgres", url: url.toString() });
        await store.close();
      }
      await client.query(`ALTER DATABASE ${work} RENAME TO ${name}`);
      // Templates of earlier code versions; one still in use stays (the drop fails) until next time.
      for (const old of (await client.query(`SELECT datname FROM pg_database WHERE datname LIKE '${prefix.replaceAll("_", "\\_")}%' AND datname NOT LIKE '%\\_build' AND datname <> $1`, [name])).rows) {
        await client.query(`DROP DATABASE IF EXISTS ${old.datname}`).catch(() => undefined);
      }
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [lock]).catch(() => undefined);
    await client.end();
  }
  return name;
}

/** A fresh PostgreSQL database for one suite (a copy of the data or the empty template), dropped at close. */
async function freshPostgres(withData: boolean): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = process.env.DATABASE_URL!;
  const name = `mds_test_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(`CREATE DATABASE ${name} TEMPLATE ${await postgresTemplate(admin, withData ? "data" : "empty")}`);
      await client.query(`ALTER DATABASE ${name} SET ${NO_FLUSH_WAIT}`);
      break;
    } catch (e) {
      // Copies of one template made at the same moment can find it "being accessed"; a moment later they do not.
      // A template of the day before can be dropped (a new day's was built) between finding and copying it.
      if (attempt >= 20 || !/being accessed|does not exist/.test((e as Error).message)) throw e;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  pgDatabases.push(name);
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function startTestService(
  options: { engine?: Engine; withData?: boolean; env?: Record<string, string>; webhooks?: WebhooksOptions; oauth?: OAuthSeams; feeds?: FeedRunnerOptions; mcpTasks?: McpTaskSeams } = {},
): Promise<TestService> {
  const engine = options.engine ?? "sqlite";
  const clock = new TestClock();
  const dataDir = mkdtempSync(join(tmpdir(), "mds-test-"));
  let drop: (() => Promise<void>) | null = null;
  const env: Record<string, string | undefined> = { DATA_DIR: dataDir, ...options.env };
  if (engine === "postgres") {
    const db = await freshPostgres(options.withData !== false);
    env.DATABASE_URL = db.url;
    drop = db.drop;
  } else {
    env.DATABASE_URL = undefined;
    copyFileSync(options.withData !== false ? await sqliteTemplate() : await sqliteEmptyTemplate(), join(dataDir, "mds.sqlite"));
  }
  // Each service gets its own rate-limit namespace, so suites sharing one Redis do not meet.
  const service = await createService(config(env), {
    clock,
    rateLimitPrefix: `mds:test:${randomBytes(4).toString("hex")}`,
    webhooks: options.webhooks,
    oauth: options.oauth,
    feeds: options.feeds,
    mcpTasks: options.mcpTasks,
    // Test and service share one process, so a stall of the whole process (a loaded machine) can let the listener's
    // keep-alive timer fire before it reads a request the client already sent on that socket: ECONNRESET. The
    // client keeps a socket 2 s less than the listener; a minute apart no stall reaches. The edge tests set their own.
    httpLimits: { keepAliveTimeoutMs: 60_000 },
  });
  return {
    service,
    clock,
    async key(plan, accountName = `${plan} account`) {
      const kind = plan === "developer" || plan === "growth" || plan === "scale" ? "api" : "web";
      const a = await service.services.accounts.createAccount({ name: accountName, webPlan: kind === "web" ? plan : null, apiPlan: kind === "api" ? plan : null });
      const k = await service.services.accounts.createKey(a.id);
      return { key: k.key, keyId: k.id, accountId: a.id };
    },
    async close() {
      await service.close();
      if (drop) await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** GET through the real HTTP stack in-process. */
export async function get(t: TestService, url: string, key?: string) {
  const res = await t.service.app.inject({ method: "GET", url, headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: res.statusCode, headers: res.headers, body: res.json() as Record<string, any> };
}

/** Any call to the service in-process: the key (or none), the method, a JSON body and extra headers. */
export async function call(t: TestService, key: string | null, method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) {
  const res = await t.service.app.inject({
    method: method as "GET",
    url,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    ...(payload !== undefined ? { payload: payload as string } : {}),
  });
  return { status: res.statusCode, body: res.json() as Record<string, any>, headers: res.headers };
}

/**
 * Two API processes of one deployment: one Redis and one REDIS_PREFIX of their own, each its
 * own store (what they share is what goes through Redis). `close` stops both and drops the prefix.
 */
export async function twoProcessesOnOneRedis(redisUrl: string): Promise<{ one: TestService; two: TestService; close: () => Promise<void> }> {
  const prefix = `mdstest${randomBytes(4).toString("hex")}`;
  const env = { REDIS_URL: redisUrl, REDIS_PREFIX: prefix };
  const one = await startTestService({ withData: false, env });
  const two = await startTestService({ withData: false, env });
  return {
    one,
    two,
    async close() {
      await one.close();
      await two.close();
      await dropRedisKeys(prefix, redisUrl);
    },
  };
}
