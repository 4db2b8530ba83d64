import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";
import { Browser } from "./helpers.ts";

for (const engine of ENGINES) {
  describe(`sign-up is atomic (${engine})`, () => {
    let t: TestService;
    before(async () => {
      t = await startTestService({ engine, withData: false, env: { SIGNUP: "open" } });
    });
    after(() => t.close());

    test("two sign-ups racing on one e-mail make one account with its user, and no account without a user", async () => {
      const email = "race@example.org";
      const [a, b] = [new Browser(t), new Browser(t)];
      // Each form's CSRF token first, then both posts at once: both pass the "e-mail taken?" check before either writes.
      const forms = await Promise.all([a.get("/signup"), b.get("/signup")]);
      const csrf = forms.map((f) => /name="_csrf" value="([^"]+)"/.exec(f.body)![1]!);
      const answers = await Promise.all([a, b].map((browser, i) => browser.post("/signup", { email, password: "long enough password", _csrf: csrf[i]! })));
      assert.deepEqual(answers.map((r) => r.statusCode).sort(), [303, 409]);
      const db = t.service.store.db;
      const accounts = await db.selectFrom("accounts").select("id").where("name", "=", email).execute();
      const users = await db.selectFrom("users").select(["id", "account_id"]).where("email", "=", email).execute();
      assert.equal(users.length, 1);
      assert.deepEqual(
        accounts.map((r) => r.id),
        [users[0]!.account_id],
        "the one account is the user's; none is left without a user",
      );
    });
  });
}
