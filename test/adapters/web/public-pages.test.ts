/**
 * The public pages over HTTP: canonical addresses and their redirects, 404 pages, ETags,
 * every `page` link the API hands out opening as a page, tracks by the visitor's rights, and
 * the `web` use of the sources file deciding what pages show. The vessel dossier (status with
 * the lists checked, risk chips, identity history, events timeline), and which ships the
 * company, flag and search pages say are designated.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { slugify } from "../../../src/domain/pages/page-paths.ts";
import { startTestService, type TestService } from "../../helpers/service.ts";
import { sourcesFile } from "../../helpers/sources-file.ts";
import { HOUR, identity, imoOf, MIN, station, used, writeTrack } from "../../helpers/vessels.ts";
import { hashPassword } from "../../../src/adapters/web/password-hasher.ts";
import { SqlUserStore } from "../../../src/adapters/storage/accounts/users-store.ts";
import { Browser, makeUser, PASSWORD } from "./helpers.ts";
import { readFileSync } from "node:fs";
import { importSanctionsFiles } from "../../../src/adapters/importers/sanctions-import.ts";
import { OFAC_2024_05_03, UK_XML } from "../../helpers/sanctions.ts";
import { sailVoyage } from "../../helpers/voyage.ts";
import { positionLine, staticLines, stationFor } from "../../helpers/ingest.ts";
import { commitEvents, vesselEvent } from "../../helpers/events.ts";

const SHARED_MMSI = 244_000_501;
const PRIVATE_MMSI = 244_000_502;
const SHARED_IMO = imoOf(500_501);
const OWNER = "owner@example.test";

/**
 * A visitor's GET. The test clock stands still, so every request falls in one rate-limit
 * second; each visit comes from an address of its own, as separate visitors would.
 */
