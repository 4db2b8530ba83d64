import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { billingPeriod } from "../../src/operations/billing-period.ts";
import { ENGINES, get, startTestService, type TestService } from "../helpers/service.ts";

for (const engine of ENGINES) {
  describe(`ports over HTTP (${engine})`, () => {
    let t: TestService;
    let key: string;
    before(async () => {
      t = await startTestService({ engine });
      ({ key } = await t.key("scale"));
    });
    after(() => t.close());

    it("lists five real Dutch ports with a next URL that pages on", async () => {
      const r = await get(t, "/api/v1/ports?country=NL&limit=5", key);
      assert.equal(r.status, 200);
      assert.equal(r.body.type, "port_list");
      assert.equal(r.body.apiVersion, "1");
      assert.equal(r.body.count, 5);
      assert.ok(r.body.data.every((p: { country: string }) => p.country === "NL"));
      const codes = r.body.data.map((p: { unlocode: string }) => p.unlocode);
      assert.deepEqual(codes, [...codes].sort());
      assert.match(r.body.next, /^http:\/\/localhost(:\d+)?\/api\/v1\/ports\?country=NL&limit=5&cursor=/);
      const next = new URL(r.body.next);
      const page2 = await get(t, `${next.pathname}${next.search}`, key);
      assert.equal(page2.status, 200);
      assert.ok(page2.body.data[0].unlocode > codes[4]);
      assert.ok(r.body.sources.includes("unlocode"));
      assert.ok(r.body.attribution.length >= 1 && r.body.license.length >= 1);
    });

    it("holds over 18,000 port rows", async () => {
      assert.ok((await t.service.services.ports.count()) > 18_000);
    });

    it("paging through every port of a country returns each exactly once", async () => {
      const seen: string[] = [];
      let url: string | undefined = "/api/v1/ports?country=NL&limit=7";
      while (url) {
        const r = await get(t, url, key);
        assert.equal(r.status, 200);
        seen.push(...r.body.data.map((p: { unlocode: string }) => p.unlocode));
        url = r.body.next ? new URL(r.body.next).pathname + new URL(r.body.next).search : undefined;
      }
      const all = await t.service.services.ports.list({ country: "NL", limit: 10_000 });
      assert.ok(all.length > 20);
      assert.equal(new Set(seen).size, seen.length, "no port twice");
      assert.deepEqual(seen, all.map((p) => p.unlocode));
    });

    it("gives coordinates with their source, and withholds geocoded ones with a count", async () => {
      const everything: Record<string, any>[] = [];
      let withheldRows = 0;
      let url: string | undefined = "/api/v1/ports?country=US&limit=100";
      while (url) {
        const r = await get(t, url, key);
        everything.push(...r.body.data);
        for (const w of r.body.withheld) {
          assert.equal(w.section, "coordinates");
          assert.deepEqual(w.sources, ["geoapify"]);
          assert.equal(w.reason, "source_not_licensed_for_api");
          withheldRows += w.rows;
        }
        url = r.body.next ? new URL(r.body.next).pathname + new URL(r.body.next).search : undefined;
      }
      const stored = await t.service.services.ports.list({ country: "US", limit: 100_000 });
      assert.equal(withheldRows, stored.filter((p) => p.coordSource === "geoapify" && p.lat !== null).length);
      assert.ok(everything.some((p) => p.coordinates?.source === "unlocode"));
      assert.ok(everything.every((p) => p.coordinates === undefined || p.coordinates.source !== "geoapify"));
    });

    it("serves a port page, case-insensitive, with apiVersion preview", async () => {
      const r = await get(t, "/api/v1/ports/nlrtm", key);
      assert.equal(r.status, 200);
      assert.equal(r.body.type, "port");
      assert.equal(r.body.apiVersion, "preview");
      assert.equal(r.body.unlocode, "NLRTM");
      assert.equal(r.body.name, "Rotterdam");
      assert.equal(r.body.data.coordinates.source, "unlocode");
      assert.ok(Math.abs(r.body.data.coordinates.lat - 51.9) < 0.2);
    });

    it("the 30 busiest container ports all resolve with coordinates", async () => {
      // Codes as the bundled UN/LOCODE has them. Where the everyday code is an airport's
      // (CNNGB, CNSZX, CNTSN, CNXMN, CNDLC) or not a port (IDTPP), the port code of the
      // same place is listed instead, and the test below checks that the 404 names it.
      const busiest = [
        "CNSGH", "SGSIN", "CNNBO", "CNSNZ", "CNQIN", "CNGZG", "KRPUS", "CNTXG", "HKHKG", "NLRTM",
        "AEJEA", "MYPKG", "CNXAM", "BEANR", "MYTPP", "USLAX", "CNDAL", "USLGB", "DEHAM", "TWKHH",
        "THLCH", "VNSGN", "INNSA", "USNYC", "IDJKT", "LKCMB", "JPTYO", "MAPTM", "GRPIR", "PHMNL",
      ];
      assert.equal(new Set(busiest).size, 30);
      for (const code of busiest) {
        const r = await get(t, `/api/v1/ports/${code}`, key);
        assert.equal(r.status, 200, code);
        const c = r.body.data.coordinates;
        assert.ok(c && typeof c.lat === "number" && typeof c.lon === "number", `${code} has coordinates`);
        assert.notEqual(c.source, "geoapify", code);
      }
    });

    it("Singapore has coordinates and the harbour facts WPI files under SG KEP", async () => {
      const r = await get(t, "/api/v1/ports/SGSIN", key);
      assert.equal(r.status, 200);
      assert.equal(r.body.data.coordinates.source, "wpi");
      assert.ok(Math.abs(r.body.data.coordinates.lat - 1.28) < 0.1 && Math.abs(r.body.data.coordinates.lon - 103.85) < 0.1);
      assert.equal(r.body.data.harbour.number, 50000);
      assert.equal(r.body.data.harbour.harborSize, "Large");
    });

    it("an airport's code answers 404 naming the place and its port's code", async () => {
      const shanghai = await get(t, "/api/v1/ports/CNSHA", key);
      assert.equal(shanghai.status, 404);
      assert.equal(shanghai.body.error.code, "not_found");
      assert.match(shanghai.body.error.message, /Shanghai/);
      assert.match(shanghai.body.error.message, /CNSGH/);
      for (const [airport, port] of [["CNNGB", "CNNBO"], ["CNDLC", "CNDAL"], ["CNSZX", "CNSNZ"], ["CNTSN", "CNTNJ"], ["CNXMN", "CNXAM"]] as const) {
        const r = await get(t, `/api/v1/ports/${airport}`, key);
        assert.equal(r.status, 404, airport);
        assert.match(r.body.error.message, new RegExp(port), airport);
      }
    });

    it("a port placed only by Natural Earth carries that source", async () => {
      const placed = (await t.service.services.ports.list({ limit: 100_000 })).filter((p) => p.coordSource === "natural_earth");
      assert.ok(placed.length > 10);
      const r = await get(t, `/api/v1/ports/${placed[0]!.unlocode}`, key);
      assert.equal(r.body.data.coordinates.source, "natural_earth");
      assert.ok(r.body.sources.includes("natural_earth"));
      assert.ok(r.body.attribution.some((a: string) => /Natural Earth/.test(a)));
    });

    it("a port page works without a key (optional auth) and is not charged", async () => {
      const r = await get(t, "/api/v1/ports/NLRTM");
      assert.equal(r.status, 200);
      assert.equal(r.headers["x-credits-cost"], "0");
    });

    const errors: [string, string, number, string, string?][] = [
      ["bad limit", "/api/v1/ports?limit=0", 400, "invalid_parameter", "limit"],
      ["limit over 100", "/api/v1/ports?limit=101", 400, "invalid_parameter", "limit"],
      ["limit not a number", "/api/v1/ports?limit=ten", 400, "invalid_parameter", "limit"],
      ["bad country", "/api/v1/ports?country=NLD", 400, "invalid_parameter", "country"],
      ["forged cursor", "/api/v1/ports?cursor=bm9wZQ", 400, "invalid_parameter", "cursor"],
      ["unknown parameter", "/api/v1/ports?contry=NL", 400, "invalid_parameter", "contry"],
      ["repeated parameter", "/api/v1/ports?limit=5&limit=6", 400, "invalid_parameter", "limit"],
      ["malformed UN/LOCODE", "/api/v1/ports/NL1", 400, "invalid_parameter", "unlocode"],
      ["unknown UN/LOCODE", "/api/v1/ports/ZZZZZ", 404, "not_found"],
      ["unknown route", "/api/v1/nothing", 404, "route_not_found"],
    ];
    for (const [name, url, status, code, param] of errors) {
      it(`${name}: ${status} ${code}`, async () => {
        const r = await get(t, url, key);
        assert.equal(r.status, status);
        assert.equal(r.body.error.code, code);
        if (param) {
          assert.equal(r.body.error.param, param);
          assert.ok(r.body.error.rule.length > 3);
        }
        assert.match(r.body.error.requestId, /^req_/);
        if (r.headers["x-credits-cost"] !== undefined) assert.equal(r.headers["x-credits-cost"], "0");
      });
    }

    it("a missing key on a key operation is 401 missing_api_key", async () => {
      const r = await get(t, "/api/v1/ports");
      assert.equal(r.status, 401);
      assert.equal(r.body.error.code, "missing_api_key");
    });

    it("a malformed or unknown key is 401 invalid_api_key, even on optional operations", async () => {
      for (const bad of ["nonsense", "mds_sk_00000000000000000000000000000000"]) {
        const r = await get(t, "/api/v1/ports/NLRTM", bad);
        assert.equal(r.status, 401);
        assert.equal(r.body.error.code, "invalid_api_key");
      }
    });

    it("a revoked key is 401 api_key_revoked", async () => {
      const k = await t.key("plus");
      assert.equal((await get(t, "/api/v1/ports?limit=1", k.key)).status, 200);
      await t.service.services.accounts.revokeKey(k.keyId);
      t.service.pipeline.auth.forget();
      const r = await get(t, "/api/v1/ports?limit=1", k.key);
      assert.equal(r.status, 401);
      assert.equal(r.body.error.code, "api_key_revoked");
    });

    it("an exhausted balance is 402 credits_exhausted and charges nothing", async () => {
      const k = await t.key("sandbox");
      const period = billingPeriod(t.clock.now());
      await t.service.services.ledger.setUsed(k.accountId, period, 1_000);
      const r = await get(t, "/api/v1/ports?limit=1", k.key);
      assert.equal(r.status, 402);
      assert.equal(r.body.error.code, "credits_exhausted");
      assert.equal(r.headers["x-credits-cost"], "0");
      assert.equal((await t.service.services.ledger.usage(k.accountId, k.keyId, period)).used, 1_000);
    });

    it("charges one credit per call and reports it in headers and /usage", async () => {
      const k = await t.key("plus");
      const r = await get(t, "/api/v1/ports?limit=2", k.key);
      assert.equal(r.headers["x-credits-cost"], "1");
      assert.equal(r.headers["x-credits-remaining"], "4999");
      await get(t, "/api/v1/ports/XXXXX", k.key); // a 404 is not charged
      const u = await get(t, "/api/v1/usage", k.key);
      assert.equal(u.status, 200);
      assert.equal(u.headers["x-credits-cost"], "0");
      assert.equal(u.body.data.tier, "plus");
      assert.equal(u.body.data.commercialUse, false);
      assert.equal(u.body.data.commercialScope, "none");
      assert.deepEqual({ ...u.body.data.credits, resetsAt: undefined }, { limit: 5000, used: 1, remaining: 4999, resetsAt: undefined });
      assert.equal(u.body.data.credits.resetsAt, "2026-12-01T00:00:00.000Z");
      assert.equal(u.body.data.rateLimitPerSecond, 5);
      assert.deepEqual(u.body.data.key, { id: k.keyId, calls: 1, credits: 1 });
      // Spec 2.8 gives the usage fields at the top of the answer: a client reads body.credits.remaining.
      assert.equal(u.body.tier, "plus");
      assert.equal(u.body.commercialUse, false);
      assert.equal(u.body.commercialScope, "none");
      assert.deepEqual(u.body.credits, u.body.data.credits);
      assert.equal(u.body.credits.remaining, 4999);
      assert.equal(u.body.rateLimitPerSecond, 5);
    });

    it("rate limits per key with 429 and Retry-After", async () => {
      const k = await t.key("sandbox"); // 2 per second
      const codes = await Promise.all(Array.from({ length: 6 }, () => get(t, "/api/v1/usage", k.key)));
      const limited = codes.filter((r) => r.status === 429);
      assert.ok(limited.length >= 3, `expected most of 6 calls limited, got ${limited.length}`);
      assert.equal(limited[0]!.body.error.code, "rate_limited");
      assert.ok(Number(limited[0]!.headers["retry-after"]) >= 1);
    });
  });
}
