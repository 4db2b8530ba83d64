import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { KEY_CHANGES_APPLICATION_NAME, PostgresKeyRevocations } from "../../../../src/adapters/storage/accounts/postgres-key-revocations.ts";
import { parseConfig } from "../../../../src/config.ts";
import { createService, PROJECT_ROOT, type Service } from "../../../../src/main.ts";
import { ANNOUNCED_KEY_CACHE_TTL_MS } from "../../../../src/operations/authenticate.ts";
import { spawnCli } from "../../../cli/run-cli.ts";
import { startTestService, TestClock, type TestService } from "../../../helpers/service.ts";

/**
 * PostgreSQL without Redis: the database announces key and account changes (migration 0035)
 * and each process listens, so a key is kept a minute and still refused everywhere at once.
 * Both processes' clocks stand still unless a test moves them, so a cached entry never expires
 * by itself: only a notice, or the listener's loss, can change an answer.
 */

async function usage(s: Service, key: string): Promise<{ status: number; code: string | undefined; limit: number | undefined }> {
  const res = await s.app.inject({ method: "GET", url: "/api/v1/usage", headers: { authorization: `Bearer ${key}` } });
  const body = res.json() as { error?: { code?: string }; data?: { credits: { limit: number } } };
  return { status: res.statusCode, code: body.error?.code, limit: body.data?.credits.limit };
}

/** Asks again until `done` holds or about 5 s of real time have passed (a bound far above a notice's delivery, not a timing claim); returns the last answer. */
async function until<T>(ask: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  let last = await ask();
  for (let i = 0; i < 250 && !done(last); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    last = await ask();
  }
  return last;
}

const refused = (r: { status: number }) => r.status === 401;

function listenerOf(s: Service): PostgresKeyRevocations {
  assert.ok(s.revocations instanceof PostgresKeyRevocations, "PostgreSQL without Redis listens for key changes");
  return s.revocations;
}

const postgres = process.env.DATABASE_URL;

