import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Client } from "@modelcontextprotocol/client";
import { ENGINES, get } from "../helpers/service.ts";
import { callTool, connect, keyUsage, type McpTestService, startMcpService } from "../helpers/mcp.ts";
import { importFile, OFAC_2024_05_03 } from "../helpers/sanctions.ts";

const DAY = 86_400_000;

for (const engine of ENGINES) {
  describe(`screening never claims a clearance it did not check (${engine})`, () => {
    let t: McpTestService;
    let account: { key: string; keyId: string; accountId: string };
    let client: Client;
    before(async () => {
      // A fresh data dir: no sanctions list has ever been loaded.
      t = await startMcpService({ engine, withData: false, env: { SANCTIONS_STALE_DAYS: "8" } });
      account = await t.key("growth");
      client = await connect(t, account.key);
    });
    after(async () => {
      await client.close();
      await t.close();
    });

    it("no list loaded: REST screening is a 503 sanctions_unavailable, not charged", async () => {
      const r = await get(t, "/api/v1/screen?ids=9187629,9079169", account.key);
      assert.equal(r.status, 503);
      assert.equal(r.body.error.code, "sanctions_unavailable");
      assert.match(r.body.error.message, /nothing could be checked/);
      assert.equal((await keyUsage(t, account)).used, 0);
    });

    it("a list never loaded: its rows are a 503 sanctions_unavailable like screening, not an empty page, not charged", async () => {
      const r = await get(t, "/api/v1/sanctions/eu", account.key);
      assert.equal(r.status, 503);
      assert.equal(r.body.error.code, "sanctions_unavailable");
      assert.match(r.body.error.message, /EU/);
      assert.equal(r.headers["x-credits-cost"], "0");
      const m = await callTool(client, "list_sanctioned_vessels", { list: "eu" });
      assert.equal(m.isError, true);
      assert.equal((await keyUsage(t, account)).used, 0);
    });

    it("no list loaded: the MCP tool is an error that says nothing was checked, not charged", async () => {
      const m = await callTool(client, "screen_vessels", { ids: "9187629,9079169" });
      assert.equal(m.isError, true);
      assert.match(m.content[0]!.text!, /^Error sanctions_unavailable \(HTTP 503\): .*do not treat the vessels as clear/);
      assert.equal((await keyUsage(t, account)).used, 0);
    });

    it("one list loaded: a no-match is false with certainty incomplete over REST and MCP, names the lists not checked, and MCP says so in words", async () => {
      await importFile(t, "ofac", [OFAC_2024_05_03], { asOf: "2024-05-03" });
      const r = await get(t, "/api/v1/screen?ids=9187629,9074729", account.key);
      assert.equal(r.status, 200);
      assert.deepEqual(
        r.body.data.map((d: any) => [d.query, d.sanctioned, d.certainty]),
        [
          ["9187629", true, "match"],
          ["9074729", false, "incomplete"],
        ],
      );
      // The spec types `sanctioned` boolean: never null, whatever was checked.
      assert.ok(r.body.data.every((d: any) => typeof d.sanctioned === "boolean"));
      assert.deepEqual(r.body.data[1].listsChecked, { full: ["ofac"], extract: [], notChecked: ["uk", "eu", "canada", "new-zealand"] });
      assert.equal(r.body.allListsCheckedInFull, false);
      assert.deepEqual(
        r.body.coverage.map((c: any) => [c.list, c.status]),
        [
          ["ofac", "current"],
          ["uk", "missing"],
          ["eu", "missing"],
          ["canada", "missing"],
          ["new-zealand", "missing"],
        ],
      );
      const m = await callTool(client, "screen_vessels", { ids: "9074729" });
      assert.ok(!m.isError);
      assert.deepEqual([m.structuredContent!.data[0].sanctioned, m.structuredContent!.data[0].certainty], [false, "incomplete"]);
      const words = m.content.map((c) => c.text).join("\n");
      assert.match(words, /Sanctions screening coverage: .*NOT CHECKED, never loaded: uk, eu, canada, new-zealand/);
      assert.match(words, /NOT that the vessel is clear/);
    });

    it("a list whose last success is older than SANCTIONS_STALE_DAYS is marked stale", async () => {
      const fresh = await get(t, "/api/v1/screen?ids=9074729&lists=ofac", account.key);
      assert.deepEqual(
        [fresh.body.coverage[0].status, fresh.body.coverage[0].stale, fresh.body.data[0].sanctioned, fresh.body.data[0].certainty, fresh.body.allListsCheckedInFull],
        ["current", false, false, "clear", true],
      );
      t.clock.t += 9 * DAY;
      const old = await get(t, "/api/v1/screen?ids=9074729&lists=ofac", account.key);
      assert.deepEqual([old.body.coverage[0].status, old.body.coverage[0].stale], ["stale", true]);
      assert.match(old.body.coverageNote, /STALE .*: ofac/);
      const list = await get(t, "/api/v1/sanctions/ofac?limit=1", account.key);
      assert.equal(list.body.coverage.status, "stale");
    });
  });
}
