/**
 * The watchlists page in a real browser, as a person uses it: with script off, a CSV file
 * chosen in the form makes a list (post, redirect, get), its members sanctioned now are
 * listed, and the screening downloads as CSV; a pasted list with bad lines names them and
 * adds nothing. Every page met is checked with axe; no request may leave the service.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { importFile, OFAC_2024_05_03 } from "../../../helpers/sanctions.ts";
import { type BrowserFixture, signIn, startFixture } from "./fixture.ts";
import { newContext, NO_BROWSER, screenshot, seriousA11yViolations } from "./harness.ts";

describe("browser: watchlists", { skip: NO_BROWSER }, () => {
  let f: BrowserFixture;
  before(async () => {
    f = await startFixture();
    await importFile(f.t, "ofac", [OFAC_2024_05_03], { asOf: "2024-05-03" });
  });
  after(() => f.close());

  it("without script: a CSV upload makes a list; its sanctioned members are shown and the screening downloads as CSV", async () => {
    const { context, outside } = await newContext(f.browser, f.base, { javaScriptEnabled: false });
    const page = await context.newPage();
    const { email } = await f.user();
    await signIn(page, f.base, email, "/account/watchlists");
    assert.equal(await page.getByRole("link", { name: "Watchlists" }).getAttribute("aria-current"), "page");
    await page.getByLabel("Name").fill("Chartered tankers");
    await page.getByLabel("Or a CSV file").setInputFiles({ name: "fleet.csv", mimeType: "text/csv", buffer: Buffer.from("vessel name,imo\nEBANO,7406784\nCLEAN,9176187\nARTAVIL,9187629\n") });
    await Promise.all([page.waitForURL(/done=added$/), page.getByRole("button", { name: "Add watchlist" }).click()]);
    assert.match((await page.locator("#watchlists").textContent()) ?? "", /Chartered tankers\s*3/);
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshot(page, "watchlists-added-nojs");

    await Promise.all([page.waitForURL(/\/account\/watchlists\/wl_\d+$/), page.getByRole("link", { name: "Sanctioned now in Chartered tankers" }).click()]);
    assert.match((await page.locator("#screening-summary").textContent()) ?? "", /3 vessels screened: 2 sanctioned now/);
    const sanctioned = (await page.locator("#sanctioned").textContent()) ?? "";
    assert.match(sanctioned, /7406784\s*EBANO/);
    assert.match(sanctioned, /9187629\s*ARTAVIL/);
    assert.doesNotMatch(sanctioned, /9176187/);
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshot(page, "watchlist-sanctioned-nojs");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download this screening as CSV" }).click()]);
    assert.match(download.suggestedFilename(), /^wl_\d+-screening\.csv$/);
    const lines = readFileSync((await download.path())!, "utf8").trimEnd().split("\r\n");
    assert.match(lines[0]!, /^query,imo,mmsi,name,sanctioned,certainty,/);
    assert.ok(lines.some((l) => /^7406784,7406784,,EBANO,true,/.test(l)));
    await context.close();
    assert.deepEqual(outside, []);
  });

  it("pasted ids with bad lines: the lines are named, nothing is added, and what was typed stays", async () => {
    const { context, outside } = await newContext(f.browser, f.base);
    const page = await context.newPage();
    const { email } = await f.user();
    await signIn(page, f.base, email, "/account/watchlists");
    await page.getByLabel("Name").fill("Typed");
    await page.getByLabel("Vessel ids").fill("9176187\n1234568\nmmsi-273456789");
    await page.getByRole("button", { name: "Add watchlist" }).click();
    assert.match((await page.getByRole("alert").textContent()) ?? "", /1 line was refused, so nothing was added/);
    assert.equal(await page.locator("#refused-lines").textContent(), "Pasted line 2: 1234568");
    assert.equal(await page.getByLabel("Vessel ids").inputValue(), "9176187\n1234568\nmmsi-273456789");
    assert.match((await page.locator("main").textContent()) ?? "", /No watchlists yet/);
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshot(page, "watchlists-refused");
    await context.close();
    assert.deepEqual(outside, []);
  });
});
