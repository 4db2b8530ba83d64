import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { hashSecret } from "../../../src/domain/secrets.ts";
import type { PortRow } from "../../../src/interfaces/reference.ts";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";

const port = (unlocode: string, over: Partial<PortRow> = {}): PortRow => ({
  unlocode,
  country: unlocode.slice(0, 2),
  location: unlocode.slice(2),
  name: `Port ${unlocode}`,
  nameAscii: `Port ${unlocode}`,
  subdivision: null,
  subdivisionName: null,
  functions: "1-------",
  functionNames: ["port"],
  status: "AI",
  iata: null,
  changed: null,
  edition: "2018-1",
  lat: 51.5,
  lon: 4.25,
  coordSource: "unlocode",
  wpi: null,
  details: { alternateNames: [], remarks: null, notes: [] },
  ...over,
});

/** One suite, every engine: the stores behave the same on SQLite and PostgreSQL. */
for (const engine of ENGINES) {
  describe(`storage contract (${engine})`, () => {
    let t: TestService;
    before(async () => {
      t = await startTestService({ engine, withData: false });
    });
    after(() => t.close());

    it("accounts hold a web and an API plan", async () => {
      const a = await t.service.services.accounts.createAccount({ name: "acme", webPlan: "pro", apiPlan: null });
      await t.service.services.accounts.setPlan(a.id, "api", "growth");
      const back = await t.service.services.accounts.getAccount(a.id);
      assert.deepEqual({ web: back?.webPlan, api: back?.apiPlan, name: back?.name }, { web: "pro", api: "growth", name: "acme" });
      assert.equal((await t.service.services.accounts.findAccountByName("acme"))?.id, a.id);
      assert.equal(await t.service.services.accounts.getAccount("acc_missing"), null);
    });

    it("keys are stored only as a hash, found by it, and revocable", async () => {
      const a = await t.service.services.accounts.createAccount({ name: "k", webPlan: "sandbox", apiPlan: null });
      const k = await t.service.services.accounts.createKey(a.id, "ci");
      assert.match(k.key, /^mds_sk_[0-9A-Za-z]{32}$/);
      const rows = await t.service.store.db.selectFrom("api_keys").selectAll().where("id", "=", k.id).execute();
      assert.equal(rows.length, 1);
      assert.ok(!JSON.stringify(rows).includes(k.key), "the key text is not stored");
      const found = await t.service.services.accounts.findKeyByHash(hashSecret(k.key));
      assert.deepEqual(found, { keyId: k.id, accountId: a.id, revoked: false, webPlan: "sandbox", apiPlan: null, deal: { monthlyCredits: null, extraMonthlyCredits: null, ratePerSecond: null } });
      assert.equal(await t.service.services.accounts.revokeKey(k.id), true);
      assert.equal(await t.service.services.accounts.revokeKey(k.id), false);
      assert.equal((await t.service.services.accounts.findKeyByHash(hashSecret(k.key)))?.revoked, true);
      assert.equal((await t.service.services.accounts.listKeys(a.id))[0]?.start, k.key.slice(0, 11));
    });

    it("charges are atomic: 100 parallel charges of 3 against 150 credits let exactly 50 through", async () => {
      const a = await t.service.services.accounts.createAccount({ name: "c", webPlan: "sandbox", apiPlan: null });
      const k = await t.service.services.accounts.createKey(a.id);
      const results = await Promise.all(Array.from({ length: 100 }, () => t.service.services.ledger.charge(a.id, k.id, "2026-11", 3, 150)));
      assert.equal(results.filter((r) => r.ok).length, 50);
      const u = await t.service.services.ledger.usage(a.id, k.id, "2026-11");
      assert.deepEqual(u, { used: 150, keyCalls: 50, keyCredits: 150 });
      await t.service.services.ledger.refund(a.id, k.id, "2026-11", 3);
      assert.equal((await t.service.services.ledger.usage(a.id, k.id, "2026-11")).used, 147);
      // Months are separate allowances.
      assert.equal((await t.service.services.ledger.charge(a.id, k.id, "2026-12", 3, 150)).ok, true);
    });

    it("stations get increasing integer ids and a secret stored only as a hash", async () => {
      const a = await t.service.services.accounts.createAccount({ name: "s", webPlan: "pro", apiPlan: null });
      const s1 = await t.service.services.stations.createStation(a.id, "roof");
      const s2 = await t.service.services.stations.createStation(a.id, "harbour");
      assert.ok(Number.isInteger(s1.station.id) && s2.station.id > s1.station.id);
      assert.match(s1.secret, /^mds_st_/);
      assert.deepEqual((await t.service.services.stations.listStations(a.id)).map((s) => s.name), ["roof", "harbour"]);
    });

    it("a deleted station leaves its owner's list, accepts no secret, releases its port and sharing, and stays the owner's", async () => {
      const a = await t.service.services.accounts.createAccount({ name: "del", webPlan: "pro", apiPlan: null });
      const { station, secret } = await t.service.services.stations.createStation(a.id, "gone", { plainPort: true, shared: true });
      const port = station.plainPort;
      assert.ok(port !== null);
      assert.equal(await t.service.services.stations.deleteStation(station.id), true);
      assert.equal(await t.service.services.stations.deleteStation(station.id), false, "once");
      assert.equal(await t.service.services.stations.deleteStation(0), false);
      assert.equal(await t.service.services.stations.getStation(station.id), null);
      assert.deepEqual(await t.service.services.stations.listStations(a.id), []);
      // Nothing brings it back: no new secret, no settings, no port.
      assert.equal(await t.service.services.stations.rotateSecret(station.id), null);
      assert.equal(await t.service.services.stations.updateStation(station.id, { shared: true, plainPort: true }), null);
      assert.equal(await t.service.services.positions.stationBySecretHash(hashSecret(secret)), null);
      assert.ok(!(await t.service.services.stations.receiverStations()).some((s) => s.id === station.id));
      assert.ok(!(await t.service.services.stations.sharedStations()).some((s) => s.id === station.id));
      // Its port can go to another station; what it delivered still names it and stays the owner's.
      const next = await t.service.services.stations.createStation(a.id, "next", { plainPort: true });
      assert.equal(next.station.plainPort, port);
      const rows = await t.service.store.db.selectFrom("stations").select(["id", "deleted_at"]).where("account_id", "=", a.id).orderBy("id").execute();
      assert.deepEqual(rows.map((r) => [r.id, r.deleted_at === null]), [[station.id, false], [next.station.id, true]]);
    });

    it("ports are replaced all or nothing, listed in code order and paged by country", async () => {
      const ports = t.service.services.ports;
      await ports.replaceAll([port("NLRTM"), port("BEANR"), port("NLAMS"), port("DEHAM", { lat: null, lon: null, coordSource: null })]);
      assert.deepEqual((await ports.list({ limit: 10 })).map((p) => p.unlocode), ["BEANR", "DEHAM", "NLAMS", "NLRTM"]);
      assert.deepEqual((await ports.list({ country: "NL", after: "NLAMS", limit: 10 })).map((p) => p.unlocode), ["NLRTM"]);
      assert.deepEqual(await ports.get("NLRTM"), port("NLRTM"));
      // A duplicate code breaks the primary key halfway: the old rows must survive whole.
      await assert.rejects(ports.replaceAll([port("FRLEH"), port("FRLEH")]));
      assert.equal(await ports.count(), 4);
    });

    it("flags and the dataset log round-trip", async () => {
      await t.service.services.flags.replaceAll([{ iso2: "NL", name: "Netherlands", record: { mids: [244, 245, 246] } }]);
      assert.deepEqual(await t.service.services.flags.get("NL"), { iso2: "NL", name: "Netherlands", record: { mids: [244, 245, 246] } });
      assert.equal(await t.service.services.flags.get("XX"), null);
      await t.service.datasets.record("ports", 4, "test", 1);
      await t.service.datasets.record("ports", 5, "test again", 2);
      assert.deepEqual(await t.service.datasets.get("ports"), { rows: 5, origin: "test again", importedAt: 2 });
    });
  });
}