describe("key revocation on PostgreSQL without Redis (LISTEN/NOTIFY)", { skip: postgres ? false : "DATABASE_URL is not set" }, () => {
  let a: TestService;
  let b: Service;
  let sql: pg.Client;
  before(async () => {
    a = await startTestService({ engine: "postgres", withData: false });
    // Another process of the deployment: the same database, its own caches and clock.
    b = await createService(parseConfig({ LOG_LEVEL: "silent", DATA_DIR: a.service.config.dataDir, DATABASE_URL: a.service.config.databaseUrl! }, PROJECT_ROOT), { clock: new TestClock() });
    sql = new pg.Client({ connectionString: a.service.config.databaseUrl });
    await sql.connect();
    assert.ok(listenerOf(a.service).listening && listenerOf(b).listening, "both listen once started");
  });
  after(async () => {
    await sql.end();
    await b.close();
    await a.close();
  });

  it("a key revoked in another process is refused here on the next calls", async () => {
    const k = await a.key("scale", "revoked elsewhere");
    assert.equal((await usage(a.service, k.key)).status, 200, "cached here");
    assert.equal(await b.services.accounts.revokeKey(k.keyId), true);
    assert.deepEqual(await until(() => usage(a.service, k.key), refused), { status: 401, code: "api_key_revoked", limit: undefined });
  });

  it("a key revoked by a direct SQL UPDATE is refused by both processes", async () => {
    const k = await a.key("scale", "revoked by sql");
    assert.equal((await usage(a.service, k.key)).status, 200);
    assert.equal((await usage(b, k.key)).status, 200);
    await sql.query("UPDATE api_keys SET revoked_at = $1 WHERE id = $2", [Date.now(), k.keyId]);
    assert.equal((await until(() => usage(a.service, k.key), refused)).code, "api_key_revoked");
    assert.equal((await until(() => usage(b, k.key), refused)).code, "api_key_revoked");
  });

  it("a key revoked with `mds keys revoke` (its own process, which exits) is refused here", async () => {
    const k = await a.key("scale", "revoked by the command");
    assert.equal((await usage(a.service, k.key)).status, 200);
    const run = await spawnCli(["keys", "revoke", k.keyId], { DATA_DIR: a.service.config.dataDir, DATABASE_URL: a.service.config.databaseUrl! });
    assert.equal(run.code, 0, run.stderr);
    assert.equal((await until(() => usage(a.service, k.key), refused)).code, "api_key_revoked");
  });

  it("an allowance changed in another process applies to this one's next calls", async () => {
    const k = await a.key("pro", "deal elsewhere");
    const before = (await usage(a.service, k.key)).limit!;
    assert.equal(await b.services.accounts.setDeal(k.accountId, { monthlyCredits: before + 13, extraMonthlyCredits: null, ratePerSecond: null }), true);
    assert.equal((await until(() => usage(a.service, k.key), (r) => r.limit !== before)).limit, before + 13);
  });

  it("a plan changed in another process applies to this one's next calls", async () => {
    const k = await a.key("developer", "plan elsewhere");
    const before = (await usage(a.service, k.key)).limit!;
    await b.services.accounts.setPlan(k.accountId, "api", "scale");
    const after = (await until(() => usage(a.service, k.key), (r) => r.limit !== before)).limit!;
    assert.ok(after > before, `the scale plan's allowance (${after}) replaces the developer plan's (${before})`);
  });

  it("while listening, a key is kept a minute: a change made without a notice is seen only when the minute is up", async () => {
    const k = await a.key("scale", "kept a minute");
    assert.equal((await usage(a.service, k.key)).status, 200, "looked up and cached");
    // A revocation the triggers do not announce (disabled for this one statement): only the cache's lifetime can end the key here.
    await sql.query("BEGIN");
    await sql.query("ALTER TABLE api_keys DISABLE TRIGGER api_keys_announce_change");
    await sql.query("UPDATE api_keys SET revoked_at = $1 WHERE id = $2", [Date.now(), k.keyId]);
    await sql.query("ALTER TABLE api_keys ENABLE TRIGGER api_keys_announce_change");
    await sql.query("COMMIT");
    a.clock.t += ANNOUNCED_KEY_CACHE_TTL_MS - 1_000;
    assert.equal((await usage(a.service, k.key)).status, 200, "not looked up again within the minute");
    a.clock.t += 2_000;
    assert.equal((await usage(a.service, k.key)).code, "api_key_revoked", "looked up again once the minute is up");
  });

  it("when the listening connection is killed, nothing cached is trusted until it listens again, and then notices arrive again", async () => {
    const listener = listenerOf(a.service);
    const pid = listener.backendPid;
    const found = await sql.query("SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database() AND pid = $2", [KEY_CHANGES_APPLICATION_NAME, pid]);
    assert.equal(found.rowCount, 1, "the listener is found by its application name");

    const k = await a.key("scale", "listener killed");
    assert.equal((await usage(a.service, k.key)).status, 200, "cached while listening");
    await sql.query("SELECT pg_terminate_backend($1)", [pid]);
    // It tries to connect again only after a second; the loss itself is seen sooner.
    await until(
      async () => listener.listening,
      (up) => !up,
    );
    // The revocation's notice cannot reach the killed connection; A must not serve the key from its cache.
    await sql.query("UPDATE api_keys SET revoked_at = $1 WHERE id = $2", [Date.now(), k.keyId]);
    assert.equal((await until(() => usage(a.service, k.key), refused)).code, "api_key_revoked");

    // Down (or already back): a key cached meanwhile and revoked unannounced is dropped within the short bound or on reconnecting.
    const k2 = await a.key("scale", "cached while down");
    assert.equal((await usage(a.service, k2.key)).status, 200);
    await sql.query("BEGIN");
    await sql.query("ALTER TABLE api_keys DISABLE TRIGGER api_keys_announce_change");
    await sql.query("UPDATE api_keys SET revoked_at = $1 WHERE id = $2", [Date.now(), k2.keyId]);
    await sql.query("ALTER TABLE api_keys ENABLE TRIGGER api_keys_announce_change");
    await sql.query("COMMIT");
    const wasDown = !listener.listening;
    if (wasDown) assert.equal((await until(() => usage(a.service, k2.key), refused)).code, "api_key_revoked", "forgotten while not listening");

    // Listening again, on a new connection, and notices reach it.
    await until(
      async () => listener.listening,
      (up) => up,
    );
    assert.ok(listener.listening, "listening again");
    assert.notEqual(listener.backendPid, pid);
    const k3 = await a.key("scale", "after reconnecting");
    assert.equal((await usage(a.service, k3.key)).status, 200);
    await b.services.accounts.revokeKey(k3.keyId);
    assert.equal((await until(() => usage(a.service, k3.key), refused)).code, "api_key_revoked");
  });
});

describe("the key change listener, alone", { skip: postgres ? false : "DATABASE_URL is not set" }, () => {
  it("forgets everything while it cannot connect, and close() ends it", async () => {
    const forgotten: unknown[] = [];
    // Nothing listens on port 1: the connection is refused, as when the server is down.
    const listener = new PostgresKeyRevocations("postgres://postgres@127.0.0.1:1/none", (what) => forgotten.push(what), { everyMs: 20 });
    await listener.ready();
    assert.equal(listener.listening, false);
    const seen = await until(
      async () => forgotten.filter((w) => w === "all").length,
      (n) => n >= 3,
    );
    assert.ok(seen >= 3, "everything forgotten on each try while down");
    await listener.close();
  });
});