let visitors = 0;
const page = (t: TestService, url: string, headers: Record<string, string> = {}) => {
  const n = ++visitors;
  return t.service.app.inject({ method: "GET", url, headers, remoteAddress: `10.9.${(n >> 8) & 255}.${n & 255}` });
};
const main = (body: string) => body.slice(body.indexOf("<main"), body.indexOf("</main>"));
/** The points the page's map draws, from its data attribute. */
function mapTrack(body: string): [number, number][] {
  const m = /data-map="([^"]*)"/.exec(body);
  return m ? (JSON.parse(m[1]!.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")) as { track: [number, number][] }).track : [];
}

describe("public pages", () => {
  let t: TestService;
  let emsaImo: number;
  let emsaName: string;
  let sharedStation: number;
  before(async () => {
    t = await startTestService();
    const row = await t.service.store.db.selectFrom("vessel_emissions").select(["imo", "name"]).orderBy("imo").orderBy("year", "desc").limit(1).executeTakeFirstOrThrow();
    emsaImo = row.imo;
    emsaName = row.name;
    const now = t.clock.now();
    const shared = await station(t, "pro", true);
    const priv = await station(t, "pro", false);
    sharedStation = shared.id;
    await identity(t, { stationId: shared.id, mmsi: SHARED_MMSI, imo: SHARED_IMO, name: "HEARD ÅLAND" });
    // Two days of track: the open day and the day before, which only a plan with history sees.
    await writeTrack(t, shared.id, SHARED_MMSI, now - 48 * HOUR, now, 10 * MIN);
    await writeTrack(t, priv.id, PRIVATE_MMSI, now - 2 * HOUR, now, 10 * MIN);
    // A person of the private station's account, who may see their own station's ships.
    const users = new SqlUserStore(t.service.store.db, t.clock);
    await users.createUser({ accountId: priv.accountId, email: OWNER, passwordHash: await hashPassword(PASSWORD) });
  });
  after(() => t.close());

  it("each kind answers 200 text/html at its canonical address, and other forms of it redirect there (301)", async () => {
    const slug = slugify(emsaName);
    const cases: [string, string][] = [
      [`/vessel/${emsaImo}`, `/vessel/${emsaImo}-${slug}`],
      [`/vessel/${emsaImo}-not-its-name`, `/vessel/${emsaImo}-${slug}`],
      [`/vessel/${SHARED_IMO}`, `/vessel/${SHARED_IMO}-heard-aland`],
      ["/port/nlrtm", "/port/NLRTM"],
      ["/flag/pa", "/flag/PA"],
      ["/wreck/14296", "/wreck/14296-algeria"],
      // The legacy `{slug}-{id}` form, and an outdated name before the id.
      ["/wreck/algeria-14296", "/wreck/14296-algeria"],
      ["/wreck/14296-old-name", "/wreck/14296-algeria"],
      // A company by its bare id, another of its ids' spelling, or a wrong slug.
      ["/company/marad-name-alaska-tanker-co-llc", "/company/marad-name-alaska-tanker-co-llc-alaska-tanker-co-llc"],
      ["/company/MARAD-NAME-ALASKA-TANKER-CO-LLC", "/company/marad-name-alaska-tanker-co-llc-alaska-tanker-co-llc"],
      // A waterway by its bare id (ids hold hyphens too), or with an outdated slug.
      ["/waterway/chokepoint9", "/waterway/chokepoint9-dover-strait"],
      ["/waterway/chokepoint9-old-name", "/waterway/chokepoint9-dover-strait"],
      ["/waterway/kiel-canal", "/waterway/kiel-canal-kiel-canal"],
    ];
    for (const [from, to] of cases) {
      const r = await page(t, from);
      assert.equal(r.statusCode, 301, from);
      assert.equal(r.headers.location, to, from);
      const c = await page(t, to);
      assert.equal(c.statusCode, 200, to);
      assert.match(String(c.headers["content-type"]), /^text\/html/, to);
    }
    // The query string survives the redirect.
    assert.equal((await page(t, "/port/nlrtm?x=1")).headers.location, "/port/NLRTM?x=1");
    const s = await page(t, "/search?q=rotterdam");
    assert.equal(s.statusCode, 200);
    assert.match(main(s.body), /href="\/port\/NLRTM"/);
    // Every kind search finds is named on its hit: a company's hit says "Company", not nothing.
    const companies = await page(t, "/search?q=alaska%20tanker");
    assert.match(main(companies.body), /href="\/company\/[^"]+">[^<]+<\/a> <span class="hint">Company · /);
  });

  it("an unknown id or a malformed address is a 404 page in HTML, never a 500", async () => {
    for (const url of ["/vessel/9999999", "/vessel/1234567", "/vessel/mmsi-999999999", "/port/ZZZZZ", "/flag/ZZ", "/wreck/99999999", "/vessel/abc", "/vessel/%00", "/vessel/%27%20OR%201=1", `/vessel/${"9".repeat(90)}`, "/port/..%2F..", "/flag/%E2%82%AC", "/wreck/-", `/wreck/${"a".repeat(90)}-99999999`, "/company/ofac-99999999", "/company/nobody", "/company/%27%20OR%201=1", `/company/${"x-".repeat(60)}`, "/waterway/chokepoint99", "/waterway/canal", "/waterway/%3Cscript%3E", "/waterway/chokepoint"]) {
      const r = await page(t, url);
      assert.equal(r.statusCode, 404, `${url}: ${r.body.slice(0, 200)}`);
      assert.match(String(r.headers["content-type"]), /^text\/html/, url);
      assert.match(main(r.body), /<h1>Not found<\/h1>/, url);
    }
    // An address longer than the router takes, or not valid escaped UTF-8, is refused before any page runs, with the reason.
    for (const url of [`/vessel/${"9".repeat(500)}`, "/vessel/%C0%AF", "/port/%ZZ"]) {
      const bad = await page(t, url);
      assert.equal(bad.statusCode, 400, url);
      assert.match(bad.body, /malformed/, url);
    }
    const short = await page(t, "/search?q=a");
    assert.equal(short.statusCode, 400);
    assert.match(main(short.body), /role="alert"[^>]*>Parameter `q` must be 2 to 100 characters/);
  });

  it("every `page` link the API hands out opens as a page at once (no redirect)", async () => {
    const key = (await t.key("scale")).key;
    const api = async (url: string) => {
      const r = await t.service.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${key}` } });
      assert.equal(r.statusCode, 200, `${url}: ${r.body}`);
      return r.json() as Record<string, any>;
    };
    const links: string[] = [];
    links.push((await api(`/api/v1/vessels/${emsaImo}`)).page, (await api(`/api/v1/vessels/${SHARED_IMO}`)).page, (await api(`/api/v1/vessels/mmsi-${SHARED_MMSI}`)).page);
    links.push((await api("/api/v1/ports/NLRTM")).page, (await api("/api/v1/ports/NLRTM")).data.flag.page, (await api("/api/v1/flags/PA")).page, (await api("/api/v1/wrecks/algeria-14296")).page);
    for (const q of ["rotterdam", "star", "panama", String(emsaImo), `mmsi-${SHARED_MMSI}`]) for (const h of (await api(`/api/v1/search?q=${q}`)).data.slice(0, 8)) links.push(h.page);
    // Companies as search finds them and as their own answer names them, and every ship of a fleet; every waterway.
    const companyHits = (await api("/api/v1/search?q=alaska%20tanker&kind=company")).data.slice(0, 5) as { kind: string; page: string; id: string }[];
    assert.ok(companyHits.length > 0 && companyHits.every((h) => h.kind === "company"));
    for (const h of companyHits) {
      const c = await api(`/api/v1/companies/${h.id}`);
      links.push(h.page, c.page, ...c.data.fleet.map((f: { vessel: { page: string } }) => f.vessel.page));
    }
    const waterways = (await api("/api/v1/waterways")).data as { page: string }[];
    assert.ok(waterways.length >= 28);
    links.push(...waterways.map((w) => w.page));
    const kinds = new Set<string>();
    for (const link of links.filter(Boolean)) {
      const path = new URL(link).pathname;
      kinds.add(path.split("/")[1]!);
      const r = await page(t, path);
      assert.equal(r.statusCode, 200, `${link} -> ${r.statusCode} ${r.headers.location ?? ""}`);
      assert.match(String(r.headers["content-type"]), /^text\/html/);
    }
    assert.deepEqual([...kinds].sort(), ["company", "flag", "port", "vessel", "waterway", "wreck"]);
  });

  it("a company page shows its records, ids and fleet with role, quoted evidence and source, each ship linking to its page", async () => {
    const r = await page(t, "/company/marad-name-alaska-tanker-co-llc-alaska-tanker-co-llc");
    assert.equal(r.statusCode, 200);
    const body = main(r.body);
    assert.match(body, /<h1>Alaska Tanker Co LLC<\/h1>/);
    assert.match(body, /<table id="records">[\s\S]*<code>marad<\/code><\/td><td>Alaska Tanker Co LLC<\/td>/);
    assert.match(body, /<dt>Entity id<\/dt><dd>marad-name-alaska-tanker-co-llc<\/dd>/);
    // No list was loaded here: the page says each list was not checked, never "not designated".
    assert.match(body, /<tr data-list="ofac" data-status="list_not_loaded"><td>OFAC<\/td><td>Not checked: this list has not been loaded<\/td><\/tr>/);
    assert.doesNotMatch(body, /Not designated|No sanctions designation/);
    // With no list loaded, the fleet was not checked, and says so rather than "not designated".
    assert.match(body, /<p id="fleet-designated">No sanctions list is loaded, so no ship of this fleet was checked\.<\/p>/);
    const row = /<tr><td><a href="([^"]+)">ALASKAN EXPLORER<\/a><\/td><td>IMO 9244661<\/td><td>([^<]+)<\/td><td>not checked<\/td><td><q>([^<]+)<\/q><\/td><td><code>marad<\/code><\/td><\/tr>/.exec(body);
    assert.ok(row, body);
    assert.deepEqual([row[2], row[3]], ["Operator", "Operator: Alaska Tanker Co LLC"]);
    assert.equal((await page(t, row[1]!)).statusCode, 200, row[1]);
    assert.match(body, /id="withheld-none"/);
    assert.match(body, /<h2 id="sources-h">Sources<\/h2>/);
  });

  it("a waterway page draws its gate, counts a shared station's crossing by direction and charts the daily series", async () => {
    const url = "/waterway/chokepoint9-dover-strait";
    const before = main((await page(t, url)).body);
    /** The 24-hour row of the counts table, by its column headings (the two directions and the total). */
    const counts24h = (body: string): Record<string, number> => {
      const heads = [...(/<table id="counts">[\s\S]*?<thead><tr>([\s\S]*?)<\/tr><\/thead>/.exec(body)?.[1] ?? "").matchAll(/<th scope="col">([^<]+)<\/th>/g)].map((x) => x[1]!).slice(1);
      const cells = [...(/<th scope="row">Last 24 hours<\/th>([\s\S]*?)<\/tr>/.exec(body)?.[1] ?? "").matchAll(/<td>([\d,]+)<\/td>/g)].map((x) => Number(x[1]!.replace(/,/g, "")));
      assert.equal(cells.length, heads.length, body);
      return Object.fromEntries(heads.map((h, i) => [h, cells[i]!]));
    };
    // No station covers the strait yet: the page says so instead of showing zeros as a fact, and tells a visitor why.
    assert.match(before, /<p id="counts" class="notice">No coverage: [^<]*not known \(not zero\)\./);
    assert.match(before, /<p id="series" class="notice">No coverage:/);
    assert.match(before, /without an account you see only stations their owners share/);
    // The series as JSON is not a link an anonymous visitor would get a 401 from: it points at the API reference.
    assert.doesNotMatch(before, /href="\/api\/v1\/waterways/);
    assert.match(before, /<a href="\/docs\/api#waterways\.transits">/);
    // The map's data: the gate as a line of two or more ends.
    const m = /data-map="([^"]*)"/.exec(before);
    const map = JSON.parse(m![1]!.replace(/&quot;/g, '"')) as { lines: { coordinates: [number, number][] }[] };
    assert.equal(map.lines.length, 1);
    assert.ok(map.lines[0]!.coordinates.length >= 2);
    assert.match(before, /<dt>Method<\/dt><dd>chokepoint_transit\.gate_crossing<\/dd>/);
    assert.match(before, /<dt>Version<\/dt><dd>[^<]+<\/dd>/);
    assert.match(before, /<dt>Confidence<\/dt><dd>(high|medium|low|none) \(window 24h\)<\/dd>/);

    // A tanker from a shared station sails south-west through the strait.
    const shared = await stationFor(t, "pro", "shared-dover-page");
    await t.service.services.stations.updateStation(shared.id, { shared: true, redistribution: true, commercial: true });
    t.service.ingest.directory.forget();
    const voyage = sailVoyage([{ sail: [1.2, 50.8], knots: 15 }], { mmsi: 235_200_101, stationId: shared.id, start: t.clock.now() - 2 * HOUR, from: [2.0, 51.3] });
    const station = (await t.service.ingest.directory.byId(shared.id))!;
    const lines = [...staticLines({ mmsi: 235_200_101, shipname: "PAGE TANKER", shipType: 80 }), ...voyage.fixes.map((f) => positionLine({ mmsi: f.mmsi, lat: f.lat, lon: f.lon, sog: f.sog ?? 0, navStatus: 0 }, Math.floor(f.time / 1000) * 1000))];
    const r = t.service.ingest.pipeline.submit(station, lines, { source: "test-page", transport: "http" });
    await t.service.ingest.pipeline.flush();
    await r.stored;
    await t.service.derived!.idle();

    const after = main((await page(t, url)).body);
    const now = counts24h(after);
    assert.deepEqual(now, { "northeast-bound": 0, "southwest-bound": 1, Total: 1 });
    assert.match(after, /<svg class="chart" role="img" aria-labelledby="chart-transits-per-day"/);
    assert.match(after, /<table id="series">/);
    // The station by its name, not its source id.
    assert.match(after, /<dt>Stations<\/dt><dd>shared-dover-page<\/dd>/);
    assert.doesNotMatch(after, new RegExp(`station:${shared.id}`));
  });

  it("every kind of public page has the header's search box; its suggestions are the visitor's search hits with their pages", async () => {
    const kinds = [`/vessel/${SHARED_IMO}-heard-aland`, "/port/NLRTM", "/flag/PA", "/wreck/14296-algeria", "/company/marad-name-alaska-tanker-co-llc-alaska-tanker-co-llc", "/waterway/chokepoint9-dover-strait", "/search?q=rotterdam", "/vessel/9999999"];
    for (const url of kinds) {
      const r = await page(t, url);
      assert.match(r.body, /<form method="get" action="\/search" role="search" class="site-search"[^>]*>.*<input id="site-q" name="q"/, url);
    }
    const s = (await page(t, "/search/suggestions?q=rotterdam")).json() as { suggestions: { label: string; name: string; page: string }[] };
    assert.ok(s.suggestions.length >= 1 && s.suggestions.length <= 8, JSON.stringify(s));
    assert.ok(s.suggestions.some((x) => x.page === "/port/NLRTM" && /Rotterdam/i.test(x.name) && x.label.endsWith("(port)")), JSON.stringify(s));
    const heard = (await page(t, "/search/suggestions?q=heard%20aland")).json() as { suggestions: { page: string }[] };
    assert.ok(heard.suggestions.some((x) => x.page === `/vessel/${SHARED_IMO}-heard-aland`), JSON.stringify(heard));
  });

  it("pages carry an ETag; asking again with it is a 304 without a body", async () => {
    const first = await page(t, "/port/NLRTM");
    const etag = String(first.headers.etag);
    assert.match(etag, /^"[\w-]{27}"$/);
    assert.equal(first.headers["cache-control"], "private, no-cache");
    const again = await page(t, "/port/NLRTM", { "if-none-match": etag });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, "");
    // Another page, or the same one changed (time moved: the last position's age), is sent in full.
    assert.equal((await page(t, "/port/DEHAM", { "if-none-match": etag })).statusCode, 200);
    const v = await page(t, `/vessel/${SHARED_IMO}-heard-aland`);
    t.clock.t += 5 * MIN;
    try {
      const later = await page(t, `/vessel/${SHARED_IMO}-heard-aland`, { "if-none-match": String(v.headers.etag) });
      assert.equal(later.statusCode, 200);
      assert.notEqual(later.headers.etag, v.headers.etag);
    } finally {
      t.clock.t -= 5 * MIN;
    }
  });

  it("an anonymous visitor sees the last 24 hours from shared stations; a private station's ship has no page for them", async () => {
    const r = await page(t, `/vessel/${SHARED_IMO}-heard-aland`);
    assert.equal(r.statusCode, 200);
    const body = main(r.body);
    assert.match(body, /Last heard <strong>/);
    // 24 h of fixes every 10 minutes on the map; the table under it lists the newest 100.
    const points = mapTrack(body).length;
    assert.ok(points >= 140 && points <= 145, `${points} track points`);
    assert.equal((body.match(/<tr><td>2026-/g) ?? []).length, 100);
    assert.match(body, new RegExp(`the latest 100 of ${points}`));
    assert.equal((await page(t, `/vessel/mmsi-${PRIVATE_MMSI}`)).statusCode, 404);
  });

  it("a signed-in visitor sees what their plan allows (a week of history, their own station), and page views cost no credits", async () => {
    const b = new Browser(t);
    await makeUser(t, "history@example.test", "pro");
    await b.signIn("history@example.test");
    const r = await b.get(`/vessel/${SHARED_IMO}-heard-aland`);
    assert.equal(r.statusCode, 200);
    const points = mapTrack(main(r.body)).length;
    assert.ok(points >= 280, `${points} track points for a plan with history`);
    const o = new Browser(t);
    await o.signIn(OWNER);
    const mine = await o.get(`/vessel/mmsi-${PRIVATE_MMSI}`);
    assert.equal(mine.statusCode, 200);
    assert.match(main(mine.body), /Last heard <strong>/);
  });

  it("the vessel page leads with a dossier (identity, status with the lists checked, risk chips, last position), and lists the ship's events beside the map, marked on it", async () => {
    const shared = sharedStation;
    const now = t.clock.now();
    // An encounter with another ship and an AIS gap, both heard by the shared station three hours ago.
    await commitEvents(t, [
      vesselEvent({ type: "encounter", stationId: shared, mmsi: SHARED_MMSI, start: now - 3 * HOUR, counterpartMmsi: 244_000_599, lat: 59.6, lon: 20.6 }),
      vesselEvent({ type: "ais_gap", stationId: shared, mmsi: SHARED_MMSI, start: now - 5 * HOUR, lat: 59.4, lon: 20.4 }),
    ]);
    const body = main((await page(t, `/vessel/${SHARED_IMO}-heard-aland`)).body);
    // The dossier comes first, before any other section.
    assert.ok(body.indexOf('class="dossier"') < body.indexOf("<h2"), "the dossier is above every section");
    assert.match(body, /<dt>Name<\/dt><dd>HEARD ÅLAND<\/dd>/);
    assert.match(body, new RegExp(`<dt>IMO number</dt><dd>${SHARED_IMO}</dd>`));
    assert.match(body, /<dt>MMSI<\/dt><dd>244000501<\/dd>/);
    // No list is loaded here: the status says the ship was not checked, and names every list as not loaded.
    assert.match(body, /<div class="status status-none" id="status"><p><strong>Not checked: no sanctions list is loaded<\/strong>/);
    assert.match(body, /<li data-list="ofac" data-status="missing" class="coverage-gap">OFAC [^<]*: not loaded, not checked<\/li>/);
    // The events the shared station's fixes made: counted as dated chips, listed newest first, drawn on the map.
    assert.match(body, /<li class="chip" data-indicator="ais_gaps">AIS gaps: 1, latest <time datetime="[^"]+">\d{4}-\d\d-\d\d<\/time><\/li>/);
    const timeline = body.slice(body.indexOf('id="events-timeline"'), body.indexOf("</ol>", body.indexOf('id="events-timeline"')));
    assert.deepEqual([...timeline.matchAll(/<li data-type="([a-z_]+)">/g)].map((m) => m[1]), ["encounter", "ais_gap"]);
    assert.match(timeline, /Encounter with a ship \(MMSI 244000599\)<\/strong>, 3 h, at 59\.600, 20\.600\./);
    // The source by its name, not its id.
    assert.match(timeline, /Source shared mast\./);
    // Sources by their names everywhere on the page, never a raw station id in a cell or line.
    const rawId = />[^<]*station:\d+[^<]*</.exec(body);
    assert.equal(rawId, null, rawId?.[0]);
    const m = /data-map="([^"]*)"/.exec(body);
    const map = JSON.parse(m![1]!.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&")) as { events: { type: string; lat: number; lon: number }[] };
    assert.deepEqual(map.events.map((e) => [e.type, e.lat, e.lon]), [["ais_gap", 59.4, 20.4], ["encounter", 59.6, 20.6]]);
    assert.match(body, /#track-h">track and events<\/a>/);
  });

  it("the search page works for a visitor without an account, and its hits link to canonical pages", async () => {
    const r = await page(t, "/search?q=heard");
    assert.equal(r.statusCode, 200);
    assert.match(main(r.body), new RegExp(`href="/vessel/${SHARED_IMO}-heard-aland"`));
    const none = await page(t, "/search?q=zzzzqqqq");
    assert.match(main(none.body), /Nothing found/);
  });
});

describe("public pages: a sanctioned company", () => {
  let t: TestService;
  before(async () => {
    t = await startTestService();
    // The real 2024-05-03 SDN sample links ARTAVIL and other tankers to this company; its own entity row (SDN.CSV layout) is made up here.
    const entity = '9702,"NATIONAL IRANIAN TANKER COMPANY",-0- ,"IRAN] [NPWMD",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"Company Number IMO 5000001; a.k.a. \'NITC\'."\r\n';
    await importSanctionsFiles(t.service.services, "ofac", [{ name: "SDN.CSV", bytes: readFileSync(OFAC_2024_05_03) }, { name: "SDN-entities.CSV", bytes: Buffer.from(entity) }], "test", { asOf: "2024-05-03" });
    await t.service.services.vessels.refresh(t.clock.now());
  });
  after(() => t.close());

  it("the list's record id redirects to the company's strongest id; the page shows its designation, alias and linked fleet", async () => {
    const canonical = "/company/imo-5000001-national-iranian-tanker-company";
    for (const from of ["/company/ofac-9702", "/company/imo-5000001", "/company/imo-5000001-nitc"]) {
      const r = await page(t, from);
      assert.equal(r.statusCode, 301, from);
      assert.equal(r.headers.location, canonical, from);
    }
    const r = await page(t, canonical);
    assert.equal(r.statusCode, 200);
    const body = main(r.body);
    assert.match(body, /<ul id="designations"><li><strong>OFAC<\/strong> record 9702: NATIONAL IRANIAN TANKER COMPANY \(programmes IRAN, NPWMD\)/);
    assert.match(body, /<td>NITC<\/td>/);
    assert.match(body, /<dt>Also known by<\/dt><dd>[^<]*ofac-9702/);
    assert.match(body, /<a href="\/vessel\/9187629-artavil">ARTAVIL<\/a><\/td><td>IMO 9187629<\/td><td>Linked \(role not stated\)<\/td><td> <strong class="sanctioned-mark">Sanctioned<\/strong> \(OFAC\)<\/td><td><q>Linked To: NATIONAL IRANIAN TANKER COMPANY<\/q><\/td><td><code>ofac<\/code>/);
    assert.match(body, /<tr data-list="ofac" data-status="designated">/);
  });

  it("ARTAVIL's page says Sanctioned at the top, in its title and on its search hit, with the list, the record and the list's date; its former name, flags and company show", async () => {
    const r = await page(t, "/vessel/9187629-artavil");
    assert.equal(r.statusCode, 200);
    assert.match(r.body, /<title>ARTAVIL \(sanctioned\) - /);
    const body = main(r.body);
    // Never heard by a station the visitor may see: the anonymous visitor is told why, and how to see more.
    assert.match(body, /<p id="last-position">No position heard by stations whose data you may see\. <span class="visitor-positions">Positions come from receiving stations/);
    assert.match(body, /<h1>ARTAVIL \(sanctioned\)<\/h1>/);
    // The status is the dossier's, above every section, and names the list, its record and its as-of date (with its age).
    const status = body.slice(body.indexOf('id="status"'), body.indexOf("</div>", body.indexOf('id="status"')));
    assert.ok(body.indexOf('id="status"') < body.indexOf("<h2"), "the status is above every section");
    assert.match(status, /<strong>Sanctioned<\/strong>: OFAC Specially Designated Nationals and Blocked Persons List \(SDN\) \(record 15036, IRAN\), listing date not published, first loaded here \d{4}-\d\d-\d\d; the list as of 2024-05-03 \(\d+ days old\)\./);
    assert.match(status, /<li data-list="uk" data-status="missing" class="coverage-gap">UK Sanctions List \(FCDO\): not loaded, not checked<\/li>/);
    assert.match(body, /<li class="chip" data-indicator="sanctioned_now">Sanctioned now: 1, latest <time datetime="2024-05-03">2024-05-03<\/time><\/li>/);
    assert.match(body, /<dt>Flag<\/dt><dd><a href="\/flag\/IR">Iran<\/a> <span class="hint-inline">\(as ofac lists it\)<\/span><\/dd>/);
    assert.match(body, /<dt>Type<\/dt><dd>Crude\/Oil Products Tanker \(as ofac lists it\)<\/dd>/);
    // Identity history: the former name and former flags as the list gives them, dated by the list, never as a sighting.
    const history = body.slice(body.indexOf('id="identity-history"'), body.indexOf("</table>", body.indexOf('id="identity-history"')));
    assert.match(history, /<tr data-what="Name"><td>Name<\/td><td>ALPHA<\/td><td>former name<\/td><td>listing date not published; in the list&#39;s version of 2024-05-03<\/td><td><code>ofac<\/code> record 15036<\/td><\/tr>/);
    assert.match(history, /<td>Flag<\/td><td>Malta<\/td><td>former flag<\/td>/);
    assert.match(history, /<td>Call sign<\/td><td>T2EU4<\/td>/);
    assert.match(history, /<td>MMSI<\/td><td>572469210<\/td>/);
    assert.doesNotMatch(history.slice(history.indexOf("<tbody>")), /heard|seen in/, "a list's date is not a sighting");
    // The company is a link to its page, with its own status.
    assert.match(body, /<td><a href="\/company\/imo-5000001-national-iranian-tanker-company">NATIONAL IRANIAN TANKER COMPANY<\/a><\/td><td> <strong class="sanctioned-mark">Sanctioned<\/strong> \(OFAC\)<\/td>/);
    // The search hit says so too, found by the former name.
    const hits = main((await page(t, "/search?q=alpha")).body);
    assert.match(hits, /<li><a href="\/vessel\/9187629-artavil">ALPHA<\/a> <span class="hint">Vessel · IMO 9187629 · MMSI 572469210<\/span> <strong class="sanctioned-mark">Sanctioned<\/strong> \(OFAC\)<\/li>/);
    assert.match(hits, /<li><a href="\/wreck\/[^"]+">ALPHA<\/a> <span class="hint">Wreck · [^<]+<\/span><\/li>/, "other hits carry no mark");
  });

  it("a ship no list designates says so with each list checked, its as-of date, and what was not checked", async () => {
    const emsa = (await t.service.store.db.selectFrom("vessel_emissions").select("imo").orderBy("imo").limit(1).executeTakeFirstOrThrow()).imo;
    const r = await page(t, `/vessel/${emsa}`);
    const body = main((await page(t, String(r.headers.location))).body);
    assert.doesNotMatch(body, /<h1>[^<]*sanctioned/);
    assert.match(body, /<div class="status status-none" id="status"><p><strong>No designation on the lists checked<\/strong>; not every list is current and complete, so this is not a clearance:<\/p>/);
    assert.match(body, /<li data-list="ofac" data-status="current">OFAC Specially Designated Nationals and Blocked Persons List \(SDN\) as of 2024-05-03 \(\d+ days old\)<\/li>/);
    assert.match(body, /<li data-list="eu" data-status="missing" class="coverage-gap">/);
  });

  it("the company's fleet says which ships are designated; the flag page counts the designated ships under its flag", async () => {
    const body = main((await page(t, "/company/imo-5000001-national-iranian-tanker-company")).body);
    assert.match(body, /<p id="fleet-designated">(\d+) of the \1 ships are designated now by a sanctions list\.<\/p>/);
    assert.match(body, /<tr data-sanctioned="ofac"><td><a href="\/vessel\/9187629-artavil">ARTAVIL<\/a><\/td><td>IMO 9187629<\/td><td>Linked \(role not stated\)<\/td><td> <strong class="sanctioned-mark">Sanctioned<\/strong> \(OFAC\)<\/td>/);
    // A fleet with no designated ship says none is, on the lists checked.
    const marad = main((await page(t, "/company/marad-name-alaska-tanker-co-llc-alaska-tanker-co-llc")).body);
    assert.match(marad, /<p id="fleet-designated">None of the \d+ ships is designated on the lists checked/);
    assert.doesNotMatch(marad, /data-sanctioned=/);
    const api = (await t.service.app.inject({ method: "GET", url: "/api/v1/flags/IR", remoteAddress: "10.8.1.1" })).json() as { data: { sanctioned: { list: string; count: number }[] } };
    const ofac = api.data.sanctioned.find((l) => l.list === "ofac")!;
    assert.ok(ofac.count > 0);
    const flag = main((await page(t, "/flag/IR")).body);
    assert.match(flag, new RegExp(`<p id="flag-designated"><strong>${ofac.count}</strong> ships under this flag are designated now`));
    assert.match(flag, /<tr data-list="ofac"><td>OFAC<\/td><td>\d+<\/td><td><details><summary>\d+ ships<\/summary><a href="\/vessel\/9187629-artavil">ARTAVIL<\/a> \(IMO 9187629\)/);
    assert.match(flag, /<table id="flag-vessels">[\s\S]*<td><code>ofac<\/code><\/td><td>\d+<\/td><td>Crude Oil Tanker: /);
  });

  it("a company no list designates: 'not designated' only where the list's company records are loaded; a list of ships only says it could not check", async () => {
    // The UK list gives ships (and their owners' names), no designation of a company.
    await importSanctionsFiles(t.service.services, "uk", [{ name: "UK.xml", bytes: readFileSync(UK_XML) }], "test", { asOf: "2026-04-29" });
    const api = await t.service.app.inject({ method: "GET", url: "/api/v1/companies/marad-name-alaska-tanker-co-llc" });
    assert.equal(api.statusCode, 200, api.body);
    const checks = Object.fromEntries(JSON.parse(api.body).data.designationChecks.map((c: { list: string; status: string }) => [c.list, c.status]));
    assert.deepEqual(checks, { ofac: "not_designated", uk: "no_company_records", eu: "list_not_loaded", canada: "list_not_loaded", "new-zealand": "list_not_loaded" });
    const body = main((await page(t, "/company/marad-name-alaska-tanker-co-llc-alaska-tanker-co-llc")).body);
    assert.match(body, /<tr data-list="ofac" data-status="not_designated"><td>OFAC<\/td><td>Not designated: none of the 1 company designations loaded \(as of 2024-05-03\) is this company<\/td>/);
    assert.match(body, /<tr data-list="uk" data-status="no_company_records"><td>UK<\/td><td>Not checked: no company records loaded from this list \(as of 2026-04-29\), only ships<\/td>/);
  });
  it("the status marks a list held only as an extract, and a list not updated lately", async () => {
    await importSanctionsFiles(t.service.services, "uk", [{ name: "UK.xml", bytes: readFileSync(UK_XML) }], "test", { asOf: "2026-04-29", extract: true });
    const emsa = (await t.service.store.db.selectFrom("vessel_emissions").select("imo").orderBy("imo").limit(1).executeTakeFirstOrThrow()).imo;
    const at = async () => main((await page(t, String((await page(t, `/vessel/${emsa}`)).headers.location))).body);
    assert.match(await at(), /<li data-list="uk" data-status="extract" class="coverage-gap">UK Sanctions List \(FCDO\) as of 2026-04-29 \(\d+ days old\): an extract only, not the whole list<\/li>/);
    const was = t.clock.t;
    t.clock.t += (t.service.services.sanctions.staleAfterDays + 1) * 86_400_000;
    try {
      assert.match(await at(), /<li data-list="ofac" data-status="stale" class="coverage-gap">OFAC [^<]* as of 2024-05-03 \(\d+ days old\): not updated lately<\/li>/);
    } finally {
      t.clock.t = was;
    }
  });
});

describe("public pages: the sources file's `web` use", () => {
  let t: TestService;
  let sources: { path: string; remove: () => void };
  let imo: number;
  before(async () => {
    // EMSA may be served by the API but not shown on pages; the ITF list the other way round.
    sources = sourcesFile({ emsa_mrv: { web: false }, itf_foc: { web: true } });
    t = await startTestService({ env: { SOURCES_FILE: sources.path } });
    imo = (await t.service.store.db.selectFrom("vessel_emissions").select("imo").orderBy("imo").limit(1).executeTakeFirstOrThrow()).imo;
  });
  after(async () => {
    await t.close();
    sources.remove();
  });

  it("a source denying `web` is kept off the page, which says what is withheld and why; the API still serves it", async () => {
    const r = await page(t, `/vessel/${imo}`);
    // Its name came from EMSA only: the address carries no slug, since the slug would give the name away.
    assert.equal(r.statusCode, 200, `${r.statusCode} ${r.headers.location ?? ""}`);
    const body = main(r.body);
    assert.doesNotMatch(body, /id="emissions"/);
    assert.doesNotMatch(body, /class="chart"/);
    assert.match(body, /<li data-section="emissions"><strong>Emissions<\/strong>: source <strong title="emsa_mrv">EU MRV emissions \(EMSA THETIS-MRV\)<\/strong> does not permit showing its facts on web pages\.<\/li>/);
    assert.match(body, /<li data-section="particulars">/);
    const api = (await t.service.app.inject({ method: "GET", url: `/api/v1/vessels/${imo}`, remoteAddress: "10.8.0.2" })).json() as Record<string, any>;
    assert.ok(Array.isArray(api.data.emissions) && api.data.emissions.length > 0);
    assert.equal(api.withheld.length, 0);
  });

  it("a source allowing `web` but not the API shows on pages only", async () => {
    const r = await page(t, "/flag/PA");
    assert.match(main(r.body), /id="foc"/);
    const api = (await t.service.app.inject({ method: "GET", url: "/api/v1/flags/PA", remoteAddress: "10.8.0.1" })).json() as Record<string, any>;
    assert.equal(api.data.flagOfConvenience, null, JSON.stringify(api));
  });

  it("a credit-charged account's page views cost no credits", async () => {
    const { accountId, userId } = await makeUser(t, "credits@example.test", "plus");
    const b = new Browser(t);
    await b.signIn("credits@example.test");
    assert.equal((await b.get("/port/NLRTM")).statusCode, 200);
    assert.equal((await b.get("/search?q=rotterdam")).statusCode, 200);
    assert.equal(await used(t, { accountId, keyId: `web:${userId}` }), 0);
  });
});

describe("public pages: events of a station whose data may not be shown on pages", () => {
  let t: TestService;
  let sources: { path: string; remove: () => void };
  const mmsi = 244_000_551;
  const imo = imoOf(500_551);
  before(async () => {
    sources = sourcesFile({ station: { web: false } });
    t = await startTestService({ withData: false, env: { SOURCES_FILE: sources.path } });
    const shared = await station(t, "pro", true);
    await identity(t, { stationId: shared.id, mmsi, imo, name: "QUIET ONE" });
    const now = t.clock.now();
    await commitEvents(t, [
      vesselEvent({ type: "loitering", stationId: shared.id, mmsi, start: now - 4 * HOUR }),
      vesselEvent({ type: "ais_gap", stationId: shared.id, mmsi, start: now - 2 * HOUR }),
    ]);
  });
  after(async () => {
    await t.close();
    sources.remove();
  });

  it("the page shows none of them and counts them once, though both the vessel answer and the events list withhold them", async () => {
    const body = main((await page(t, `/vessel/${imo}`)).body);
    assert.match(body, /<p id="events-none">No events from stations whose data you may see\.<\/p>/);
    const events = [...body.matchAll(/<li data-section="events">(.*?)<\/li>/g)].map((m) => m[1]);
    assert.equal(events.length, 1, body);
    assert.match(events[0]!, /^<strong>Events<\/strong> \(2 rows\): source <strong title="station:\d+">[^<]+<\/strong> does not permit showing its facts on web pages\.$/);
    // The risk indicators resting on them say so in words, not by their ids.
    assert.match(body, /<li data-section="risk.ais_gaps"><strong>Risk indicator: AIS gaps<\/strong> \(1 row\): source <strong title="station:\d+">[^<]+<\/strong>/);
  });
});
