/**
 * Issue 18, UDP station key: the MAC key of signed datagrams was SHA-256(secret), the very
 * digest `stations.secret_hash` stores, so whoever could read the database could forge any
 * station's datagrams. Each station now has a UDP key of its own, HMAC-SHA256(secret,
 * "mds-udp-v1"), stored only sealed under the secrets key outside the database. Checked
 * with an attacker's eyes: every value of the station's row, and the file's bytes.
 */
import assert from "node:assert/strict";
import { createHash, createSecretKey, type KeyObject, randomBytes } from "node:crypto";
import { createSocket } from "node:dgram";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { signDatagram, udpKeyFromSecret } from "../../../src/adapters/ingest/udp-signature.ts";
import { parseConfig } from "../../../src/config.ts";
import { udpSigningKey } from "../../../src/domain/secrets.ts";
import { createService, PROJECT_ROOT, type Service } from "../../../src/main.ts";
import { TestClock } from "../../helpers/service.ts";
import { positionLine } from "../../helpers/ingest.ts";

const sender = createSocket("udp4");
sender.on("error", () => {});

describe("UDP station keys at rest", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "mds-udp-key-"));
  const clock = new TestClock();
  let s: Service;
  let udpPort = 0;
  let sent = 0;
  let station = { id: 0, secret: "" };

  const open = async () => {
    s = await createService(parseConfig({ LOG_LEVEL: "silent", DATA_DIR: dataDir }, PROJECT_ROOT), { clock });
    udpPort = (await s.ingest.listen({ host: "127.0.0.1", tcpPort: null, udpPort: 0 })).udpPort!;
    sent = 0;
  };
  before(async () => {
    await open();
    const a = await s.services.accounts.createAccount({ name: "udp", webPlan: "pro", apiPlan: null });
    const created = await s.services.stations.createStation(a.id, "roof");
    station = { id: created.station.id, secret: created.secret };
  });
  after(async () => {
    await s.close();
    sender.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Sends one signed datagram carrying a position of `mmsi`; resolves once the listener has handled it. */
  const sendSigned = async (key: KeyObject, stationId: number, mmsi: number) => {
    const msg = signDatagram(key, stationId, Math.floor(clock.now() / 1000), sent, [positionLine({ mmsi, lat: 60, lon: 25 })]);
    await new Promise<void>((resolve) => sender.send(msg, udpPort, "127.0.0.1", () => resolve()));
    sent++;
    const deadline = Date.now() + 5_000;
    while (s.ingest.udp!.datagrams() < sent && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await s.ingest.pipeline.flush();
  };
  const stored = async (mmsi: number) => (await s.store.db.selectFrom("positions").select("mmsi").where("mmsi", "=", mmsi).execute()).length;
  const counter = async (name: string) => (await s.services.positions.counters([station.id]))[0]?.counters[name] ?? 0;
  const databaseBytes = () => Buffer.concat(["mds.sqlite", "mds.sqlite-wal"].map((f) => join(dataDir, f)).filter(existsSync).map((f) => readFileSync(f)));

  it("a datagram signed with the key derived from the secret is stored", async () => {
    await sendSigned(udpKeyFromSecret(station.secret), station.id, 257_100_001);
    assert.equal(await stored(257_100_001), 1);
  });

  it("the database holds nothing a valid MAC can be computed from: every value of the row, raw or hashed, is refused as a key", async () => {
    const row = await s.store.db.selectFrom("stations").selectAll().where("id", "=", station.id).executeTakeFirstOrThrow();
    assert.match(row.udp_key ?? "", /^v1:[0-9a-f]{8}:/, "the UDP key is stored sealed");
    const candidates: Buffer[] = [];
    for (const v of Object.values(row)) {
      const text = String(v);
      const forms = [Buffer.from(text, "utf8"), ...(/^[0-9a-f]+$/i.test(text) && text.length % 2 === 0 ? [Buffer.from(text, "hex")] : [])];
      for (const f of forms) candidates.push(f, createHash("sha256").update(f).digest());
    }
    // The key the service used before: SHA-256 of the secret, which is exactly secret_hash.
    assert.ok(candidates.some((c) => c.equals(Buffer.from(row.secret_hash, "hex"))));
    let mmsi = 257_100_100;
    for (const c of candidates) {
      if (c.length === 0) continue;
      await sendSigned(createSecretKey(c), station.id, ++mmsi);
      assert.equal(await stored(mmsi), 0, `a key taken from the database (${c.toString("hex").slice(0, 16)}...) signed a datagram`);
    }
    assert.equal(await counter("unauthenticated"), candidates.filter((c) => c.length > 0).length, "each forged datagram is counted");
    await s.close();
    const bytes = databaseBytes();
    const key = udpSigningKey(station.secret);
    for (const form of [key, Buffer.from(key.toString("hex")), Buffer.from(key.toString("base64")), Buffer.from(station.secret)]) {
      assert.equal(bytes.includes(form), false, "the UDP key or the secret is in the database file");
    }
    await open();
  });

  it("a station from before per-station keys is refused over UDP (counted) until its secret is rotated; then only the new secret signs", async () => {
    await s.store.db.updateTable("stations").set({ udp_key: null }).where("id", "=", station.id).execute();
    s.ingest.directory.forget();
    const before = await counter("unauthenticated");
    await sendSigned(udpKeyFromSecret(station.secret), station.id, 257_100_500);
    assert.equal(await stored(257_100_500), 0);
    assert.equal(await counter("unauthenticated"), before + 1);
    const metrics = (await s.app.inject({ method: "GET", url: "/metrics" })).body;
    assert.match(metrics, /mds_ingest_unauthenticated_total\{transport="udp",reason="no_udp_key"\} 1/);

    const rotated = await s.services.stations.rotateSecret(station.id);
    assert.ok(rotated);
    assert.notEqual(rotated.secret, station.secret);
    s.ingest.directory.forget();
    await sendSigned(udpKeyFromSecret(rotated.secret), station.id, 257_100_501);
    assert.equal(await stored(257_100_501), 1);
    await sendSigned(udpKeyFromSecret(station.secret), station.id, 257_100_502);
    assert.equal(await stored(257_100_502), 0, "the old secret's key no longer signs");
    assert.equal(await s.ingest.directory.bySecret(station.secret), null, "nor logs in over TCP or HTTP");
    assert.equal((await s.ingest.directory.bySecret(rotated.secret))?.id, station.id);
    assert.equal(await s.services.stations.rotateSecret(999_999), null);
  });
});

describe("UDP station keys across a rotation of SECRETS_KEY", () => {
  it("keys sealed under the previous key are re-sealed under the new one at start, and keep verifying", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "mds-udp-rotate-"));
    const [k1, k2] = [randomBytes(32).toString("base64"), randomBytes(32).toString("base64")];
    const open = (env: Record<string, string>) => createService(parseConfig({ LOG_LEVEL: "silent", DATA_DIR: dataDir, ...env }, PROJECT_ROOT), { clock: new TestClock() });
    const sealedKey = async (svc: Service, id: number) => (await svc.store.db.selectFrom("stations").select("udp_key").where("id", "=", id).executeTakeFirstOrThrow()).udp_key!;
    try {
      let svc = await open({ SECRETS_KEY: k1 });
      const a = await svc.services.accounts.createAccount({ name: "rot", webPlan: "pro", apiPlan: null });
      const { station, secret } = await svc.services.stations.createStation(a.id, "mast");
      const before = await sealedKey(svc, station.id);
      await svc.close();

      svc = await open({ SECRETS_KEY: k2, SECRETS_KEY_PREVIOUS: k1 });
      const after = await sealedKey(svc, station.id);
      assert.notEqual(after.split(":")[1], before.split(":")[1], "sealed under the new key");
      await svc.close();

      // Without the previous key the station still verifies: its key was re-sealed under k2.
      svc = await open({ SECRETS_KEY: k2 });
      const loaded = (await svc.services.positions.stationById(station.id))!;
      assert.ok(svc.ingest.directory.udpKey(loaded)?.equals(udpKeyFromSecret(secret)));
      await svc.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
