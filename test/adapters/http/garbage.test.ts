import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { ERROR_CODES } from "../../../src/domain/errors.ts";
import { startTestService, type TestService } from "../../helpers/service.ts";

/** Random and hostile requests: every answer is a documented status with a JSON body, never a 500. */
describe("HTTP garbage", () => {
  let t: TestService;
  let key: string;
  before(async () => {
    t = await startTestService();
    ({ key } = await t.key("scale"));
  });
  after(() => t.close());

  const hostile = [
    "/api/v1/ports?limit=%00",
    "/api/v1/ports?limit=1e2",
    "/api/v1/ports?limit=-0",
    "/api/v1/ports?limit=99999999999999999999999",
    "/api/v1/ports?country=%E2%82%AC%E2%82%AC",
    "/api/v1/ports?cursor=" + "A".repeat(600),
    "/api/v1/ports?cursor=eyJhZnRlciI6MX0", // {"after":1}
    "/api/v1/ports?cursor=%7B%7D",
    "/api/v1/ports?__proto__=x",
    "/api/v1/ports?constructor=x",
    "/api/v1/ports/%",
    "/api/v1/ports/%ZZ",
    "/api/v1/ports/" + "N".repeat(300),
    "/api/v1/ports/NL%2FRTM",
    "/api/v1/flags/%00%00",
    "/api/v1/usage?x=1",
    "//api//v1//ports",
  ];

  it("hostile URLs get documented errors", async () => {
    const statuses = new Set<number>(Object.values(ERROR_CODES).map((e) => e.status));
    for (const url of hostile) {
      const res = await t.service.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${key}` } });
      assert.ok(res.statusCode === 200 || statuses.has(res.statusCode), `${url} -> ${res.statusCode}`);
      assert.notEqual(res.statusCode, 500, url);
      const body = res.json();
      if (res.statusCode !== 200) assert.ok(body.error.code in ERROR_CODES, url);
    }
  });

  it("random query strings and headers on every route never give a 500", async () => {
    const paths = ["/api/v1/ports", "/api/v1/ports/NLRTM", "/api/v1/flags/NL", "/api/v1/usage"];
    for (let i = 0; i < 300; i++) {
      const junk = randomBytes(1 + (i % 40)).toString("latin1");
      const url = `${paths[i % paths.length]}?${encodeURIComponent(junk)}=${encodeURIComponent(junk)}`;
      const auth = i % 3 === 0 ? `Bearer ${key}` : i % 3 === 1 ? `Bearer ${randomBytes(20).toString("hex")}` : randomBytes(8).toString("base64");
      const res = await t.service.app.inject({ method: "GET", url, headers: { authorization: auth } });
      assert.ok(res.statusCode < 500, `${url} -> ${res.statusCode} ${res.body}`);
      assert.doesNotThrow(() => res.json());
    }
  });

  it("a body that is not JSON is refused naming the body and its rule, not the URL", async () => {
    for (const payload of ["{", '{"url": "https://x.example.com/",}', "\u0000"]) {
      const res = await t.service.app.inject({ method: "POST", url: "/api/v1/account/webhooks", payload, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" } });
      assert.equal(res.statusCode, 400, payload);
      const e = res.json().error;
      assert.equal(e.code, "invalid_parameter");
      assert.equal(e.param, "body", payload);
      assert.equal(e.rule, "must be well-formed JSON", payload);
    }
    // A malformed address is still the URL's fault.
    const url = await t.service.app.inject({ method: "GET", url: "/api/v1/ports/%E0%A4%A", headers: { authorization: `Bearer ${key}` } });
    assert.equal(url.statusCode, 400);
    assert.match(url.json().error.rule, /well-formed.*URL/);
  });

  it("other methods are a documented 404", async () => {
    const res = await t.service.app.inject({ method: "POST", url: "/api/v1/ports", payload: "garbage", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" } });
    assert.ok([404, 400].includes(res.statusCode));
    assert.ok(res.json().error.code);
  });
});
