/**
 * The public pages in chromium: every kind opens as HTML with no console error, no request
 * leaving the service and no serious or critical axe violation; maps draw their features on
 * the bundled land; every `page` link the API hands out opens; a ship heard by a shared
 * station shows its track; a company's fleet and a waterway's gate and daily chart show; a legacy wreck slug lands on the canonical page; a source that
 * denies `web` use is kept off the pages, which say so. The vessel dossier: a sanctioned
 * ship's status above the fold at 1280 px with its list and dates, its former name and
 * company, a seeded event on the timeline beside the map and drawn on it, and no page wider
 * than a 390 px screen, with script on and off. With MDS_SCREENSHOTS=1 a screenshot of each
 * kind (the vessel page sanctioned and not, at 1280 and 390 px) goes to test-output/screenshots/.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { readFileSync } from "node:fs";
import { importSanctionsFiles } from "../../../../src/adapters/importers/sanctions-import.ts";
import { commitEvents, vesselEvent } from "../../../helpers/events.ts";
import { OFAC_2024_05_03 } from "../../../helpers/sanctions.ts";
import { sourcesFile } from "../../../helpers/sources-file.ts";
import { HOUR, identity, imoOf, MIN, station, writeTrack } from "../../../helpers/vessels.ts";
import { type BrowserFixture, startFixture } from "./fixture.ts";
import { newContext, NO_BROWSER, overflowOnPhone, screenshot, seriousA11yViolations } from "./harness.ts";

// What the in-page function below uses of the DOM (this project's TypeScript has no DOM library).
declare function getComputedStyle(el: unknown): { zIndex: string };

const MMSI = 244_000_601;
const IMO = imoOf(500_601);
const VESSEL_PAGE = `/vessel/${IMO}-heard-at-sea`;
/** ARTAVIL, on OFAC's SDN list (the real extract of 2024-05-03), formerly ALPHA, linked to NITC (its entity row made up here, as in the page tests). */
const SANCTIONED_PAGE = "/vessel/9187629-artavil";
const NITC_ENTITY = '9702,"NATIONAL IRANIAN TANKER COMPANY",-0- ,"IRAN] [NPWMD",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"Company Number IMO 5000001; a.k.a. \'NITC\'."\r\n';

// What the in-page functions below read of the DOM (this project's TypeScript has no DOM library).
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

/**
 * Opens a page and checks what every public page must hold: its status, HTML, no console
 * error, nothing fetched from elsewhere, no serious axe violation; then a screenshot (with
 * MDS_SCREENSHOTS=1). The
 * test clock stands still, so it is moved a second first: each visit gets a fresh
 * rate-limit second, as a person clicking around would.
 */
async function visit(f: BrowserFixture, page: Page, outside: string[], name: string, path: string, o: { status?: number; map?: boolean } = {}): Promise<void> {
  f.t.clock.t += 1000;
  const errors: string[] = [];
  const onConsole = (m: { type(): string; text(): string }) => {
    // The browser reports a 404 document's own status as a console error: that one is the page's point.
    if (m.type() === "error" && !(o.status === 404 && /status of 404/.test(m.text()))) errors.push(m.text());
  };
  const onError = (e: Error) => errors.push(e.message);
  page.on("console", onConsole);
  page.on("pageerror", onError);
  try {
    const res = await page.goto(`${f.base}${path}`);
    assert.equal(res?.status(), o.status ?? 200, `${name} (${path})`);
    assert.match(res!.headers()["content-type"] ?? "", /^text\/html/, name);
    if (o.map) {
      // The script drew the features and the land arrived: the figure says how many, the canvas holds the land.
      await page.waitForSelector("figure.entity-map[data-drawn][data-basemap]");
      const drawn = Number(await page.locator("figure.entity-map").first().getAttribute("data-drawn"));
      assert.ok(drawn >= 1, `${name}: ${drawn} features drawn`);
      assert.equal(await page.locator(".leaflet-basemap-pane canvas").count(), 1, `${name}: land canvas`);
      assert.ok((await page.locator(".leaflet-overlay-pane path").count()) >= 1, `${name}: a drawn shape`);
      // The shapes lie above the land, not hidden under it.
      const z = async (pane: string) => Number(await page.locator(pane).first().evaluate((el) => getComputedStyle(el).zIndex));
      assert.ok((await z(".leaflet-basemap-pane")) < (await z(".leaflet-overlay-pane")), `${name}: land below the shapes`);
    }
    await page.waitForLoadState("networkidle");
    // Every page has the header's search box, and fits a phone's screen.
    assert.equal(await page.locator("header form[role=search] #site-q").count(), 1, `${name}: search box`);
    assert.equal(await overflowOnPhone(page), 0, `${name}: px wider than a 390 px screen`);
    assert.deepEqual(errors, [], `${name}: console errors`);
    assert.deepEqual(outside, [], `${name}: requests to another origin`);
    assert.deepEqual(await seriousA11yViolations(page), [], `${name}: axe`);
    await screenshot(page, `public-${name}`);
  } finally {
    page.off("console", onConsole);
    page.off("pageerror", onError);
  }
}

