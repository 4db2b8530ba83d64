/**
 * `alert.sanctions` for every change of a watched vessel's designation, on real OFAC
 * publications imported in turn (rebuilt from the recorded history, as the change feed's
 * tests do): OMAN PRIDE (IMO 9153525) lost its flag on 2021-10-29 and was delisted on
 * 2022-01-31; YURY TOPCHEV's programme was relabelled on 2021-11-12; MARLIN was listed on
 * 2021-11-23. Signed deliveries at a test receiver, the delivery log through the API and the
 * webhook page, the content rules of spec 6.2, and one alert per account per vessel per
 * version whichever follows and watchlists name it.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { SanctionsAlerts } from "../../../src/adapters/alerts/sanctions-alerts.ts";
import { allWatchers, followWatchers, watchlistWatchers } from "../../../src/adapters/alerts/vessel-watchers.ts";
import type { VesselWatchers } from "../../../src/interfaces/alerts.ts";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";
import { importBytes, OFAC_2024_05_03, ofacCsvBefore } from "../../helpers/sanctions.ts";
import { ofacWithRenames } from "../../helpers/sanctions-fixtures.ts";
import { sourcesFile } from "../../helpers/sources-file.ts";
import { HOOK_HOST, type Receiver, startReceiver, transportFor, verifyReceived } from "../../helpers/webhooks.ts";
import { Browser, makeUser } from "../web/helpers.ts";

// Each test file that starts a receiver has an address of its own: files run in parallel.
const RECEIVER = "127.0.0.14";
const OMAN_PRIDE = 9153525;
const YURY_TOPCHEV = 9338230;
const MARLIN = 9396854;

const importDay = (t: TestService, day: string) => importBytes(t, "ofac", "sdn.csv", ofacCsvBefore(day).csv, { asOf: day });

/** A reader over the service's stores with these watchers (the service's own reader uses follows alone). */
function reader(t: TestService, watchers: VesselWatchers): SanctionsAlerts {
  const s = t.service.services;
  return new SanctionsAlerts({ alerts: s.alerts, webhooks: s.webhooks, sanctions: s.sanctions, accounts: s.accounts, sources: s.sources, clock: t.clock, baseUrl: "https://mds.example", watchers });
}

async function bodiesOf(t: TestService, accountId: string): Promise<Record<string, any>[]> {
  const rows = await t.service.store.db.selectFrom("webhook_events").select("body").where("account_id", "=", accountId).where("type", "=", "alert.sanctions").orderBy("id").execute();
  return rows.map((r) => JSON.parse(r.body) as Record<string, any>);
}

