/**
 * Issue 18 item 2: `HEAD /mcp` answered 500 on every engine (Fastify's implicit HEAD route
 * ran the GET handler, which the MCP transport does not accept for HEAD). A method the
 * endpoint does not serve is a 405 naming the ones it does, with or without a key.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestService, type TestService } from "../../helpers/service.ts";

describe("HEAD /mcp", () => {
  let t: TestService;
  let key: string;
  before(async () => {
    t = await startTestService({ withData: false });
    ({ key } = await t.key("developer"));
  });
  after(() => t.close());

  for (const withKey of [false, true]) {
    it(`is 405 with Allow ${withKey ? "with" : "without"} a key`, async () => {
      const res = await t.service.app.inject({
        method: "HEAD",
        url: "/mcp",
        headers: { host: "localhost", ...(withKey ? { authorization: `Bearer ${key}` } : {}) },
      });
      assert.equal(res.statusCode, 405);
      assert.equal(res.headers.allow, "GET, POST, DELETE, OPTIONS");
      assert.equal(res.body, "");
    });
  }
});
