import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestService, type TestService } from "../helpers/service.ts";
import { runCli } from "./run-cli.ts";

describe("mds accounts set: an operator's own allowance for one account", () => {
  let t: TestService;
  let env: Record<string, string>;
  before(async () => {
    t = await startTestService({ withData: false });
    env = { DATA_DIR: t.service.config.dataDir };
  });
  after(() => t.close());

  const callWith = (key: string) => () => t.service.app.inject({ method: "GET", url: "/api/v1/ports?country=NL&limit=1", headers: { authorization: `Bearer ${key}` } });
  const creditsLimit = async (key: string) => {
    const r = await t.service.app.inject({ method: "GET", url: "/api/v1/usage", headers: { authorization: `Bearer ${key}` } });
    return (r.json() as { data: { credits: { limit: number } } }).data.credits.limit;
  };

  it("--monthly-credits adds credits on top of the plans', and they stay on top when the plan changes", async () => {
    const { key, accountId } = await t.key("developer");
    const set = await runCli(["accounts", "set", accountId, "--monthly-credits", "250", "--json"], env);
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual(JSON.parse(set.stdout), { id: accountId, deal: { monthlyCredits: null, extraMonthlyCredits: 250, ratePerSecond: null }, monthlyCredits: 50_250, ratePerSecond: 10 });
    t.service.pipeline.auth.forget();
    assert.equal(await creditsLimit(key), 50_250);

    await t.service.services.accounts.setPlan(accountId, "api", "growth");
    t.service.pipeline.auth.forget();
    assert.equal(await creditsLimit(key), 500_250, "growth's 500,000 and the same 250 on top");

    const text = await runCli(["accounts", "set", accountId, "--monthly-credits", "1000"], env);
    assert.equal(text.code, 0, text.stderr);
    assert.equal(text.stdout.trim(), `${accountId}: 501000 credits a month (its plans' 500000 plus 1000 of its own), 50 requests a second (from its plans)`);
  });

  it("--monthly-credits-total sets an exact allowance in place of the plans', with a rate of its own; `plan` goes back to the plans'", async () => {
    const { key, accountId } = await t.key("developer");
    const set = await runCli(["accounts", "set", accountId, "--monthly-credits-total", "3", "--rate", "7", "--json"], env);
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual(JSON.parse(set.stdout), { id: accountId, deal: { monthlyCredits: 3, extraMonthlyCredits: null, ratePerSecond: 7 }, monthlyCredits: 3, ratePerSecond: 7 });
    t.service.pipeline.auth.forget();
    const call = callWith(key);
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await call();
      codes.push(r.statusCode);
      if (i === 0) assert.equal(r.headers["x-ratelimit-limit"], "7");
      t.clock.t += 1_000;
    }
    assert.deepEqual(codes, [200, 200, 200, 402, 402], "three credits, then none");

    // Credits on top replace the exact allowance (one kind of deal at a time); the rate stays.
    const on = await runCli(["accounts", "set", accountId, "--monthly-credits", "2"], env);
    assert.equal(on.code, 0, on.stderr);
    assert.match(on.stdout, /50002 credits a month \(its plans' 50000 plus 2 of its own\), 7 requests a second \(its own\)/);

    const back = await runCli(["accounts", "set", accountId, "--monthly-credits", "plan"], env);
    assert.equal(back.code, 0, back.stderr);
    assert.match(back.stdout, /50000 credits a month \(from its plans\), 7 requests a second \(its own\)/);
    t.service.pipeline.auth.forget();
    assert.equal((await call()).statusCode, 200);
  });

  it("refuses a bad value, both credit options, an unknown account or nothing to set with one line and exit 2 or 1", async () => {
    const { accountId } = await t.key("developer");
    for (const [args, code, pattern] of [
      [["accounts", "set", accountId, "--monthly-credits=-5"], 2, /--monthly-credits "-5": must be a whole number from 0 to/],
      [["accounts", "set", accountId, "--monthly-credits", "lots"], 2, /must be a whole number/],
      [["accounts", "set", accountId, "--rate", "0"], 2, /--rate "0": must be a whole number from 1 to/],
      [["accounts", "set", accountId, "--monthly-credits-total", "3000000000"], 2, /--monthly-credits-total "3000000000": must be a whole number from 0 to 2000000000/],
      [["accounts", "set", accountId, "--monthly-credits", "5", "--monthly-credits-total", "5"], 2, /--monthly-credits \(on top of the plans\) or --monthly-credits-total \(in place of them\), not both/],
      [["accounts", "set", "acc_nope", "--monthly-credits", "5"], 2, /acc_nope: no such account/],
      [["accounts", "set", accountId], 1, /nothing to set/],
      [["accounts", "set", "--monthly-credits", "5"], 1, /give one account id/],
    ] as const) {
      const r = await runCli([...args], env);
      assert.equal(r.code, code, `${args.join(" ")}: ${r.stderr}`);
      assert.equal(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
      assert.match(r.stderr, pattern);
    }
  });
});