describe("browser: public pages", { skip: NO_BROWSER }, () => {
  let f: BrowserFixture;
  before(async () => {
    f = await startFixture({ withData: true });
    const now = f.t.clock.now();
    const shared = await station(f.t, "pro", true);
    await identity(f.t, { stationId: shared.id, mmsi: MMSI, imo: IMO, name: "HEARD AT SEA" });
    await writeTrack(f.t, shared.id, MMSI, now - 20 * HOUR, now, 10 * MIN);
    await importSanctionsFiles(f.t.service.services, "ofac", [{ name: "SDN.CSV", bytes: readFileSync(OFAC_2024_05_03) }, { name: "SDN-entities.CSV", bytes: Buffer.from(NITC_ENTITY) }], "test", { asOf: "2024-05-03" });
    await f.t.service.services.vessels.refresh(now);
    // An encounter the shared station's fixes made, on the track's day and where the track runs.
    await commitEvents(f.t, [vesselEvent({ type: "encounter", stationId: shared.id, mmsi: MMSI, start: now - 6 * HOUR, counterpartMmsi: 244_000_699, lat: 55.05, lon: 10.05 })]);
  });
  after(() => f.close());

  it("the vessel dossier at 1280 px: a sanctioned ship's status above the fold naming its list and dates, its former name and company; a seeded event on the timeline and the map", async () => {
    const { context, outside } = await newContext(f.browser, f.base);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await visit(f, page, outside, "vessel-sanctioned-1280", SANCTIONED_PAGE);
    assert.match((await page.title()) ?? "", /^ARTAVIL \(sanctioned\) - /);
    const status = page.locator("#status");
    assert.ok(await status.isVisible());
    const box = (await status.locator("p").first().boundingBox())!;
    assert.ok(box.y + box.height <= 800, `the status line ends at ${box.y + box.height} px, within the first screen of 800`);
    assert.match((await status.locator("p").first().textContent()) ?? "", /^Sanctioned: OFAC Specially Designated Nationals and Blocked Persons List \(SDN\) \(record 15036, IRAN\), listing date not published, first loaded here \d{4}-\d\d-\d\d; the list as of 2024-05-03 \(\d+ days old\)\.$/);
    assert.match((await page.locator('#identity-history tr[data-what="Name"]').allTextContents()).join("\n"), /ALPHAformer name/);
    const company = page.getByRole("link", { name: "NATIONAL IRANIAN TANKER COMPANY" });
    assert.equal(await company.getAttribute("href"), "/company/imo-5000001-national-iranian-tanker-company");

    await visit(f, page, outside, "vessel-1280", VESSEL_PAGE, { map: true });
    const first = (await page.locator("#status p").first().boundingBox())!;
    assert.ok(first.y + first.height <= 800, "the status of a ship no list designates is above the fold too");
    assert.match((await page.locator("#status p").first().textContent()) ?? "", /^No designation on the lists checked; not every list is current and complete, so this is not a clearance:$/);
    assert.match((await page.locator("#status-lists").textContent()) ?? "", /as of 2024-05-03 \(\d+ days old\)/);
    // The seeded encounter: on the timeline, beside the map, and drawn on it.
    assert.match((await page.locator('#events-timeline li[data-type="encounter"]').textContent()) ?? "", /Encounter with a ship \(MMSI 244000699\), 3 h, at 55\.050, 10\.050\./);
    assert.equal(await page.locator("path.event-mark.event-encounter").count(), 1);
    const map = (await page.locator("#vessel-map").boundingBox())!;
    const timeline = (await page.locator("#events-timeline").boundingBox())!;
    assert.ok(timeline.x >= map.x + map.width, `the timeline (x ${timeline.x}) is beside the map (right edge ${map.x + map.width})`);
    await context.close();
  });

  it("the vessel dossier at 390 px is no wider than the screen, sanctioned or not, with script on and off", async () => {
    for (const javaScriptEnabled of [true, false]) {
      const { context, outside } = await newContext(f.browser, f.base, { javaScriptEnabled });
      const page = await context.newPage();
      await page.setViewportSize({ width: 390, height: 844 });
      for (const [name, path] of [["vessel-sanctioned", SANCTIONED_PAGE], ["vessel", VESSEL_PAGE]] as const) {
        await visit(f, page, outside, `${name}-390${javaScriptEnabled ? "" : "-nojs"}`, path, { map: javaScriptEnabled && path === VESSEL_PAGE });
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= 390, `${name}${javaScriptEnabled ? "" : " without script"}: the page is ${width} px wide on a 390 px screen`);
        assert.ok(await page.locator("#status").isVisible(), name);
      }
      await context.close();
    }
  });

  it("every kind: 200 text/html, no console error, nothing from elsewhere, maps drawn, no serious axe violation", async () => {
    const { context, outside } = await newContext(f.browser, f.base);
    const page = await context.newPage();
    await visit(f, page, outside, "vessel", VESSEL_PAGE, { map: true });
    await visit(f, page, outside, "port", "/port/NLRTM", { map: true });
    await visit(f, page, outside, "flag", "/flag/PA");
    await visit(f, page, outside, "wreck", "/wreck/14296-algeria", { map: true });
    await visit(f, page, outside, "company", "/company/marad-name-alaska-tanker-co-llc-alaska-tanker-co-llc");
    assert.ok((await page.locator("#fleet tbody tr").count()) >= 1);
    assert.match((await page.locator("#fleet q").first().textContent()) ?? "", /Alaska Tanker Co LLC/);
    // A company and a flag with designated ships: the fleet and the flag's count say which.
    await visit(f, page, outside, "company-sanctioned", "/company/imo-5000001-national-iranian-tanker-company");
    assert.ok((await page.locator("#fleet tbody tr[data-sanctioned]").count()) >= 1);
    await visit(f, page, outside, "flag-designated", "/flag/IR");
    assert.match((await page.locator("#flag-designated").textContent()) ?? "", /^\d+ ships under this flag are designated now/);
    await visit(f, page, outside, "waterway", "/waterway/chokepoint9-dover-strait", { map: true });
    // The gate: a line with a length on screen, not a dot; and the daily series as a chart of 30 bars.
    const gate = (await page.locator("path.gate-line").boundingBox())!;
    assert.ok(Math.hypot(gate.width, gate.height) > 20, `gate spans ${gate.width} x ${gate.height} px`);
    // No station covers the strait: the page says so rather than charting zeros.
    assert.match((await page.locator("#counts").textContent()) ?? "", /^No coverage: /);
    assert.equal(await page.locator("svg.chart rect.bar").count(), 0);
    await visit(f, page, outside, "company-not-found", "/company/ofac-99999999", { status: 404 });
    await visit(f, page, outside, "waterway-not-found", "/waterway/chokepoint99", { status: 404 });
    await visit(f, page, outside, "search", "/search?q=rotterdam");
    await visit(f, page, outside, "search-empty", "/search");
    await visit(f, page, outside, "not-found", "/vessel/mmsi-999999999", { status: 404 });
    // A ship with emissions: the chart.
    const emsa = await f.t.service.store.db.selectFrom("vessel_emissions").select("imo").groupBy("imo").having((eb) => eb.fn.countAll(), ">=", 3).orderBy("imo").limit(1).executeTakeFirstOrThrow();
    f.t.clock.t += 1000;
    await page.goto(`${f.base}/vessel/${emsa.imo}`);
    assert.match(page.url(), new RegExp(`/vessel/${emsa.imo}-[a-z0-9-]+$`));
    assert.ok((await page.locator("svg.chart rect.bar").count()) >= 3);
    await screenshot(page, "public-vessel-emissions");
    await context.close();
  });

  it("the header's search box suggests as one types, from the server", async () => {
    const { context, outside } = await newContext(f.browser, f.base);
    const page = await context.newPage();
    await visit(f, page, outside, "port-for-search", "/port/DEHAM", { map: true });
    f.t.clock.t += 1000;
    await Promise.all([page.waitForResponse((r) => r.url().includes("/search/suggestions?q=rotterdam")), page.locator("#site-q").pressSequentially("rotterdam")]);
    await page.waitForFunction(() => (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }).document.querySelectorAll("#site-q-suggestions option").length > 0);
    const values = await page.locator("#site-q-suggestions option").evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
    assert.ok(values.some((v) => /rotterdam/i.test(v)), values.join(", "));
    assert.deepEqual(outside, []);
    await context.close();
  });

  it("a ship heard by a shared station shows its track drawn on the map", async () => {
    const { context, outside } = await newContext(f.browser, f.base);
    const page = await context.newPage();
    await visit(f, page, outside, "vessel-track", VESSEL_PAGE, { map: true });
    const d = await page.locator("path.track-line").getAttribute("d");
    // 20 hours of fixes every 10 minutes: a line (Leaflet drops points closer than a pixel or so), not a dot.
    assert.ok(d && (d.match(/L/g) ?? []).length >= 5, `track path ${d?.slice(0, 80)}`);
    const box = (await page.locator("path.track-line").boundingBox())!;
    assert.ok(box.width > 20 && box.height > 20, `track spans ${box.width} x ${box.height} px`);
    assert.equal(await page.locator("#track tbody tr").count(), 100);
    assert.match((await page.locator("#vessel-map-figure figcaption").textContent()) ?? "", /120 points/);
    await context.close();
  });

  it("every `page` link the API hands out, for a sample of each kind, opens with 200 text/html on this origin", async () => {
    const { key } = await f.t.key("scale");
    const api = async (path: string) => {
      const r = await fetch(`${f.base}${path}`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(r.status, 200, path);
      return (await r.json()) as Record<string, any>;
    };
    const links = new Set<string>();
    links.add((await api(`/api/v1/vessels/${IMO}`)).page);
    links.add((await api(`/api/v1/vessels/mmsi-${MMSI}`)).page);
    for (const code of ["NLRTM", "DEHAM", "SGSIN"]) {
      const p = await api(`/api/v1/ports/${code}`);
      links.add(p.page);
      links.add(p.data.flag.page);
    }
    for (const code of ["PA", "LR", "MT"]) links.add((await api(`/api/v1/flags/${code}`)).page);
    for (const id of ["14296", "algeria-14296", "1"]) links.add((await api(`/api/v1/wrecks/${id}`)).page);
    for (const q of ["heard", "rotterdam", "star", "malta", "nlrtm"]) for (const h of (await api(`/api/v1/search?q=${q}`)).data.slice(0, 4)) links.add(h.page);
    for (const h of (await api("/api/v1/search?q=alaska%20tanker&kind=company")).data.slice(0, 3)) {
      links.add(h.page);
      for (const s of (await api(`/api/v1/companies/${h.id}`)).data.fleet.slice(0, 2)) links.add(s.vessel.page);
    }
    for (const w of (await api("/api/v1/waterways")).data.filter((x: { id: string }) => ["chokepoint1", "chokepoint9", "kiel-canal"].includes(x.id))) links.add(w.page);
    const { context, outside } = await newContext(f.browser, f.base);
    const page = await context.newPage();
    const kinds = new Set<string>();
    for (const link of links) {
      assert.ok(link.startsWith(f.base), `${link} is on the service's origin`);
      f.t.clock.t += 1000;
      const res = await page.goto(link);
      assert.equal(res?.status(), 200, link);
      assert.match(res!.headers()["content-type"] ?? "", /^text\/html/, link);
      // A canonical link opens where it points: no redirect on the way.
      assert.equal(page.url(), link);
      kinds.add(new URL(link).pathname.split("/")[1]!);
    }
    assert.deepEqual([...kinds].sort(), ["company", "flag", "port", "vessel", "waterway", "wreck"]);
    assert.deepEqual(outside, []);
    await context.close();
  });

  it("without script the pages work: no map, the track as a table, no serious axe violation", async () => {
    const { context, outside } = await newContext(f.browser, f.base, { javaScriptEnabled: false });
    const page = await context.newPage();
    await visit(f, page, outside, "vessel-nojs", VESSEL_PAGE);
    assert.equal(await page.locator("#vessel-map-figure").isVisible(), false);
    assert.equal(await page.locator("#track tbody tr").count(), 100);
    await visit(f, page, outside, "port-nojs", "/port/NLRTM");
    assert.match((await page.locator("#coordinates").textContent()) ?? "", /51\.9167, 4\.5000/);
    await visit(f, page, outside, "waterway-nojs", "/waterway/chokepoint9-dover-strait");
    assert.equal(await page.locator("#waterway-map-figure").isVisible(), false);
    assert.match((await page.locator("#counts").textContent()) ?? "", /^No coverage: /);
    // The header's search box is a plain form without script.
    f.t.clock.t += 1000;
    await page.locator("#site-q").fill("rotterdam");
    await Promise.all([page.waitForURL(/\/search\?q=rotterdam$/), page.locator("header form[role=search] button").click()]);
    assert.ok((await page.locator("#hits li").count()) >= 1);
    await visit(f, page, outside, "search-nojs", "/search?q=heard");
    await context.close();
  });

  it("a legacy wreck slug redirects to the canonical page", async () => {
    const { context } = await newContext(f.browser, f.base);
    const page = await context.newPage();
    f.t.clock.t += 1000;
    const res = await page.goto(`${f.base}/wreck/algeria-14296`);
    assert.equal(res?.status(), 200);
    assert.equal(page.url(), `${f.base}/wreck/14296-algeria`);
    assert.equal(res!.request().redirectedFrom()?.url(), `${f.base}/wreck/algeria-14296`);
    assert.equal(await page.locator("h1").textContent(), "ALGERIA");
    await context.close();
  });
});