describe("alert.sanctions for listings, delistings and changes", () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver(RECEIVER);
  });
  after(() => receiver.close());

  for (const engine of ENGINES) {
    describe(engine, () => {
      let t: TestService;
      let b: Browser;
      let a: { accountId: string; key: string };
      let secret: string;
      let endpointId: string;
      let other: string;
      let sanctions: SanctionsAlerts;
      let watchlistId: string;
      const path = `/${engine}/sanctions-changes`;
      before(async () => {
        t = await startTestService({ engine, withData: false, webhooks: { transport: transportFor(RECEIVER) } });
        // Account A: a person on the web face with an API key too, following three vessels.
        const user = await makeUser(t, `watch-${engine}@example.org`, "pro");
        a = { accountId: user.accountId, key: (await t.service.services.accounts.createKey(user.accountId)).key };
        b = new Browser(t);
        await b.signIn(`watch-${engine}@example.org`);
        const hook = await t.service.app.inject({ method: "POST", url: "/api/v1/account/webhooks", headers: { authorization: `Bearer ${a.key}` }, payload: { url: `https://${HOOK_HOST}:8443${path}` } });
        assert.ok(hook.statusCode < 300, hook.body);
        ({ secret, id: endpointId } = hook.json().data);
        for (const imo of [OMAN_PRIDE, YURY_TOPCHEV, MARLIN]) await t.service.services.alerts.addFollow(a.accountId, { kind: "vessel", imo, mmsi: null, unlocode: null }, 10, t.clock.now());
        // Account B follows OMAN PRIDE and has it on a watchlist too.
        const keyB = await t.key("plus");
        other = keyB.accountId;
        await t.service.services.alerts.addFollow(other, { kind: "vessel", imo: OMAN_PRIDE, mmsi: null, unlocode: null }, 10, t.clock.now());
        const list = await t.service.app.inject({ method: "POST", url: "/api/v1/account/watchlists", headers: { authorization: `Bearer ${keyB.key}` }, payload: { name: "Fleet book", ids: [String(OMAN_PRIDE), "9074729"] } });
        assert.equal(list.statusCode, 200, list.body);
        watchlistId = list.json().data.id;
        sanctions = reader(t, allWatchers(followWatchers(t.service.services.alerts), watchlistWatchers(t.service.services.watchlists)));
      });
      after(() => t.close());

      it("a list's first import (baseline) raises nothing", async () => {
        await importDay(t, "2021-10-28");
        assert.equal(await sanctions.poll(), 0);
        assert.deepEqual(await bodiesOf(t, a.accountId), []);
      });

      it("a change raises `changed` with its fields, old and new, and says which in words", async () => {
        await importDay(t, "2021-10-29");
        assert.equal(await sanctions.poll(), 2, "OMAN PRIDE's flag, to each watching account once");
        const [body] = await bodiesOf(t, a.accountId);
        const alert = body!.data.alert;
        assert.deepEqual([alert.subject.imo, alert.subject.name], [OMAN_PRIDE, "OMAN PRIDE"]);
        assert.equal(alert.fact.action, "changed");
        assert.deepEqual([alert.fact.list, alert.fact.family, alert.fact.sourceId], ["ofac_sdn", "ofac", "ofac"]);
        assert.deepEqual(alert.fact.fields, ["flag"]);
        assert.deepEqual([alert.fact.before.flag, alert.fact.after.flag], ["Liberia", null]);
        assert.equal(alert.text, "OMAN PRIDE (IMO 9153525)'s designation on the OFAC Specially Designated Nationals and Blocked Persons List (SDN) changed: flag.");
        assert.match(alert.follow_id, /^follow_\d+$/);
        assert.equal(alert.watchlist, null);
        // B follows it and has it on a watchlist: one alert, naming both reasons.
        const [forOther, ...more] = await bodiesOf(t, other);
        assert.equal(more.length, 0);
        assert.match(forOther!.data.alert.follow_id, /^follow_\d+$/);
        assert.deepEqual(forOther!.data.alert.watchlist, { id: watchlistId, name: "Fleet book" });
      });

      it("a programme relabelled is a change; a listing still raises `listed`", async () => {
        await importDay(t, "2021-11-12");
        await importDay(t, "2021-11-23");
        assert.equal(await sanctions.poll(), 2);
        const [, topchev, marlin] = await bodiesOf(t, a.accountId);
        assert.equal(topchev!.data.alert.subject.imo, YURY_TOPCHEV);
        assert.equal(topchev!.data.alert.fact.action, "changed");
        assert.ok(topchev!.data.alert.fact.fields.includes("program"));
        assert.deepEqual([topchev!.data.alert.fact.before.program, topchev!.data.alert.fact.after.program], ["PEESA-EO", "PEESA-EO14039"]);
        assert.match(topchev!.data.alert.text, /^YURY TOPCHEV \(IMO 9338230\)'s designation on the OFAC .* changed: .*programme/);
        assert.equal(marlin!.data.alert.subject.imo, MARLIN);
        assert.equal(marlin!.data.alert.fact.action, "listed");
        assert.equal(marlin!.data.alert.fact.fields, undefined, "fields only on a change");
        assert.match(marlin!.data.alert.text, /^MARLIN \(IMO 9396854\) was listed on the OFAC .* under PEESA-EO14039\.$/);
      });

      it("a followed vessel delisted between two publications reaches the receiver as a signed alert.sanctions `delisted`", async () => {
        await importDay(t, "2022-01-31");
        assert.equal(await sanctions.poll(), 2, "OMAN PRIDE delisted, to A and B");
        await t.service.webhooks.worker.runDue();
        const got = receiver.received.filter((r) => r.url === path);
        const delisted = got.map((rec) => verifyReceived(rec, secret, t.clock.now()) as Record<string, any>).filter((e) => e.data.alert.fact?.action === "delisted");
        assert.equal(delisted.length, 1);
        const e = delisted[0]!;
        assert.equal(e.type, "alert.sanctions");
        const rec = got.find((r) => JSON.parse(r.raw.toString()).id === e.id)!;
        assert.equal(rec.headers["service-event-type"], "alert.sanctions");
        assert.equal(rec.headers["service-event-id"], e.id);
        const alert = e.data.alert;
        assert.deepEqual([alert.type, alert.derived, alert.subject.imo, alert.subject.name], ["sanctions", false, OMAN_PRIDE, "OMAN PRIDE"]);
        assert.equal(alert.text, "OMAN PRIDE (IMO 9153525) was delisted from the OFAC Specially Designated Nationals and Blocked Persons List (SDN).");
        assert.deepEqual(alert.sources.map((s: { id: string }) => s.id), ["ofac"]);
        assert.deepEqual(alert.withheld, []);
        // Every change of the followed vessels reached the receiver, signed: 1 + 2 + 1.
        assert.deepEqual(got.map((r) => (verifyReceived(r, secret, t.clock.now()) as Record<string, any>).data.alert.fact.action).sort(), ["changed", "changed", "delisted", "listed"]);
      });

      it("re-running the reader, or replaying it from the start, raises nothing twice", async () => {
        assert.equal(await sanctions.poll(), 0);
        const before = (await bodiesOf(t, a.accountId)).length;
        const cursor = await t.service.store.db.selectFrom("alert_cursors").select("value").where("name", "=", "sanctions_versions").executeTakeFirstOrThrow();
        assert.ok(Number(cursor.value) > 0);
        await t.service.store.db.updateTable("alert_cursors").set({ value: 0 }).where("name", "=", "sanctions_versions").execute();
        assert.equal(await sanctions.poll(), 0, "every alert's key was stored");
        assert.equal((await bodiesOf(t, a.accountId)).length, before);
      });

      it("the delivery log shows each delivery's event type, subject and action, in the API and on the webhook page", async () => {
        const res = await t.service.app.inject({ method: "GET", url: `/api/v1/account/webhooks/${endpointId}/deliveries`, headers: { authorization: `Bearer ${a.key}` } });
        assert.equal(res.statusCode, 200, res.body);
        const rows = res.json().data as Record<string, any>[];
        const row = rows.find((r) => r.action === "delisted")!;
        assert.equal(row.eventType, "alert.sanctions");
        assert.deepEqual(row.subject, { ref: "9153525", imo: OMAN_PRIDE, mmsi: null, unlocode: null, name: "OMAN PRIDE" });
        assert.deepEqual(rows.map((r) => r.action).sort(), ["changed", "changed", "delisted", "listed"]);
        const page = await b.get(`/account/webhooks/${endpointId}`);
        assert.equal(page.statusCode, 200);
        assert.match(page.body, /alert\.sanctions · delisted · OMAN PRIDE, IMO 9153525/);
        assert.match(page.body, /alert\.sanctions · listed · MARLIN, IMO 9396854/);
      });

      it("a watcher of an MMSI the designation dropped (a reflag) hears of the change, by the MMSI it follows", async () => {
        const { accountId } = await t.key("pro");
        await t.service.services.alerts.addFollow(accountId, { kind: "vessel", imo: null, mmsi: 256842000, unlocode: null }, 10, t.clock.now());
        await importDay(t, "2023-06-08");
        await sanctions.poll();
        const [body, ...more] = await bodiesOf(t, accountId);
        assert.equal(more.length, 0);
        const alert = body!.data.alert;
        assert.deepEqual([alert.subject.mmsi, alert.subject.imo, alert.subject.name], [256842000, 9187655, "ARK III"]);
        assert.equal(alert.fact.action, "changed");
        assert.deepEqual([alert.fact.before.mmsi, alert.fact.after.mmsi, alert.fact.before.name, alert.fact.after.name], [[256842000], [], "ARK", "ARK III"]);
        assert.equal(alert.text, `ARK III (IMO 9187655)'s designation on the OFAC Specially Designated Nationals and Blocked Persons List (SDN) changed: ${alert.fact.fields.map((f: string) => ({ mmsi: "MMSI", name: "name", flag: "flag", formerNames: "former names" })[f] ?? f).join(", ")}.`);
        assert.ok(["mmsi", "name", "flag"].every((f) => alert.fact.fields.includes(f)));
      });
    });
  }
});

