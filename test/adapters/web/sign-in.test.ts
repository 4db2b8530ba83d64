import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startTestService, type TestService } from "../../helpers/service.ts";
import { Browser, csrfFrom, makeUser, PASSWORD } from "./helpers.ts";

describe("sign-in and sessions", () => {
  let t: TestService;
  before(async () => {
    t = await startTestService({ withData: false });
    await makeUser(t, "ann@example.org");
  });
  after(() => t.close());

  test("a right password signs in, sets an HttpOnly SameSite=Lax session cookie and returns to next", async () => {
    const b = new Browser(t);
    const res = await b.signIn("Ann@Example.org", PASSWORD, "/account/keys");
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, "/account/keys");
    const cookie = res.cookies.find((c) => c.name === "mds_session");
    assert.ok(cookie, "plain-http service uses the unprefixed cookie name");
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, "Lax");
    assert.equal(cookie.path, "/");
    assert.equal((await b.get("/account")).statusCode, 200);
  });

  test("next pointing at another site is replaced by /account", async () => {
    const res = await new Browser(t).signIn("ann@example.org", PASSWORD, "//evil.example/x");
    assert.equal(res.headers.location, "/account");
  });

  test("a wrong password is refused with the same message as an unknown e-mail", async () => {
    const wrong = await new Browser(t).signIn("ann@example.org", "not the password");
    const unknown = await new Browser(t).signIn("nobody@example.org", "not the password");
    assert.equal(wrong.statusCode, 401);
    assert.equal(unknown.statusCode, 401);
    assert.match(wrong.body, /Wrong e-mail or password/);
    assert.match(unknown.body, /Wrong e-mail or password/);
    assert.equal(wrong.cookies.find((c) => c.name === "mds_session"), undefined);
  });

  test("a POST without a valid CSRF token is refused with 403 and does nothing", async () => {
    const b = new Browser(t);
    await b.signIn("ann@example.org");
    const before = (await t.service.services.accounts.listKeys((await t.service.services.accounts.findAccountByName("ann@example.org"))!.id)).length;
    const res = await b.post("/account/keys", { name: "sneaky", _csrf: "forged" });
    assert.equal(res.statusCode, 403);
    assert.match(res.body, /could not be accepted/);
    const afterCount = (await t.service.services.accounts.listKeys((await t.service.services.accounts.findAccountByName("ann@example.org"))!.id)).length;
    assert.equal(afterCount, before);
  });

  test("a token from another browser's session does not work", async () => {
    const mallory = new Browser(t);
    const token = csrfFrom((await mallory.get("/login")).body);
    const victim = new Browser(t);
    await victim.signIn("ann@example.org");
    assert.equal((await victim.post("/account/keys", { name: "x", _csrf: token })).statusCode, 403);
  });

  test("sign out ends this session; sign out everywhere ends every session of the user", async () => {
    const one = new Browser(t);
    const two = new Browser(t);
    await one.signIn("ann@example.org");
    await two.signIn("ann@example.org");
    const out = await one.post("/logout/everywhere", {});
    assert.equal(out.statusCode, 303);
    const res = await two.get("/account");
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, "/login?next=%2Faccount");

    const three = new Browser(t);
    await three.signIn("ann@example.org");
    await three.post("/logout", {});
    assert.equal((await three.get("/account")).statusCode, 303);
  });

  test("ten failures for an e-mail lock its sign-in for a while, even with the right password, with a 429 page", async () => {
    await makeUser(t, "bob@example.org");
    t.clock.t += 16 * 60_000; // the failures of the tests above age out
    for (let i = 0; i < 10; i++) assert.equal((await new Browser(t).signIn("bob@example.org", "guess number " + i)).statusCode, 401);
    const locked = await new Browser(t).signIn("bob@example.org", PASSWORD);
    assert.equal(locked.statusCode, 429);
    assert.match(locked.body, /Too many failed sign-ins\. Try again in 15 minutes/);
    assert.ok(Number(locked.headers["retry-after"]) > 0);
    t.clock.t += 15 * 60_000 + 1;
    assert.equal((await new Browser(t).signIn("bob@example.org", PASSWORD)).statusCode, 303);
  });

  test("thirty failures from one address lock sign-in from it for every e-mail", async () => {
    t.clock.t += 16 * 60_000;
    for (let i = 0; i < 30; i++) await new Browser(t).signIn(`user${i}@example.org`, "wrong password");
    assert.equal((await new Browser(t).signIn("ann@example.org", PASSWORD)).statusCode, 429);
  });
});

describe("sign-in over https", () => {
  test("the session cookie is __Host- prefixed and Secure; CSP and HSTS are strict", async () => {
    const t = await startTestService({ withData: false, env: { BASE_URL: "https://mds.example.org" } });
    try {
      await makeUser(t, "cy@example.org");
      const b = new Browser(t);
      const res = await b.signIn("cy@example.org");
      const cookie = res.cookies.find((c) => c.name === "__Host-mds_session");
      assert.ok(cookie);
      assert.equal(cookie.secure, true);
      const page = await b.get("/account");
      assert.equal(page.statusCode, 200);
      const csp = String(page.headers["content-security-policy"]);
      assert.match(csp, /upgrade-insecure-requests/);
      assert.ok(page.headers["strict-transport-security"]);
    } finally {
      await t.close();
    }
  });
});
