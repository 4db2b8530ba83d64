/**
 * The zone map: Natural Earth land drawn offline under the drawing layer, a zone drawn by
 * clicking five corners (closing on the first) and added with the form; and the same form
 * without script, where the zone is pasted as GeoJSON.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type BrowserFixture, signIn, startFixture } from "./fixture.ts";
import { newContext, NO_BROWSER, screenshot, seriousA11yViolations } from "./harness.ts";

// What the in-page functions below use of the DOM (this project's TypeScript has no DOM library).
declare function getComputedStyle(el: unknown): { pointerEvents: string; zIndex: string };
interface Canvas {
  width: number;
  height: number;
  getContext(kind: "2d"): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
}

describe("browser: the zone map", { skip: NO_BROWSER }, () => {
  let f: BrowserFixture;
  before(async () => {
    f = await startFixture();
  });
  after(() => f.close());

  it("draws land from the bundled basemap; five clicks closing on the first make a zone the form adds", async () => {
    const { context, outside } = await newContext(f.browser, f.base);
    const page = await context.newPage();
    const { email } = await f.user();
    await signIn(page, f.base, email, "/account/zones");
    const figure = page.locator("#zone-map-figure");
    assert.ok(await figure.isVisible());
    // The regional view (zoom 5) loads the 1:50m land onto a canvas in the basemap pane.
    await page.waitForSelector("#zone-map-figure[data-basemap=large]");
    assert.equal(await page.locator(".leaflet-basemap-pane canvas").count(), 1);
    assert.equal(await page.locator(".leaflet-basemap-pane").evaluate((el) => getComputedStyle(el).pointerEvents), "none");
    // The canvas has land drawn on it: pixels of the land colour, not only sea.
    const landPixels = await page.locator(".leaflet-basemap-pane canvas").evaluate((el) => {
      const c = el as unknown as Canvas;
      const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] === 0xe8 && d[i + 1] === 0xe4 && d[i + 2] === 0xd4) n++;
      return n;
    });
    assert.ok(landPixels > 1000, `land drawn (${landPixels} pixels)`);

    await page.getByLabel("Name").first().fill("Drawn at sea");
    const box = (await page.locator("#zone-map").boundingBox())!;
    // A pentagon over the North Sea, in the middle of the 52N 4E view; the last click closes it on the first corner.
    const corners: [number, number][] = [[0.4, 0.35], [0.55, 0.3], [0.65, 0.45], [0.55, 0.6], [0.4, 0.55]];
    for (const [x, y] of [...corners, corners[0]!]) {
      await page.mouse.click(box.x + box.width * x, box.y + box.height * y);
    }
    const text = await page.getByLabel("Polygon as GeoJSON").inputValue();
    assert.ok(text, "drawing wrote the polygon into the form");
    const drawn = JSON.parse(text) as { type: string; coordinates: number[][][] };
    assert.equal(drawn.type, "Polygon");
    assert.equal(drawn.coordinates[0]!.length, 6, "five corners and the closing one");
    assert.deepEqual(drawn.coordinates[0]![0], drawn.coordinates[0]![5]);
    for (const [lon, lat] of drawn.coordinates[0]!) assert.ok(lon! > -10 && lon! < 20 && lat! > 40 && lat! < 62, `${lon}, ${lat} is around the North Sea`);
    // terra-draw's panes got their z-index from site.css (its own <style> is refused by the CSP): the drawing is above the land.
    const panes = await page.locator("#zone-map .leaflet-pane").evaluateAll((els) => els.map((e) => [e.className, getComputedStyle(e).zIndex]));
    for (const [cls, z] of panes) assert.notEqual(z, "auto", `${cls} has a z-index`);
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshot(page, "zone-drawn");

    await Promise.all([page.waitForURL(/done=added$/), page.getByRole("button", { name: "Add zone" }).click()]);
    assert.match((await page.locator("#zones").textContent()) ?? "", /Drawn at sea/);
    await context.close();
    assert.deepEqual(outside, [], "no request leaves the service (no tiles, no fonts)");
  });

  it("without script: no map, and the zone is added by pasting GeoJSON", async () => {
    const { context, outside } = await newContext(f.browser, f.base, { javaScriptEnabled: false });
    const page = await context.newPage();
    const { email } = await f.user();
    await signIn(page, f.base, email, "/account/zones");
    assert.equal(await page.locator("#zone-map-figure").isVisible(), false);
    await page.getByLabel("Name").first().fill("Pasted harbour");
    await page.getByLabel("Polygon as GeoJSON").fill("not json");
    await page.getByRole("button", { name: "Add zone" }).click();
    assert.match((await page.getByRole("alert").textContent()) ?? "", /not valid JSON/);
    assert.equal(await page.getByLabel("Name").first().inputValue(), "Pasted harbour", "what was typed stays");
    const feature = { type: "Feature", properties: {}, geometry: { type: "Polygon", coordinates: [[[24.9, 60.1], [25.0, 60.1], [25.0, 60.2], [24.9, 60.2], [24.9, 60.1]]] } };
    await page.getByLabel("Polygon as GeoJSON").fill(JSON.stringify(feature));
    await Promise.all([page.waitForURL(/done=added$/), page.getByRole("button", { name: "Add zone" }).click()]);
    assert.match((await page.locator("#zones").textContent()) ?? "", /Pasted harbour[\s\S]*24\.9, 60\.1, 25, 60\.2/);
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshot(page, "zone-pasted-nojs");
    await context.close();
    assert.deepEqual(outside, []);
  });
});
