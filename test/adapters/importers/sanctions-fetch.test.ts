import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Client } from "@modelcontextprotocol/client";
import { SanctionsRefresher } from "../../../src/adapters/importers/sanctions-refresh.ts";
import { ENGINES, get, startTestService, type TestService } from "../../helpers/service.ts";
import { callTool, connect, keyUsage, type McpTestService, startMcpService } from "../../helpers/mcp.ts";
import { tableCounts } from "../../helpers/sanctions.ts";
import { ManualTimers, type PublicationServer, startPublicationServer } from "../../helpers/sanctions-publication-server.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const quiet = { info() {}, error() {} };

for (const engine of ENGINES) {
  describe(`fetching the lists from their publications (${engine})`, () => {
    let t: TestService;
    let pub: PublicationServer;
    let timers: ManualTimers;
    let refresher: SanctionsRefresher;
    const errors: string[] = [];
    before(async () => {
      t = await startTestService({ engine, withData: false });
      pub = await startPublicationServer();
      timers = new ManualTimers();
      refresher = new SanctionsRefresher(t.service.services, {
        intervalMs: DAY,
        sources: pub.sources,
        log: { info() {}, error: (m) => errors.push(m) },
        timers,
      });
    });
    after(async () => {
      await refresher.stop();
      await pub.close();
      await t.close();
    });

    const fetchState = async (list: string) => (await t.service.services.sanctions.fetchStates()).find((s) => s.list === list)!;

    it("the first round fetches every list with a publication and records where from; the EU has none and is skipped", async () => {
      const started = t.clock.now();
      const outcomes = await refresher.start();
      assert.deepEqual(
        outcomes.map((o) => [o.list, o.status]),
        [
          ["ofac", "imported"],
          ["uk", "imported"],
          ["eu", "skipped"],
          ["canada", "imported"],
          ["new-zealand", "imported"],
        ],
      );
      const ofac = await fetchState("ofac");
      assert.deepEqual([ofac.outcome, ofac.attemptedAt, ofac.succeededAt, ofac.error, ofac.source], ["imported", started, started, null, `${pub.url}/ofac/SDN.CSV`]);
      assert.equal((await fetchState("eu")).attemptedAt, null);
      const states = await t.service.services.sanctions.listStates();
      assert.deepEqual(
        states.map((s) => [s.list, s.active]),
        [
          ["ofac", 851],
          ["uk", 2],
          ["eu", 0],
          ["canada", 2],
          ["new-zealand", 3],
        ],
      );
      // The next round is a day away.
      assert.deepEqual(
        timers.pending.map((p) => p.ms),
        [DAY],
      );
    });

    it("a day later the same publications again: nothing changes but the as-of date and the last success", async () => {
      const before = await tableCounts(t);
      const versionsBefore = await t.service.services.sanctions.versions("ofac");
      t.clock.t += DAY;
      assert.equal(timers.fire(), DAY);
      const outcomes = await refresher.running!;
      assert.ok(outcomes.filter((o) => o.status === "imported").every((o) => o.status === "imported" && o.result.samePublication));
      assert.deepEqual(await tableCounts(t), before);
      assert.deepEqual(await t.service.services.sanctions.versions("ofac"), versionsBefore);
      const ofac = await fetchState("ofac");
      assert.deepEqual([ofac.outcome, ofac.succeededAt], ["unchanged", t.clock.now()]);
      const state = (await t.service.services.sanctions.listStates()).find((s) => s.list === "ofac")!;
      assert.deepEqual([state.asOf, state.importedAt], [new Date(t.clock.now()).toISOString().slice(0, 10), t.clock.now()]);
    });

    it("a failing list is recorded with its error, keeps its version, and is retried within the hour, alone", async () => {
      pub.failing.add("/uk/UK-Sanctions-List.xml");
      const lastSuccess = (await fetchState("uk")).succeededAt;
      t.clock.t += DAY;
      timers.fire();
      const outcomes = await refresher.running!;
      assert.equal(outcomes.find((o) => o.list === "uk")!.status, "failed");
      const uk = await fetchState("uk");
      assert.deepEqual([uk.outcome, uk.attemptedAt, uk.succeededAt], ["failed", t.clock.now(), lastSuccess]);
      assert.match(uk.error!, /download of .*UK-Sanctions-List\.xml failed: HTTP 500/);
      assert.ok(errors.some((e) => /uk not imported, the stored version stays/.test(e)));
      assert.equal((await t.service.services.sanctions.listStates()).find((s) => s.list === "uk")!.active, 2);
      assert.deepEqual(
        timers.pending.map((p) => p.ms),
        [HOUR],
      );

      pub.failing.clear();
      pub.requests.length = 0;
      t.clock.t += HOUR;
      timers.fire();
      const retry = await refresher.running!;
      assert.deepEqual(
        retry.map((o) => [o.list, o.status]),
        [
          ["uk", "imported"],
          ["eu", "skipped"],
        ],
      );
      assert.deepEqual(pub.requests, ["/uk/UK-Sanctions-List.xml"], "lists fetched an hour ago are not fetched again");
      assert.equal((await fetchState("uk")).outcome, "unchanged");
      assert.deepEqual(
        timers.pending.map((p) => p.ms),
        [DAY],
      );
    });

    it("something that is not a list is refused and recorded, and nothing changes", async () => {
      const before = await tableCounts(t);
      for (const body of ["<html><body>Service unavailable</body></html>", "", "\u0000\u0001binary"]) {
        pub.replaced.set("/canada/sema-lmes.xml", Buffer.from(body));
        t.clock.t += DAY;
        timers.fire();
        const outcomes = await refresher.running!;
        assert.equal(outcomes.find((o) => o.list === "canada")!.status, "failed", JSON.stringify(body));
        assert.equal((await fetchState("canada")).outcome, "failed");
      }
      pub.replaced.clear();
      const after = await tableCounts(t);
      // Only the other lists' confirmations happened: no version, designation or event.
      assert.deepEqual(after, before);
    });
  });
}

