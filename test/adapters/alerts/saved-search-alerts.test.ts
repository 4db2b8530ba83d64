/** `alert.saved_search`: a vessel newly on a sanctions list that matches a saved search. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { savedSearchMatches } from "../../../src/domain/alerts/saved-search-match.ts";
import { ofacCsvBefore } from "../../helpers/sanctions-fixtures.ts";
import { startTestService, type TestService } from "../../helpers/service.ts";
import { importBytes } from "../../helpers/sanctions.ts";
import { HOOK_HOST, type Receiver, startReceiver, transportFor, verifyReceived } from "../../helpers/webhooks.ts";

describe("saved-search matching", () => {
  const marlin = { name: "M/V Marlín", imos: [9396854], mmsis: [273000001] };
  it("matches whole words of the name in order, the IMO or the MMSI, when the kinds allow vessels", () => {
    assert.equal(savedSearchMatches({ q: "marlin", kind: null }, marlin), true);
    assert.equal(savedSearchMatches({ q: "m/v MARLIN", kind: "vessel" }, marlin), true);
    assert.equal(savedSearchMatches({ q: "9396854", kind: "sanctions" }, marlin), true);
    assert.equal(savedSearchMatches({ q: "273000001", kind: null }, marlin), true);
    assert.equal(savedSearchMatches({ q: "marl", kind: null }, marlin), false, "a word's start is not the word");
    assert.equal(savedSearchMatches({ q: "marlin", kind: "port" }, marlin), false);
    assert.equal(savedSearchMatches({ q: "--", kind: null }, marlin), false);
    assert.equal(savedSearchMatches({ q: "9396855", kind: null }, marlin), false);
  });
});

describe("alert.saved_search end to end", () => {
  let receiver: Receiver;
  let t: TestService;
  before(async () => {
    receiver = await startReceiver("127.0.0.32");
    t = await startTestService({ withData: false, webhooks: { transport: transportFor("127.0.0.32") } });
  });
  after(async () => {
    await t.close();
    receiver.close();
  });
  const api = async (key: string, method: string, url: string, body?: unknown) => {
    const res = await t.service.app.inject({ method: method as "GET", url, headers: { authorization: `Bearer ${key}` }, ...(body !== undefined ? { payload: body as object } : {}) });
    return { status: res.statusCode, body: res.json() as Record<string, any> };
  };

  it("a newly listed vessel matching a saved search raises one signed alert.saved_search naming the search; the baseline and other searches raise nothing", async () => {
    const a = await t.key("pro");
    const hook = await api(a.key, "POST", "/api/v1/account/webhooks", { url: `https://${HOOK_HOST}:8443/saved` });
    const search = await api(a.key, "POST", "/api/v1/account/saved-searches", { name: "Marlins", q: "marlin" });
    assert.equal(search.status, 200, JSON.stringify(search.body));
    await api(a.key, "POST", "/api/v1/account/saved-searches", { name: "Ports", q: "marlin", kind: "port" });
    await importBytes(t, "ofac", "sdn.csv", ofacCsvBefore("2021-11-12").csv, { asOf: "2021-11-12" });
    assert.equal(await t.service.alerts.sanctions!.poll(), 0, "baseline events raise nothing");
    await importBytes(t, "ofac", "sdn.csv", ofacCsvBefore("2021-11-23").csv, { asOf: "2021-11-23" });
    assert.equal(await t.service.alerts.sanctions!.poll(), 1);
    await t.service.webhooks.worker.runDue();
    const recs = receiver.received.filter((r) => r.url === "/saved");
    assert.equal(recs.length, 1);
    const body = verifyReceived(recs[0]!, hook.body.data.secret, t.clock.now()) as Record<string, any>;
    assert.equal(body.type, "alert.saved_search");
    const alert = body.data.alert;
    assert.equal(alert.derived, true);
    assert.deepEqual(alert.saved_search, { id: search.body.data.id, name: "Marlins" });
    assert.match(alert.links.saved_search, new RegExp(`/api/v1/account/saved-searches/${search.body.data.id}$`));
    assert.deepEqual([alert.subject.imo, alert.subject.name], [9396854, "MARLIN"]);
    assert.deepEqual(alert.fact, {
      t: "saved_search",
      match: "sanctions_listing",
      search: "marlin",
      list: "ofac_sdn",
      family: "ofac",
      program: alert.fact.program,
      measures: alert.fact.measures,
      sourceId: "ofac",
    });
    assert.equal(alert.fact.measures[0].type, "asset_freeze");
    assert.match(alert.text, /MARLIN \(IMO 9396854\), newly listed on the OFAC.*matches your saved search Marlins/);
  });
});
