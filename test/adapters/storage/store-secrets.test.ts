/**
 * Issue 18 item 5: webhook signing secrets (current and previous) were stored in plaintext.
 * They are now sealed with AES-256-GCM under a key outside the database (SECRETS_KEY, or
 * DATA_DIR/secrets.key made with mode 0600). Checked on the SQLite file's bytes: no secret
 * in it after creating and rotating endpoints, after sealing plaintext left from before, and
 * after a key rotation; the worker still gets the secrets it signs with.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { ConfigError, parseConfig } from "../../../src/config.ts";
import { createService, PROJECT_ROOT, type Service } from "../../../src/main.ts";
import { TestClock } from "../../helpers/service.ts";

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function open(dataDir: string, env: Record<string, string> = {}): Promise<Service> {
  return createService(parseConfig({ LOG_LEVEL: "silent", DATA_DIR: dataDir, ...env }, PROJECT_ROOT), { clock: new TestClock() });
}

/** The database as bytes on disk, write-ahead log included. */
function databaseBytes(dataDir: string): Buffer {
  const files = ["mds.sqlite", "mds.sqlite-wal"].map((f) => join(dataDir, f)).filter((f) => existsSync(f));
  return Buffer.concat(files.map((f) => readFileSync(f)));
}

async function api(s: Service, key: string, method: string, url: string, payload?: unknown) {
  const res = await s.app.inject({ method: method as "GET", url, headers: { authorization: `Bearer ${key}` }, ...(payload !== undefined ? { payload: payload as string } : {}) });
  return res.json() as Record<string, any>;
}

/** The secrets the worker would sign a delivery to this endpoint with. */
async function signingSecrets(s: Service, accountId: string, endpointId: number): Promise<string[]> {
  const now = s.services.clock.now();
  const d = await s.services.webhooks.createSingleDelivery(accountId, endpointId, "webhook.test", (id) => JSON.stringify({ id: `evt_${id}` }), "test", now);
  const [claim] = await s.services.webhooks.claimDue(now, 60_000, 1, d!);
  return claim!.secrets;
}

describe("webhook secrets at rest", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "mds-secrets-"));
  dirs.push(dataDir);
  const shown: string[] = [];
  let accountId = "";
  let rotatedId = 0;

  it("created and rotated secrets are nowhere in the database file; the key file is 0600; signing uses the real secrets", async () => {
    const s = await open(dataDir);
    const a = await s.services.accounts.createAccount({ name: "secrets", webPlan: null, apiPlan: "scale" });
    accountId = a.id;
    const { key } = await s.services.accounts.createKey(a.id);
    for (const n of [1, 2]) shown.push((await api(s, key, "POST", "/api/v1/account/webhooks", { url: `https://hooks${n}.example.com/in` })).data.secret);
    const eps = (await api(s, key, "GET", "/api/v1/account/webhooks")).data;
    rotatedId = Number(eps[0].id.slice(3));
    const rotated = await api(s, key, "POST", `/api/v1/account/webhooks/${eps[0].id}/rotate-secret`);
    shown.push(rotated.data.secret);
    assert.deepEqual(await signingSecrets(s, accountId, rotatedId), [shown[2], shown[0]], "the new secret, then the previous one in its grace period");
    await s.close();

    assert.equal(statSync(join(dataDir, "secrets.key")).mode & 0o777, 0o600);
    const bytes = databaseBytes(dataDir);
    for (const secret of shown) {
      assert.match(secret, /^whsec_/);
      assert.equal(bytes.includes(secret), false, "a secret is in the database file");
      assert.equal(bytes.includes(secret.slice(6)), false, "a secret's random part is in the database file");
    }
  });

  it("a plaintext secret from before sealing is sealed at the next start and still signs", async () => {
    const plain = `whsec_${randomBytes(16).toString("hex")}`;
    let s = await open(dataDir);
    await s.store.db.updateTable("webhook_endpoints").set({ secret: plain }).where("id", "=", rotatedId).execute();
    await s.close();
    assert.equal(databaseBytes(dataDir).includes(plain), true, "the test wrote the plaintext");
    s = await open(dataDir);
    assert.equal((await signingSecrets(s, accountId, rotatedId))[0], plain);
    await s.close();
    assert.equal(databaseBytes(dataDir).includes(plain), false);
    shown.push(plain);
  });

  it("rotation: with the new key and the old as SECRETS_KEY_PREVIOUS every secret is re-sealed, then the new key alone opens them", async () => {
    const oldKey = readFileSync(join(dataDir, "secrets.key"), "utf8").trim();
    const newKey = randomBytes(32).toString("base64");
    let s = await open(dataDir, { SECRETS_KEY: newKey, SECRETS_KEY_PREVIOUS: oldKey });
    await s.close();
    s = await open(dataDir, { SECRETS_KEY: newKey });
    assert.equal((await signingSecrets(s, accountId, rotatedId))[0], shown[3]);
    await s.close();
    const bytes = databaseBytes(dataDir);
    for (const secret of shown) assert.equal(bytes.includes(secret), false);
    // The old key alone no longer opens anything: the service refuses to start, naming the variables to set.
    await assert.rejects(open(dataDir, { SECRETS_KEY: oldKey }), /neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS/);
  });

  it("a SECRETS_KEY that is not 32 bytes of base64 is refused, naming the variable", () => {
    for (const bad of ["short", randomBytes(16).toString("base64"), `${randomBytes(32).toString("hex")}`]) {
      assert.throws(() => parseConfig({ SECRETS_KEY: bad }, PROJECT_ROOT), (e: unknown) => e instanceof ConfigError && /^SECRETS_KEY: must be 32 bytes in base64/.test(e.problems[0]!));
    }
  });
});
