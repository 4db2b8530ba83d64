/**
 * Watchlists over REST on each engine: create, list, get (members paged), replace, delete;
 * the screening of a 10,000-member list in pages, row for row what `/screen` answers for
 * the same ids 50 at a time, charged exactly one credit per vessel screened; the plan limits
 * (atomic under concurrent creates); bad input refused naming what is wrong, nothing written;
 * another account's list a 404. Real sanctions fixtures, so some members really are listed.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { WATCHLIST_LIMITS } from "../../src/domain/watchlists/limits.ts";
import { call, ENGINES, startTestService, type TestService } from "../helpers/service.ts";
import { importFile, importUkCsv, OFAC_2024_05_03 } from "../helpers/sanctions.ts";

/** The n-th checksum-valid IMO number from 1000000 up (the check digit is computed, so most are on no list). */
function imoNumber(n: number): number {
  const six = String(100_000 + n);
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(six[i]) * (7 - i);
  return Number(`${six}${sum % 10}`);
}

for (const engine of ENGINES) {
  describe(`watchlists (${engine})`, () => {
    let t: TestService;
    let key: string;
    let accountId: string;
    let other: string;
    /** Identifiers the imported lists carry: listed vessels by IMO and by MMSI. */
    let listedIds: string[];
    before(async () => {
      t = await startTestService({ engine, withData: false });
      ({ key, accountId } = await t.key("scale"));
      ({ key: other } = await t.key("scale"));
      await importFile(t, "ofac", [OFAC_2024_05_03], { asOf: "2024-05-03" });
      await importUkCsv(t, { asOf: "2026-04-29" });
      const ofac = await t.service.services.sanctions.listActive("ofac", 0, 5000);
      const uk = await t.service.services.sanctions.listActive("uk", 0, 5000);
      const imos = [...new Set([...ofac, ...uk].flatMap((r) => r.record.imos))];
      const mmsis = [...new Set(ofac.flatMap((r) => r.record.mmsis))];
      listedIds = [...imos.map(String), ...mmsis.map((m) => `mmsi-${String(m).padStart(9, "0")}`)];
      assert.ok(imos.length > 100 && mmsis.length > 10, `${imos.length} listed IMOs, ${mmsis.length} MMSIs`);
    });
    after(() => t.close());

    /** One call, a second later on the service's clock: these tests are about watchlists, not rate limits. */
    const api = async (k: string | null, method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) => {
      t.clock.t += 1_000;
      return call(t, k, method, url, payload, headers);
    };
    const creditsUsed = async (k: string) => (await api(k, "GET", "/api/v1/usage")).body.data.credits.used as number;
    const listCount = async (k: string) => (await api(k, "GET", "/api/v1/account/watchlists")).body.data.length as number;

    it("a watchlist of 10,000 ids screens in pages, row for row as /screen 50 at a time, 1 credit per vessel screened", async () => {
      const listed = listedIds.slice(0, 400);
      const ids = [...listed];
      for (let n = 0; ids.length < 10_000; n++) {
        const imo = String(imoNumber(n));
        if (!listed.includes(imo)) ids.push(imo);
      }
      const made = await api(key, "POST", "/api/v1/account/watchlists", { name: "Whole book", ids });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      assert.equal(made.body.data.memberCount, 10_000);
      assert.equal(made.headers["x-credits-cost"], "0");

      // 96 a page: 104 full pages and a last one of 16, so the last page's unused reservation must come back.
      const rows: any[] = [];
      const costs: number[] = [];
      const before = await creditsUsed(key);
      let url: string | null = `/api/v1/account/watchlists/${made.body.data.id}/screen?limit=96`;
      while (url) {
        const page = await api(key, "GET", url);
        assert.equal(page.status, 200, JSON.stringify(page.body));
        assert.equal(page.body.type, "screen");
        assert.equal(page.body.watchlist.id, made.body.data.id);
        assert.equal(page.body.sanctionedCount, page.body.data.filter((r: any) => r.sanctioned).length);
        costs.push(Number(page.headers["x-credits-cost"]));
        assert.equal(costs.at(-1), page.body.data.length, "charged exactly the vessels of the page");
        rows.push(...page.body.data);
        url = page.body.next ? new URL(page.body.next).pathname + new URL(page.body.next).search : null;
      }
      assert.equal(costs.length, 105);
      assert.equal(costs.at(-1), 16);
      assert.equal((await creditsUsed(key)) - before, 10_000, "10,000 credits for 10,000 vessels");
      assert.deepEqual(rows.map((r) => r.query), ids, "every member once, in the order given");

      const direct: any[] = [];
      for (let i = 0; i < ids.length; i += 50) {
        const r = await api(key, "GET", `/api/v1/screen?ids=${ids.slice(i, i + 50).join(",")}`);
        assert.equal(r.status, 200);
        direct.push(...r.body.data);
      }
      const sanctioned = rows.filter((r) => r.sanctioned).map((r) => r.query);
      assert.ok(sanctioned.length > 300, `${sanctioned.length} members really are sanctioned`);
      assert.deepEqual(sanctioned, direct.filter((r) => r.sanctioned).map((r) => r.query), "the same sanctioned members");
      assert.deepEqual(rows, direct, "the same rows");
    });

    it("create, list, get with members paged, replace, rename, delete; duplicates kept once; free", async () => {
      const c = await api(key, "POST", "/api/v1/account/watchlists", { name: "  Charters  ", ids: ["9176187", 9176187, "mmsi-244123456", "MMSI-244123456", " 9074729 "] });
      assert.equal(c.status, 200, JSON.stringify(c.body));
      const wl = c.body.data;
      assert.match(wl.id, /^wl_\d+$/);
      assert.deepEqual([wl.name, wl.memberCount], ["Charters", 3]);
      assert.ok((await api(key, "GET", "/api/v1/account/watchlists")).body.data.some((w: any) => w.id === wl.id && w.memberCount === 3));

      const p1 = await api(key, "GET", `/api/v1/account/watchlists/${wl.id}?limit=2`);
      assert.equal(p1.status, 200);
      assert.equal(p1.body.watchlist.name, "Charters");
      assert.deepEqual(p1.body.data, [
        { id: "9176187", imo: 9176187, mmsi: null },
        { id: "mmsi-244123456", imo: null, mmsi: 244123456 },
      ]);
      assert.equal(p1.body.count, 2);
      const next = new URL(p1.body.next);
      const p2 = await api(key, "GET", next.pathname + next.search);
      assert.deepEqual(p2.body.data, [{ id: "9074729", imo: 9074729, mmsi: null }]);
      assert.equal(p2.body.next, undefined);

      const renamed = await api(key, "PUT", `/api/v1/account/watchlists/${wl.id}`, { name: "Time charters" });
      assert.deepEqual([renamed.status, renamed.body.data.name, renamed.body.data.memberCount], [200, "Time charters", 3]);
      const replaced = await api(key, "PUT", `/api/v1/account/watchlists/${wl.id}`, { ids: ["mmsi-273456789"] });
      assert.deepEqual([replaced.status, replaced.body.data.name, replaced.body.data.memberCount], [200, "Time charters", 1]);
      assert.deepEqual((await api(key, "GET", `/api/v1/account/watchlists/${wl.id}`)).body.data, [{ id: "mmsi-273456789", imo: null, mmsi: 273456789 }]);
      assert.equal(replaced.headers["x-credits-cost"], "0");

      const d = await api(key, "DELETE", `/api/v1/account/watchlists/${wl.id}`);
      assert.deepEqual(d.body.data, { id: wl.id, deleted: true });
      assert.equal((await api(key, "GET", `/api/v1/account/watchlists/${wl.id}`)).status, 404);
      assert.equal((await api(key, "DELETE", `/api/v1/account/watchlists/${wl.id}`)).status, 404);
    });

    it("bad input is refused naming the parameter and the rule, and nothing is written", async () => {
      const n = await listCount(key);
      const bad = await api(key, "POST", "/api/v1/account/watchlists", { name: "Bad", ids: ["9176187", "123", "abc", "9176188", 12.5, null, "mmsi-12"] });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.code, "invalid_parameter");
      assert.equal(bad.body.error.param, "ids");
      for (const named of ["[1] `123`", "[2] `abc`", "[3] `9176188`", "[4] `12.5`", "[5] `null`", "[6] `mmsi-12`"]) assert.ok(bad.body.error.message.includes(named), `${named} in ${bad.body.error.message}`);
      assert.ok(!bad.body.error.message.includes("[0]"), "the good one is not named");
      assert.match(bad.body.error.rule, /^6 entries are not a checksum-valid 7-digit IMO number/);

      const tooMany = Array.from({ length: 10_001 }, (_, i) => String(imoNumber(i)));
      const big = await api(key, "POST", "/api/v1/account/watchlists", { name: "Too big", ids: tooMany });
      assert.deepEqual([big.status, big.body.error.param], [400, "ids"]);
      assert.match(big.body.error.rule, /10001 vessels; a watchlist holds at most 10,000/);

      const cases: [unknown, string][] = [
        [{ ids: ["9176187"] }, "name"],
        [{ name: "x".repeat(101), ids: ["9176187"] }, "name"],
        [{ name: "   ", ids: ["9176187"] }, "name"],
        [{ name: "tab\tname", ids: ["9176187"] }, "name"],
        [{ name: "No ids" }, "ids"],
        [{ name: "Empty", ids: [] }, "ids"],
        [{ name: "Not a list", ids: "9176187" }, "ids"],
        [{ name: "Extra", ids: ["9176187"], owner: "me" }, "body"],
        [[1, 2], "body"],
      ];
      for (const [body, param] of cases) {
        const r = await api(key, "POST", "/api/v1/account/watchlists", body);
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.equal(r.body.error.param, param, `${JSON.stringify(body)}: ${JSON.stringify(r.body.error)}`);
        assert.ok(r.body.error.rule, "a rule is stated");
      }
      const garbage = await api(key, "POST", "/api/v1/account/watchlists", "{not json", { "content-type": "application/json" });
      assert.deepEqual([garbage.status, garbage.body.error.param], [400, "body"]);
      assert.equal(await listCount(key), n, "nothing was written");

      const wl = (await api(key, "POST", "/api/v1/account/watchlists", { name: "Kept", ids: ["9176187"] })).body.data;
      const put = await api(key, "PUT", `/api/v1/account/watchlists/${wl.id}`, { name: "Changed", ids: ["9074729", "oops"] });
      assert.deepEqual([put.status, put.body.error.param], [400, "ids"]);
      assert.equal((await api(key, "PUT", `/api/v1/account/watchlists/${wl.id}`, {})).status, 400);
      const kept = await api(key, "GET", `/api/v1/account/watchlists/${wl.id}`);
      assert.deepEqual([kept.body.watchlist.name, kept.body.data.map((m: any) => m.id)], ["Kept", ["9176187"]], "a refused change leaves the list as it was");

      for (const [url, param] of [
        [`/api/v1/account/watchlists/${wl.id}?cursor=notacursor`, "cursor"],
        [`/api/v1/account/watchlists/${wl.id}/screen?cursor=${Buffer.from('{"after":-1}').toString("base64url")}`, "cursor"],
        [`/api/v1/account/watchlists/${wl.id}/screen?limit=0`, "limit"],
        [`/api/v1/account/watchlists/${wl.id}/screen?limit=101`, "limit"],
        [`/api/v1/account/watchlists/${wl.id}/screen?lists=mars`, "lists"],
        [`/api/v1/account/watchlists/${wl.id}/screen?ids=9176187`, "ids"],
        [`/api/v1/account/watchlists/zone_1/screen`, "id"],
        [`/api/v1/account/watchlists/wl_x`, "id"],
      ] as const) {
        const r = await api(key, "GET", url);
        assert.deepEqual([r.status, r.body.error?.param], [400, param], `${url}: ${JSON.stringify(r.body)}`);
        assert.equal(r.headers["x-credits-cost"], "0");
      }
    });

    it("another account's list is a 404 on every route, and its screening charges nothing", async () => {
      const wl = (await api(key, "POST", "/api/v1/account/watchlists", { name: "Mine", ids: ["9176187"] })).body.data;
      const before = await creditsUsed(other);
      for (const [method, url, body] of [
        ["GET", `/api/v1/account/watchlists/${wl.id}`, undefined],
        ["GET", `/api/v1/account/watchlists/${wl.id}/screen`, undefined],
        ["PUT", `/api/v1/account/watchlists/${wl.id}`, { name: "Theirs" }],
        ["DELETE", `/api/v1/account/watchlists/${wl.id}`, undefined],
        ["GET", "/api/v1/account/watchlists/wl_2147483648", undefined],
      ] as const) {
        const r = await api(other, method, url, body);
        assert.equal(r.status, 404, `${method} ${url}`);
        assert.equal(r.body.error.code, "not_found");
        assert.equal(r.headers["x-credits-cost"], "0");
      }
      assert.equal(await creditsUsed(other), before);
      assert.equal((await api(key, "GET", `/api/v1/account/watchlists/${wl.id}`)).body.watchlist.name, "Mine", "untouched");
      assert.equal((await api(null, "GET", "/api/v1/account/watchlists")).status, 401);
    });

    it("plan limits: lists and members of all lists together, atomic under concurrent creates", async () => {
      const sandbox = await t.key("sandbox");
      const limits = WATCHLIST_LIMITS.sandbox;
      const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => String(imoNumber(from + i)));
      const first = await api(sandbox.key, "POST", "/api/v1/account/watchlists", { name: "One", ids: ids(limits.members) });
      assert.equal(first.status, 200);
      const second = await api(sandbox.key, "POST", "/api/v1/account/watchlists", { name: "Two", ids: ids(1) });
      assert.deepEqual([second.status, second.body.error.code], [403, "limit_reached"]);
      assert.match(second.body.error.message, /allow 1 watchlists/);
      const grow = await api(sandbox.key, "PUT", `/api/v1/account/watchlists/${first.body.data.id}`, { ids: ids(limits.members + 1) });
      assert.deepEqual([grow.status, grow.body.error.code], [403, "limit_reached"]);
      assert.match(grow.body.error.message, /allow 100 watchlist members/);
      const shrink = await api(sandbox.key, "PUT", `/api/v1/account/watchlists/${first.body.data.id}`, { ids: ids(10) });
      assert.equal(shrink.body.data.memberCount, 10);

      const plus = await t.key("plus");
      // A rate above the burst, so that only the limit on lists refuses.
      await t.service.services.accounts.setDeal(plus.accountId, { monthlyCredits: null, extraMonthlyCredits: null, ratePerSecond: 100 });
      const made = await Promise.all(
        Array.from({ length: WATCHLIST_LIMITS.plus.lists + 3 }, (_, i) =>
          t.service.app.inject({ method: "POST", url: "/api/v1/account/watchlists", headers: { authorization: `Bearer ${plus.key}` }, payload: { name: `L${i}`, ids: ids(2, i * 2) } }),
        ),
      );
      assert.equal(made.filter((r) => r.statusCode === 200).length, WATCHLIST_LIMITS.plus.lists);
      assert.ok(made.every((r) => r.statusCode === 200 || r.json().error.code === "limit_reached"));
      const tooMany = await api(plus.key, "POST", "/api/v1/account/watchlists", { name: "Over", ids: ids(1) });
      assert.equal(tooMany.status, 403);
    });

    it("the store finds every member carrying a changed IMO or MMSI, across accounts", async () => {
      const store = t.service.services.watchlists;
      const a = (await api(key, "POST", "/api/v1/account/watchlists", { name: "Fleet A", ids: ["9292058", "mmsi-572469210", "9074729"] })).body.data;
      const b = (await api(other, "POST", "/api/v1/account/watchlists", { name: "Fleet B", ids: ["9292058"] })).body.data;
      const found = await store.watchlistMembersMatching([9292058, 1234567], [572469210]);
      const mine = found.filter((m) => m.watchlistId === a.id || m.watchlistId === b.id);
      assert.deepEqual(mine, [
        { watchlistId: a.id, accountId, watchlistName: "Fleet A", imo: 9292058, mmsi: null },
        { watchlistId: a.id, accountId, watchlistName: "Fleet A", imo: null, mmsi: 572469210 },
        { watchlistId: b.id, accountId: mine[2]!.accountId, watchlistName: "Fleet B", imo: 9292058, mmsi: null },
      ]);
      assert.notEqual(mine[2]!.accountId, accountId);
      assert.deepEqual(await store.watchlistMembersMatching([], []), []);
      // More identifiers than one IN list holds are read in pieces.
      const many = await store.watchlistMembersMatching([...Array.from({ length: 1200 }, (_, i) => imoNumber(500_000 + i)), 9074729], []);
      assert.ok(many.some((m) => m.watchlistId === a.id && m.imo === 9074729));
      await api(key, "DELETE", `/api/v1/account/watchlists/${a.id}`);
      assert.ok(!(await store.watchlistMembersMatching([9292058], [572469210])).some((m) => m.watchlistId === a.id), "a deleted list's members are gone");
    });
  });
}
