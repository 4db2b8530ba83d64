import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { entitlements } from "../../src/domain/plans.ts";
import { execute } from "../../src/operations/execute.ts";
import type { Principal } from "../../src/operations/principal.ts";
import { meStations } from "../../src/operations/me.stations.ts";
import { usageGet } from "../../src/operations/usage.get.ts";
import { startTestService, type TestService } from "../helpers/service.ts";

const call = { params: {}, query: {}, baseUrl: "https://mds.example", requestId: "req_principals" };

describe("principals of every face", () => {
  let t: TestService;
  let accountId: string;
  before(async () => {
    t = await startTestService({ withData: false });
    accountId = (await t.key("pro")).accountId;
  });
  after(() => t.close());

  const base = (kind: string) => ({ entitlements: entitlements("pro", null), clientAddress: "203.0.113.9", subject: `${kind}:test` });

  it("a signed-in user, the command line and an OAuth grant act as the account, each tallied under its own credential", async () => {
    const principals: [Principal, string][] = [
      [{ ...base("web"), kind: "session", userId: "usr_7", accountId }, "web:usr_7"],
      [{ ...base("operator"), kind: "operator", accountId }, "cli"],
      [{ ...base("grant"), kind: "oauth", grantId: "9", accountId }, "grant:9"],
    ];
    for (const [principal, credential] of principals) {
      const r = await execute(t.service.pipeline, usageGet, principal, call);
      assert.ok(r.ok, r.ok ? "" : r.error.message);
      assert.equal(r.data.key.id, credential, principal.kind);
      assert.equal(r.data.tier, "pro", principal.kind);
      // The account's own things answer for each of them.
      const stations = await execute(t.service.pipeline, meStations, principal, call);
      assert.ok(stations.ok, principal.kind);
    }
  });

  it("without an account, a keyed operation is refused before it runs: nothing to bill, nothing to show", async () => {
    const r = await execute(t.service.pipeline, usageGet, { ...base("ip"), kind: "anonymous" }, call);
    assert.equal(r.ok, false);
    assert.equal(r.ok ? null : r.error.code, "missing_api_key");
    assert.equal(r.metering.credits.cost, 0);
  });
});