describe("alert.sanctions under the content rules (spec 6.2)", () => {
  for (const engine of ENGINES) {
    describe(engine, () => {
      let t: TestService;
      const sources = sourcesFile({ ofac: { redistribution: false } });
      before(async () => {
        t = await startTestService({ engine, withData: false, env: { SOURCES_FILE: sources.path } });
      });
      after(async () => {
        await t.close();
        sources.remove();
      });

      it("a delisting and a change from a list that may not be redistributed: identifiers sent, fact and text withheld naming the source", async () => {
        const { accountId } = await t.key("pro");
        await t.service.services.alerts.addFollow(accountId, { kind: "vessel", imo: OMAN_PRIDE, mmsi: null, unlocode: null }, 10, t.clock.now());
        await importDay(t, "2021-10-28");
        await importDay(t, "2021-10-29");
        await importDay(t, "2022-01-31");
        assert.equal(await t.service.alerts.sanctions!.poll(), 2);
        const bodies = await bodiesOf(t, accountId);
        assert.equal(bodies.length, 2);
        for (const body of bodies) {
          const alert = body.data.alert;
          assert.deepEqual([alert.type, alert.subject.imo, alert.subject.name], ["sanctions", OMAN_PRIDE, "OMAN PRIDE"]);
          assert.equal(alert.fact, null);
          assert.equal(alert.text, null);
          assert.deepEqual(alert.withheld, [{ fields: ["fact", "text"], sources: ["ofac"], reason: "source_rights" }]);
          assert.deepEqual(alert.sources, []);
          assert.doesNotMatch(JSON.stringify(body), /delisted|Liberia/);
        }
      });
    });
  }
});

