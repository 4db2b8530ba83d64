/**
 * The sanctions change feed over real OFAC history: the state before the recorded changes
 * (as of 2021-08-01), then the recorded versions of 2021-08-20, 2021-09-02 and 2021-10-29;
 * two more versions are imported while a client pages, to show the cursor survives them.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ENGINES, get, startTestService, type TestService } from "../helpers/service.ts";
import { sourcesFile } from "../helpers/sources-file.ts";
import { importBytes, importUkCsv, ofacChanges, ofacCsvBefore } from "../helpers/sanctions.ts";

const BASE_DAY = "2021-08-01";
const FIRST = ["2021-08-20", "2021-09-02", "2021-10-29"];
const LATER = ["2021-11-12", "2021-11-23"];
const changes = ofacChanges();

const importDay = (t: TestService, day: string) => importBytes(t, "ofac", "sdn.csv", ofacCsvBefore(day).csv, { asOf: day });

/** Every row of the feed for a query, following `next`; checks each page costs 1 credit. */
async function walk(t: TestService, key: string, query: string, limit: number, cursor?: string): Promise<any[]> {
  const out: any[] = [];
  let next: string | undefined = cursor;
  for (let i = 0; i < 1000; i++) {
    const r = await get(t, `/api/v1/sanctions/changes?${query}&limit=${limit}${next ? `&cursor=${next}` : ""}`, key);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.headers["x-credits-cost"], "1");
    out.push(...r.body.data);
    next = r.body.next ? (new URL(r.body.next, "http://x").searchParams.get("cursor") ?? undefined) : undefined;
    if (!next) return out;
  }
  throw new Error("the feed did not end");
}

const keyOf = (r: any) => `${r.action}:${r.recordId}@${r.asOf}:${(r.fields ?? []).join("+")}`;

