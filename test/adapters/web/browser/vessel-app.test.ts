/**
 * The MCP vessel app in chromium, loaded the way a host loads it: the test's own harness page
 * (on the service's origin) reads the `ui://` resource with the SDK client, puts the HTML in a
 * sandboxed iframe (srcdoc, sandbox="allow-scripts", the spec's restrictive CSP for a resource
 * declaring no domain) and speaks the extension's postMessage protocol to it: it answers
 * `ui/initialize` with a host context (light or dark theme), waits for `initialized`, then sends
 * the arguments and the result of a real `get_vessel` call on a sanctioned ship (OFAC's EBANO,
 * heard by the caller's station, with a loitering event), and of get_vessel_events and a failed call. Checked: the header says Sanctioned
 * with its list, the map drew the land and both places, the app follows the theme and stays
 * within 500 px, axe finds no serious violation, and nothing but the harness page was requested.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Frame, Page } from "playwright-core";
import { VESSEL_APP_URI } from "../../../../src/adapters/mcp/apps/vessel-app.ts";
import { commitEvents, vesselEvent } from "../../../helpers/events.ts";
import type { Client } from "@modelcontextprotocol/client";
import { callTool, connect, type ToolCallResult } from "../../../helpers/mcp.ts";
import { importFile, OFAC_2024_05_03 } from "../../../helpers/sanctions.ts";
import { HOUR, identity, station, writeFixes } from "../../../helpers/vessels.ts";
import { type BrowserFixture, startFixture } from "./fixture.ts";
import { newContext, NO_BROWSER, screenshot, seriousA11yViolations, seriousA11yViolationsInFrame } from "./harness.ts";

const EBANO = 7406784;
const EBANO_MMSI = 352001234;

/** The CSP a host builds for a resource whose `_meta.ui.csp` declares no domain (SEP-1865, "Restrictive Default"). */
const RESTRICTIVE_CSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'";

