/**
 * Migration 0028: the sanctions alert reader moved from a cursor over listing events
 * (`sanctions_events`) to one over whole list versions (`sanctions_versions`). The new
 * cursor starts where the old one stopped, so an upgrade raises nothing already raised and
 * reads nothing already read as news.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Kysely } from "kysely";
import { sanctionsAlertsByVersion } from "../../../src/adapters/storage/migrations/0028-sanctions-alerts-by-version.ts";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";
import { importBytes, ofacCsvBefore } from "../../helpers/sanctions.ts";

const MARLIN = 9396854;

for (const engine of ENGINES) {
  describe(`migration 0028 carries the sanctions alert cursor over (${engine})`, () => {
    let t: TestService;
    let events: { id: number; version_id: number }[];
    before(async () => {
      t = await startTestService({ engine, withData: false });
      for (const day of ["2021-11-12", "2021-11-23", "2022-01-31", "2022-09-15"]) await importBytes(t, "ofac", "sdn.csv", ofacCsvBefore(day).csv, { asOf: day });
      events = await t.service.store.db.selectFrom("sanctions_events").select(["id", "version_id"]).orderBy("id").execute();
    });
    after(() => t.close());

    /** The new cursor after the migration runs on a store whose listing-only reader had read through `read`. */
    async function migrateFrom(read: number | null): Promise<number | null> {
      const db = t.service.store.db;
      await db.deleteFrom("alert_cursors").execute();
      if (read !== null) await db.insertInto("alert_cursors").values({ name: "sanctions_events", value: read }).execute();
      await sanctionsAlertsByVersion().up(db as unknown as Kysely<unknown>);
      const r = await db.selectFrom("alert_cursors").select("value").where("name", "=", "sanctions_versions").executeTakeFirst();
      return r ? Number(r.value) : null;
    }

    it("a reader that had read every event had seen every version: none is read again, and a listing it raised is not raised again", async () => {
      const versions = await t.service.services.sanctions.versionsAfter(0, 100);
      assert.equal(await migrateFrom(events.at(-1)!.id), versions.at(-1)!.id);
      const { accountId } = await t.key("pro");
      await t.service.services.alerts.addFollow(accountId, { kind: "vessel", imo: MARLIN, mmsi: null, unlocode: null }, 10, t.clock.now());
      assert.equal(await t.service.alerts.sanctions!.poll(), 0);
    });

    it("a reader stopped at a version's last event has done that version; one stopped inside a version has not", async () => {
      const lastOf = (v: number) => events.filter((e) => e.version_id === v).at(-1)!.id;
      const second = events.find((e) => e.version_id > events[0]!.version_id)!.version_id;
      assert.equal(await migrateFrom(lastOf(second)), second);
      const inside = events.find((e, i) => events[i + 1]?.version_id === e.version_id && e.version_id > second);
      assert.ok(inside, "a version with two events");
      assert.equal(await migrateFrom(inside.id), inside.version_id - 1);
    });

    it("a store whose reader never ran keeps no cursor: the reader starts from the first version, as before", async () => {
      assert.equal(await migrateFrom(null), null);
      assert.equal(await migrateFrom(0), null);
    });
  });
}