describe("a download that never answers ends at the deadline", () => {
  let t: TestService;
  let pub: PublicationServer;
  before(async () => {
    t = await startTestService({ withData: false });
    pub = await startPublicationServer();
  });
  after(async () => {
    await pub.close();
    await t.close();
  });

  it("is a failed fetch naming the timeout, and the service goes on", async () => {
    pub.hanging.add("/ofac/SDN.CSV");
    const refresher = new SanctionsRefresher(t.service.services, { intervalMs: DAY, sources: { ofac: pub.sources.ofac! }, log: quiet, timers: new ManualTimers(), timeoutMs: 300 });
    const outcomes = await refresher.start();
    await refresher.stop();
    const ofac = outcomes.find((o) => o.list === "ofac")!;
    assert.equal(ofac.status, "failed");
    assert.match(ofac.status === "failed" ? ofac.error.message : "", /download of .*SDN\.CSV timed out after 300 ms/);
  });
});

describe("offline: no list could be fetched, and screening never claims a clearance", () => {
  let t: McpTestService;
  let pub: PublicationServer;
  let account: { key: string; keyId: string; accountId: string };
  let client: Client;
  let refresher: SanctionsRefresher;
  before(async () => {
    t = await startMcpService({ withData: false });
    pub = await startPublicationServer();
    account = await t.key("growth");
    client = await connect(t, account.key);
    refresher = new SanctionsRefresher(t.service.services, { intervalMs: DAY, sources: pub.sources, log: quiet, timers: new ManualTimers() });
  });
  after(async () => {
    await refresher.stop();
    await client.close();
    await pub.close();
    await t.close();
  });

  it("every fetch fails: REST is a 503 and MCP an error, neither charged", async () => {
    for (const path of ["/ofac/SDN.CSV", "/uk/UK-Sanctions-List.xml", "/canada/sema-lmes.xml", "/nz/Russia-Sanctions-Register.xlsx"]) pub.failing.add(path);
    const outcomes = await refresher.start();
    assert.ok(outcomes.every((o) => o.status !== "imported"));
    const r = await get(t, "/api/v1/screen?ids=9187629,9079169", account.key);
    assert.deepEqual([r.status, r.body.error.code], [503, "sanctions_unavailable"]);
    const m = await callTool(client, "screen_vessels", { ids: "9187629,9079169" });
    assert.equal(m.isError, true);
    assert.match(m.content[0]!.text!, /do not treat the vessels as clear/);
    assert.equal((await keyUsage(t, account)).used, 0);
  });

  it("only OFAC reachable: a designated vessel is true, an unlisted one false but incomplete, and MCP names the lists not checked", async () => {
    pub.failing.delete("/ofac/SDN.CSV");
    t.clock.t += HOUR;
    await refresher.runOnce();
    const r = await get(t, "/api/v1/screen?ids=9187629,9074729", account.key);
    assert.deepEqual(
      r.body.data.map((d: any) => [d.query, d.sanctioned, d.certainty]),
      [
        ["9187629", true, "match"],
        ["9074729", false, "incomplete"],
      ],
    );
    const m = await callTool(client, "screen_vessels", { ids: "9074729" });
    assert.deepEqual([m.structuredContent!.data[0].sanctioned, m.structuredContent!.data[0].certainty], [false, "incomplete"]);
    assert.match(m.content.map((c) => c.text).join("\n"), /NOT CHECKED, never loaded: uk, eu, canada, new-zealand/);
  });
});
