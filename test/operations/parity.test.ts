import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { after, before, describe, it } from "node:test";
import { entitlements, PLANS } from "../../src/domain/plans.ts";
import { ENGINES } from "../helpers/service.ts";
import { CASES, type Fixtures, prepareFixtures, sourcesWithoutUk } from "../helpers/mcp-cases.ts";
import { callTool, connect, keyUsage, type McpTestService, REVISIONS, rest, restUrlFor, startMcpService, TOOL_OPERATIONS } from "../helpers/mcp.ts";

/**
 * Every tool against its REST operation, call by call: the same data, the same `withheld`,
 * the same error code, the same credits. Two keys of one account make the calls, one per face,
 * so balances, rate limits and per-key tallies can be compared.
 */
for (const engine of ENGINES) {
  describe(`MCP tools and their REST operations agree (${engine})`, () => {
    let t: McpTestService;
    let fx: Fixtures;
    let sourcesFile: string;
    before(async () => {
      sourcesFile = sourcesWithoutUk();
      t = await startMcpService({ engine, env: { SOURCES_FILE: sourcesFile } });
      fx = await prepareFixtures(t);
    });
    after(async () => {
      await t.close();
      rmSync(dirname(sourcesFile), { recursive: true, force: true });
    });

    it("every operation with a tool name has parity cases, successes and errors", () => {
      for (const op of TOOL_OPERATIONS) {
        const cases = CASES.filter((c) => c.tool === op.tool);
        assert.ok(cases.some((c) => c.expect === "ok"), `${op.tool}: a success case`);
        assert.ok(cases.some((c) => c.expect !== "ok"), `${op.tool}: an error case`);
      }
      assert.deepEqual(new Set(CASES.map((c) => c.tool)), new Set(TOOL_OPERATIONS.map((op) => op.tool)), "no case of a tool that does not exist");
    });

    CASES.forEach((c, i) => {
      const revision = REVISIONS[i % REVISIONS.length]!;
      it(`${c.tool}: ${c.name} -> ${c.expect} (${revision})`, async () => {
        const op = TOOL_OPERATIONS.find((o) => o.tool === c.tool)!;
        const restKey = await t.key(c.plan, `parity ${c.tool} ${i}`);
        const created = await t.service.services.accounts.createKey(restKey.accountId);
        const mcpKey = { key: created.key, keyId: created.id, accountId: restKey.accountId };
        await c.prepare?.(t, restKey);
        const args = c.args(fx);
        const url = restUrlFor(op, args);

        for (let n = 0; n < (c.before ?? 0); n++) await rest(t, url, restKey.key);
        const r = await rest(t, url, restKey.key);
        const client = await connect(t, mcpKey.key, revision);
        for (let n = 0; n < (c.before ?? 0); n++) await callTool(client, c.tool, args);
        const m = await callTool(client, c.tool, args);
        await client.close();

        if (c.expect === "ok") {
          assert.equal(r.status, 200, JSON.stringify(r.body));
          assert.ok(!m.isError, m.content[0]?.text);
          const { commercialScope, nextCursor, ...envelope } = structuredClone(m.structuredContent!);
          // The one field that tells the two keys apart; usage also states the scope at the top (spec 2.8), where MCP puts the caller's.
          if (envelope.type === "usage") {
            envelope.data.key.id = r.body.data.key.id;
            envelope.key.id = r.body.key.id;
            envelope.commercialScope = commercialScope;
          }
          // Each face's screening is its own, with a receipt of its own: the ids differ, the rest agrees.
          if (r.body.screeningId !== undefined) {
            assert.match(envelope.screeningId, /^scr_/);
            assert.notEqual(envelope.screeningId, r.body.screeningId);
            // The MCP screening's receipt holds what MCP sent (less the MCP-only commercialScope); read with a third key of the account, so the two keys' tallies stay comparable.
            const reader = await t.service.services.accounts.createKey(restKey.accountId);
            const receipt = await rest(t, restUrlFor(TOOL_OPERATIONS.find((o) => o.tool === "get_screening")!, { id: envelope.screeningId }), reader.key);
            assert.deepEqual(receipt.body.data.answer, envelope);
            assert.deepEqual(receipt.body.data.requestedBy, { accountId: mcpKey.accountId, credentialId: mcpKey.keyId });
            delete envelope.screeningId;
            delete r.body.screeningId;
          }
          assert.deepEqual(envelope, r.body);
          assert.deepEqual(envelope.withheld, r.body.withheld);
          if (c.withheld) assert.ok(envelope.withheld.length > 0, "parts withheld on both faces");
          assert.equal(commercialScope, PLANS[c.plan].commercialScope);
          assert.equal(commercialScope, entitlements(PLANS[c.plan].kind === "api" ? null : c.plan, PLANS[c.plan].kind === "api" ? c.plan : null).commercialScope);
          assert.equal(nextCursor, r.body.next ? new URL(r.body.next).searchParams.get("cursor") : undefined);
          assert.deepEqual(JSON.parse(m.content[0]!.text!), m.structuredContent, "the text is the same data");
          assert.ok(Array.isArray(envelope.attribution));
        } else {
          assert.equal(r.body.error?.code, c.expect, JSON.stringify(r.body));
          assert.equal(m.isError, true);
          assert.equal(m.structuredContent, undefined);
          assert.equal(m._meta?.["mds/error"]?.code, c.expect);
          assert.equal(m._meta?.["mds/error"]?.status, r.status);
          assert.match(m.content[0]!.text!, new RegExp(`^Error ${c.expect} \\(HTTP ${r.status}\\): `));
          if (r.body.error.param) assert.equal(m._meta?.["mds/error"]?.param, r.body.error.param);
          // Spec 4.13: every result carries the attribution to show (none, for an error) and the plan's commercial-use scope.
          assert.deepEqual(m._meta?.["mds/request"]?.attribution, []);
          assert.equal(m._meta?.["mds/request"]?.commercialScope, PLANS[c.plan].commercialScope);
        }

        const restCharged = Number(r.headers.get("x-credits-cost"));
        assert.equal(m._meta?.["mds/request"]?.creditsCharged, restCharged, "the same credits charged");
        const [ru, mu] = [await keyUsage(t, restKey), await keyUsage(t, mcpKey)];
        assert.deepEqual({ calls: mu.keyCalls, credits: mu.keyCredits }, { calls: ru.keyCalls, credits: ru.keyCredits });
      });
    });
  });
}