describe("alert.sanctions on a version that changes more designations than one transaction records", () => {
  for (const engine of ENGINES) {
    it(`every alert is recorded, and the reader's position moves with the last (${engine})`, async () => {
      const t = await startTestService({ engine, withData: false });
      try {
        await importBytes(t, "ofac", "sdn.csv", readFileSync(OFAC_2024_05_03), { asOf: "2024-05-03" });
        // 120 designations renamed: alerts are recorded 50 to a transaction.
        const next = ofacWithRenames(120);
        const { accountId } = await t.key("pro");
        for (const imo of new Set(next.imos)) await t.service.services.alerts.addFollow(accountId, { kind: "vessel", imo, mmsi: null, unlocode: null }, 1000, t.clock.now());
        assert.equal(await t.service.alerts.sanctions!.poll(), 0, "baseline");
        const r = await importBytes(t, "ofac", "sdn.csv", next.csv, { asOf: "2024-05-10" });
        assert.equal(r.changed, 120);
        const alerts = await t.service.alerts.sanctions!.poll();
        assert.equal(alerts, 120, "one per designation");
        assert.equal((await bodiesOf(t, accountId)).length, 120);
        assert.ok((await bodiesOf(t, accountId)).every((b) => b.data.alert.fact.action === "changed" && b.data.alert.subject.name.endsWith(" II")));
        const cursor = await t.service.store.db.selectFrom("alert_cursors").select("value").where("name", "=", "sanctions_versions").executeTakeFirstOrThrow();
        assert.equal(Number(cursor.value), r.versionId);
        assert.equal(await t.service.alerts.sanctions!.poll(), 0);
      } finally {
        await t.close();
      }
    });
  }
});