for (const engine of ENGINES) {
  describe(`sanctions change feed over OFAC history (${engine})`, () => {
    let t: TestService;
    let key: string;
    before(async () => {
      t = await startTestService({ engine, withData: false });
      ({ key } = await t.key("scale"));
      await importBytes(t, "ofac", "sdn.csv", ofacCsvBefore("0000").csv, { asOf: BASE_DAY });
      for (const day of FIRST) await importDay(t, day);
    });
    after(() => t.close());

    it("lists every listing, delisting and change of the versions, oldest first, with the version's date and the designation", async () => {
      const rows = await walk(t, key, `lists=ofac&since=2021-08-02`, 7);
      const inWindow = changes.filter((c) => FIRST.includes(c.snapshot));
      const ids = (list: { entNum: string; snapshot: string }[]) => list.map((c) => `${c.entNum}@${c.snapshot}`).sort();
      assert.deepEqual(ids(rows.filter((r) => r.action === "listed").map((r) => ({ entNum: r.recordId, snapshot: r.asOf }))), ids(inWindow.filter((c) => c.change === "ADDED")));
      assert.deepEqual(ids(rows.filter((r) => r.action === "delisted").map((r) => ({ entNum: r.recordId, snapshot: r.asOf }))), ids(inWindow.filter((c) => c.change === "REMOVED")));
      const changed = rows.filter((r) => r.action === "changed");
      assert.ok(changed.length >= 1);
      for (const r of changed) {
        assert.ok(r.fields.length >= 1 && r.before && r.after, keyOf(r));
        assert.deepEqual(Object.keys(r.before).sort(), [...r.fields].sort());
        assert.equal(r.dateSource, "version");
      }
      // A recorded MODIFIED of a name reads as a name change, old and new.
      const renamed = inWindow.find((c) => c.change === "MODIFIED" && c.before.name !== c.after.name);
      if (renamed) {
        const row = changed.find((r) => r.recordId === renamed.entNum && r.asOf === renamed.snapshot && r.fields.includes("name"));
        assert.ok(row, `${renamed.entNum} renamed`);
        assert.deepEqual([row.before.name, row.after.name, row.name], [renamed.before.name, renamed.after.name, renamed.after.name]);
      }
      // Oldest first; within a version, listings and delistings before changes.
      for (let i = 1; i < rows.length; i++) {
        assert.ok(rows[i - 1].asOf <= rows[i].asOf, `${keyOf(rows[i - 1])} before ${keyOf(rows[i])}`);
        if (rows[i - 1].asOf === rows[i].asOf) assert.ok(!(rows[i - 1].action === "changed" && rows[i].action !== "changed"));
      }
      for (const r of rows) {
        assert.deepEqual([r.list, r.family, r.baseline], ["ofac_sdn", "ofac", false]);
        assert.ok(Array.isArray(r.imos) && Array.isArray(r.mmsis) && typeof r.name === "string");
      }
      // Paged or not, the same rows.
      assert.deepEqual(rows.map(keyOf), (await walk(t, key, `lists=ofac&since=2021-08-02`, 100)).map(keyOf));
    });

    it("reaches back to the first version held: its designations as baseline listings", async () => {
      const r = await get(t, "/api/v1/sanctions/changes?limit=3", key);
      assert.equal(r.status, 200);
      assert.deepEqual(
        r.body.data.map((d: any) => [d.action, d.asOf, d.baseline]),
        Array(3).fill(["listed", BASE_DAY, true]),
      );
      // Lists never loaded and not named: reported, not an error.
      assert.deepEqual(r.body.listsChecked.full, ["ofac"]);
      assert.ok(r.body.listsChecked.notChecked.includes("uk"));
    });

    it("filters by action and by the versions' dates", async () => {
      const delisted = await walk(t, key, "action=delisted&since=2021-08-02", 50);
      assert.deepEqual(
        delisted.map((r) => [r.recordId, r.asOf, r.dateSource]),
        changes.filter((c) => c.change === "REMOVED" && FIRST.includes(c.snapshot)).map((c) => [c.entNum, c.snapshot, "absent"]),
      );
      const day = await walk(t, key, "since=2021-09-02&until=2021-09-02&action=listed,changed", 50);
      assert.ok(day.length >= 1 && day.every((r) => r.asOf === "2021-09-02" && r.action !== "delisted"));
      const none = await walk(t, key, "since=2030-01-01", 50);
      assert.deepEqual(none, []);
    });

    it("refuses bad input with 400 naming the parameter, not charged; a named list never loaded is 503, not charged", async () => {
      const cases: [string, string][] = [
        ["since=2021-10-01&until=2021-09-01", "since"],
        ["since=2021-13-01", "since"],
        ["until=yesterday", "until"],
        ["lists=ofac,mars", "lists"],
        ["action=renamed", "action"],
        ["cursor=bm9wZQ", "cursor"],
        ["limit=0", "limit"],
        ["limit=101", "limit"],
      ];
      for (const [query, param] of cases) {
        const r = await get(t, `/api/v1/sanctions/changes?${query}`, key);
        assert.equal(r.status, 400, query);
        assert.equal(r.body.error.param, param, query);
        assert.equal(r.headers["x-credits-cost"], "0", query);
      }
      const uk = await get(t, "/api/v1/sanctions/changes?lists=ofac,uk", key);
      assert.deepEqual([uk.status, uk.body.error?.code, uk.headers["x-credits-cost"]], [503, "sanctions_unavailable", "0"]);
    });

    it("a cursor taken before new imports goes on through them, without a row twice or missed", async () => {
      const first = await get(t, "/api/v1/sanctions/changes?since=2021-08-02&limit=5", key);
      assert.equal(first.status, 200);
      for (const day of LATER) await importDay(t, day);
      const rest = await walk(t, key, "since=2021-08-02", 5, new URL(first.body.next, "http://x").searchParams.get("cursor")!);
      const all = [...first.body.data, ...rest];
      assert.deepEqual(all.map(keyOf), (await walk(t, key, "since=2021-08-02", 100)).map(keyOf));
      assert.ok(all.some((r) => r.asOf === "2021-11-23" && r.action === "listed"));
      assert.equal(new Set(all.map(keyOf)).size, all.length);
    });
  });

  describe(`sanctions change feed under source rights (${engine})`, () => {
    let t: TestService;
    let key: string;
    // An operator who has not cleared the UK list for the API.
    const sources = sourcesFile({ uk: { api: false } });
    before(async () => {
      t = await startTestService({ engine, withData: false, env: { SOURCES_FILE: sources.path } });
      ({ key } = await t.key("scale"));
      await importBytes(t, "ofac", "sdn.csv", ofacCsvBefore("0000").csv, { asOf: BASE_DAY });
      await importUkCsv(t, { asOf: "2026-04-29" });
    });
    after(async () => {
      await t.close();
      sources.remove();
    });

    it("rows of a list the caller may not be shown are left out and counted in withheld", async () => {
      const r = await get(t, "/api/v1/sanctions/changes?limit=100&lists=uk", key);
      assert.equal(r.status, 200);
      assert.equal(r.body.data.length, 0);
      const entry = r.body.withheld.find((w: any) => w.section === "changes");
      assert.deepEqual(entry.sources, ["uk"]);
      assert.ok(entry.rows >= 1 && entry.rows <= 100);
      assert.deepEqual(r.body.listsChecked.notChecked, ["uk"]);
      // Walking both lists: every OFAC row shown, every UK row counted as withheld.
      const [ofac] = await t.service.services.sanctions.versions("ofac");
      const [uk] = await t.service.services.sanctions.versions("uk");
      let shown = 0;
      let withheld = 0;
      let url: string | undefined = "/api/v1/sanctions/changes?limit=100&lists=uk,ofac";
      while (url) {
        const r = await get(t, url, key);
        assert.equal(r.status, 200);
        assert.ok(r.body.data.every((d: any) => d.family === "ofac"));
        shown += r.body.data.length;
        withheld += r.body.withheld.find((w: any) => w.section === "changes")?.rows ?? 0;
        url = r.body.next ? new URL(r.body.next, "http://x").pathname + new URL(r.body.next, "http://x").search : undefined;
      }
      assert.deepEqual([shown, withheld], [ofac!.listed, uk!.listed]);
    });
  });
}