describe("browser: a source denying `web` use", { skip: NO_BROWSER }, () => {
  let f: BrowserFixture;
  let sources: { path: string; remove: () => void };
  before(async () => {
    // Station feeds may be served by the API but not shown on pages.
    sources = sourcesFile({ station: { web: false } });
    f = await startFixture({ withData: true, env: { SOURCES_FILE: sources.path } });
    const now = f.t.clock.now();
    const shared = await station(f.t, "pro", true);
    await identity(f.t, { stationId: shared.id, mmsi: MMSI, imo: IMO, name: "HEARD AT SEA" });
    await writeTrack(f.t, shared.id, MMSI, now - 2 * HOUR, now, 10 * MIN);
  });
  after(async () => {
    await f.close();
    sources.remove();
  });

  it("removes its facts from the page, and the page says which source withholds what", async () => {
    const { context, outside } = await newContext(f.browser, f.base);
    const page = await context.newPage();
    // The name came from the station alone: the page address has no slug to give it away.
    await visit(f, page, outside, "vessel-web-denied", `/vessel/${IMO}`);
    const main = (await page.locator("main").textContent()) ?? "";
    assert.doesNotMatch(main, /HEARD AT SEA/);
    assert.equal(await page.locator("#track").count(), 0);
    assert.match((await page.locator("#last-position").textContent()) ?? "", /The last position is withheld/);
    assert.match((await page.locator("#track-empty").textContent()) ?? "", /the positions are withheld/);
    const withheld = page.locator("#withheld li");
    const sections = await withheld.evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { section: string } }).dataset.section));
    for (const s of ["identity", "lastPosition", "positions"]) assert.ok(sections.includes(s), `${s} listed as withheld (${sections.join(", ")})`);
    // The identity is withheld from both answers behind the page (the vessel's and its track's): said once.
    assert.equal(new Set(sections).size, sections.length, sections.join(", "));
    assert.match((await page.locator('#withheld li[data-section="positions"]').textContent()) ?? "", /12 rows\): source [^:]+ does not permit showing its facts on web pages/);
    // The API, for the same anonymous caller, still has them.
    const r = (await (await fetch(`${f.base}/api/v1/vessels/${IMO}`)).json()) as Record<string, any>;
    assert.equal(r.name, "HEARD AT SEA");
    assert.ok(r.data.lastPosition);
    await context.close();
  });
});
