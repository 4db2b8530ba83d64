import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { runUsersCommand } from "../../../src/cli/users-command.ts";
import { SqlSessionStore } from "../../../src/adapters/storage/accounts/sessions-store.ts";
import { SqlUserStore } from "../../../src/adapters/storage/accounts/users-store.ts";
import { startTestService, type TestService } from "../../helpers/service.ts";
import { Browser } from "./helpers.ts";

describe("mds users", () => {
  let t: TestService;
  let accountId: string;
  let stores: Parameters<typeof runUsersCommand>[0];
  before(async () => {
    t = await startTestService({ withData: false });
    accountId = (await t.service.services.accounts.createAccount({ name: "fay", webPlan: "pro", apiPlan: null })).id;
    stores = { accounts: t.service.services.accounts, users: new SqlUserStore(t.service.store.db, t.clock), sessions: new SqlSessionStore(t.service.store.db) };
  });
  after(() => t.close());

  async function run(argv: string[], stdin = "") {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runUsersCommand(stores, argv, { stdin: [stdin], out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out, err };
  }

  test("create prints JSON with id, e-mail and account, and the user can sign in", async () => {
    const r = await run(["create", "--account", accountId, "--email", "Fay@Example.org", "--password-stdin", "--json"], "a long password here\n");
    assert.equal(r.code, 0, r.err.join("\n"));
    const created = JSON.parse(r.out[0]!);
    assert.equal(created.email, "fay@example.org");
    assert.equal(created.account, accountId);
    assert.match(created.id, /^usr_/);
    assert.equal((await new Browser(t).signIn("fay@example.org", "a long password here")).statusCode, 303);
  });

  test("bad input gets one line naming the option and the rule", async () => {
    const cases: [string[], string, RegExp][] = [
      [["create", "--email", "x@example.org", "--password-stdin"], "a long password here", /--account is required/],
      [["create", "--account", accountId, "--email", "not-an-email", "--password-stdin"], "a long password here", /--email must be an e-mail address/],
      [["create", "--account", accountId, "--email", "g@example.org"], "a long password here", /--password-stdin is required/],
      [["create", "--account", accountId, "--email", "g@example.org", "--password-stdin"], "short", /password on stdin must be 10 to 200 characters/],
      [["create", "--account", "acc_nope", "--email", "g@example.org", "--password-stdin"], "a long password here", /--account acc_nope: no such account/],
      [["create", "--account", accountId, "--email", "fay@example.org", "--password-stdin"], "a long password here", /a user with this e-mail exists/],
      [["delete", "--email", "fay@example.org"], "", /unknown command "delete"/],
      [["create", "--bogus"], "", /Unknown option '--bogus'/],
    ];
    for (const [argv, stdin, message] of cases) {
      const r = await run(argv, stdin);
      assert.notEqual(r.code, 0, argv.join(" "));
      assert.equal(r.err.length, 1, argv.join(" "));
      assert.match(r.err[0]!, message);
      assert.deepEqual(r.out, []);
    }
  });

  test("reset-password sets the new password and ends the user's sessions", async () => {
    const b = new Browser(t);
    await b.signIn("fay@example.org", "a long password here");
    const r = await run(["reset-password", "--email", "fay@example.org", "--password-stdin"], "another long password");
    assert.equal(r.code, 0);
    assert.match(r.out[0]!, /2 sessions ended/, "the one from the first test and this one");
    assert.equal((await b.get("/account")).statusCode, 303);
    assert.equal((await new Browser(t).signIn("fay@example.org", "a long password here")).statusCode, 401);
    assert.equal((await new Browser(t).signIn("fay@example.org", "another long password")).statusCode, 303);
    assert.equal((await run(["reset-password", "--email", "nobody@example.org", "--password-stdin"], "another long password")).code, 1);
  });
});