const HARNESS_PATH = "/test-only/mcp-app-host";
const HARNESS = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>MCP app host</title></head><body><main><h1>Host</h1></main>
<script>${readFileSync(join(import.meta.dirname, "mcp-app-host.js"), "utf8")}</script></body></html>`;

interface HostRun {
  html: string;
  args: Record<string, unknown>;
  result: ToolCallResult;
  theme: "light" | "dark";
}

/** What the harness page's `startHost` (mcp-app-host.js) and the test read back from the page. */
type HostPage = { startHost(run: HostRun & { csp: string; serverTools: boolean }): void; changeTheme(theme: string): void; sendResult(result: ToolCallResult): void; appMessages: { method?: string; params?: { height?: number } }[] };

/** The app's background colour as the browser computed it. */
const backgroundOf = (app: Frame) =>
  app.locator("body").evaluate((body) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(body).backgroundColor);

describe("browser: the MCP vessel app in a host's sandboxed frame", { skip: NO_BROWSER }, () => {
  let f: BrowserFixture;
  let html: string;
  let args: Record<string, unknown>;
  let result: ToolCallResult;
  let events: ToolCallResult;
  let notFound: ToolCallResult;
  /** The host's connection to the service, kept open: the app's own tool calls go through it. */
  let client: Client;
  before(async () => {
    f = await startFixture();
    await importFile(f.t, "ofac", [OFAC_2024_05_03], { asOf: "2024-05-03" });
    // The caller's own station heard EBANO broadcast its IMO, reported it at sea, and saw it loiter.
    const st = await station(f.t, "pro");
    const now = f.t.clock.now();
    await identity(f.t, { stationId: st.id, mmsi: EBANO_MMSI, imo: EBANO, name: "EBANO" });
    // Five hours of track along the Cuban north coast, the last fix an hour ago.
    await writeFixes(
      f.t,
      [5, 4, 3, 2, 1].map((h) => ({ mmsi: EBANO_MMSI, time: now - h * HOUR, stationId: st.id, lat: 23.1 + (h - 1) * 0.05, lon: -82.4 - (h - 1) * 0.3, sog: 9.5, cog: 80, heading: 80, navStatus: 0 })),
    );
    await commitEvents(f.t, [vesselEvent({ type: "loitering", stationId: st.id, mmsi: EBANO_MMSI, start: now - 30 * HOUR, lat: 22.6, lon: -83.9 })]);
    // What a host does: read the resource the tool names, call the tool.
    client = await connect(Object.assign(f.t, { address: f.base }), st.key, "2026-07-28");
    const read = await client.readResource({ uri: VESSEL_APP_URI });
    html = (read.contents[0] as { text: string }).text;
    args = { id: String(EBANO) };
    result = await callTool(client, "get_vessel", args);
    events = await callTool(client, "get_vessel_events", args);
    notFound = await callTool(client, "get_vessel", { id: "9999993" });
    assert.equal(result.isError, undefined);
  });
  after(async () => {
    await client.close();
    await f.close();
  });

  /** The harness page on the service's origin (answered by the test itself), with every request it makes recorded. */
  async function openHost(theme: "light" | "dark", answer: ToolCallResult = result, serverTools = false): Promise<{ page: Page; app: Frame; requested: string[]; outside: string[]; close: () => Promise<void> }> {
    const { context, outside } = await newContext(f.browser, f.base);
    await context.route(`${f.base}${HARNESS_PATH}`, (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: HARNESS }));
    await context.exposeFunction("callServerTool", (params: { name: string; arguments: Record<string, unknown> }) => callTool(client, params.name, params.arguments));
    const page = await context.newPage();
    const requested: string[] = [];
    page.on("request", (r) => requested.push(r.url()));
    await page.goto(`${f.base}${HARNESS_PATH}`);
    await page.evaluate((run) => (globalThis as unknown as HostPage).startHost(run), { html, args, result: answer, theme, csp: RESTRICTIVE_CSP, serverTools });
    const handle = await page.waitForSelector("iframe");
    const app = (await handle.contentFrame())!;
    await app.waitForSelector("main#app:not([aria-busy])");
    return { page, app, requested, outside, close: () => context.close() };
  }

  for (const theme of ["light", "dark"] as const) {
    it(`${theme} theme: Sanctioned with its list, the map drawn, axe clean, nothing requested`, async () => {
      const h = await openHost(theme);
      const { page, app } = h;
      assert.equal(await app.locator("h1").textContent(), "EBANO");
      assert.equal(await app.locator("#sanctions-h").textContent(), "Sanctioned");
      const sanctions = (await app.locator("#sanctions").textContent()) ?? "";
      assert.match(sanctions, /OFAC Specially Designated Nationals/);
      assert.match(sanctions, /ofac_sdn, programme CUBA/);
      assert.match(sanctions, /Lists as of: ofac 2024-05-03/);
      assert.match(sanctions, /Not checked in full: .*uk/);
      assert.match((await app.locator("#dossier dl").textContent()) ?? "", /IMO7406784.*Flag\s*Panama \(per the ofac list\)/);
      assert.equal(await app.locator('#risk tr[data-indicator="sanctioned_now"] td').first().textContent(), "1");
      // The land and both places (the last position, the loitering) on the map, on a canvas.
      assert.equal(await app.locator("#map-figure").getAttribute("data-land"), "drawn");
      assert.equal(await app.locator("#map-figure").getAttribute("data-drawn"), "2");
      assert.ok((await app.locator("#map canvas").count()) >= 1);
      assert.match((await app.locator("#events").textContent()) ?? "", /loitering/);
      assert.match((await app.locator("#attribution").textContent()) ?? "", /OFAC/);
      // This host passes no tool call on: no offer to fetch the track.
      assert.equal(await app.locator("#track-button").count(), 0);
      // The host's theme, and a height within the 500 px a widget may take.
      assert.equal(await app.locator("html").getAttribute("data-theme"), theme);
      assert.equal(await backgroundOf(app), theme === "dark" ? "rgb(27, 29, 33)" : "rgb(255, 255, 255)");
      const sizes = (await page.evaluate(() => (globalThis as unknown as HostPage).appMessages))
        .filter((m) => m.method === "ui/notifications/size-changed")
        .map((m) => m.params!.height!);
      assert.ok(sizes.length > 0 && sizes.every((hgt) => hgt <= 500), `reported heights ${sizes.join(", ")}`);
      assert.deepEqual(await seriousA11yViolations(page), []);
      assert.deepEqual(await seriousA11yViolationsInFrame(app), []);
      await screenshot(page, `mcp-vessel-app-${theme}`);
      await h.close();
      assert.deepEqual(h.outside, []);
      assert.deepEqual(h.requested, [`${f.base}${HARNESS_PATH}`]);
    });
  }

  it("follows the host when its theme changes (host-context-changed), and draws a later result afresh", async () => {
    const h = await openHost("light");
    await h.page.evaluate(() => (globalThis as unknown as HostPage).changeTheme("dark"));
    await h.app.waitForSelector('html[data-theme="dark"]');
    assert.equal(await backgroundOf(h.app), "rgb(27, 29, 33)");
    // A later result replaces the drawing: one map, with the events answer's one place.
    await h.page.evaluate((next) => (globalThis as unknown as HostPage).sendResult(next), events);
    await h.app.waitForSelector('#map-figure[data-drawn="1"]');
    assert.equal(await h.app.locator(".leaflet-container").count(), 1);
    await h.close();
    assert.deepEqual(h.outside, []);
  });

  it("get_vessel_events: the events on the map and in the table; withheld parts listed", async () => {
    assert.equal(events.isError, undefined);
    // The app's rendering of `withheld` (this caller is shown everything, so one entry is added to the real answer).
    const withheld = { ...events, structuredContent: { ...events.structuredContent, withheld: [{ section: "events", sources: ["station:999"], rows: 3, reason: "source_not_licensed_for_api" }] } };
    const h = await openHost("light", withheld);
    assert.equal(await h.app.locator("h1").textContent(), "EBANO");
    assert.equal(await h.app.locator("#map-figure").getAttribute("data-drawn"), "1");
    assert.match((await h.app.locator("#events tbody").textContent()) ?? "", /loitering.*22\.600, -83\.900/);
    assert.match((await h.app.locator("#withheld").textContent()) ?? "", /events \(3 rows\): sources station:999 \(source not licensed for api\)/);
    assert.deepEqual(await seriousA11yViolationsInFrame(h.app), []);
    await h.close();
    assert.deepEqual(h.outside, []);
  });

  it("an error result: the app shows the text the model got", async () => {
    assert.equal(notFound.isError, true);
    const h = await openHost("dark", notFound);
    assert.equal(await h.app.locator("h1").textContent(), "The call failed");
    assert.match((await h.app.locator("pre").textContent()) ?? "", /^Error not_found \(HTTP 404\)/);
    assert.deepEqual(await seriousA11yViolationsInFrame(h.app), []);
    await h.close();
    assert.deepEqual(h.outside, []);
  });

  it("a host that passes tool calls on: the app draws the last day of track when asked, and only then", async () => {
    const h = await openHost("light", result, true);
    const button = h.app.getByRole("button", { name: "Draw the last 24 hours of track (get_vessel_track, 1 credit)" });
    assert.equal(await h.app.locator("#map-figure").getAttribute("data-track"), null);
    const calls = () => h.page.evaluate(() => (globalThis as unknown as HostPage).appMessages.filter((m) => m.method === "tools/call"));
    assert.deepEqual(await calls(), []);
    await button.click();
    await h.app.waitForSelector("#map-figure[data-track]");
    assert.equal(await h.app.locator("#map-figure").getAttribute("data-track"), "5");
    assert.match((await h.app.locator("#track-status").textContent()) ?? "", /^Track drawn: 5 points from /);
    assert.deepEqual(
      (await calls()).map((m) => (m as { params?: unknown }).params),
      [{ name: "get_vessel_track", arguments: { id: "7406784", hours: 24 } }],
    );
    assert.deepEqual(await seriousA11yViolationsInFrame(h.app), []);
    await screenshot(h.page, "mcp-vessel-app-track");
    await h.close();
    assert.deepEqual(h.outside, []);
    assert.deepEqual(h.requested, [`${f.base}${HARNESS_PATH}`]);
  });
});
