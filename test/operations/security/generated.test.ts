/**
 * The security suite, generated from the operations registry: every operation over REST
 * gets the same attacks (no key, a made-up key, a revoked key, another account's objects,
 * a bad parameter, a parameter that does not exist, an oversized input), so an operation
 * added to the registry is covered the day it lands. Each operation needs one valid example
 * below; an operation without one fails the first test.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { loadDemoSanctionsExtracts } from "../../../src/cli/demo.ts";
import { PROJECT_ROOT } from "../../../src/main.ts";
import type { PlanId } from "../../../src/domain/plans.ts";
import { EXAMPLES, HUGE, type Owner, request } from "./examples.ts";
import type { Operation } from "../../../src/operations/operation.ts";
import { OPERATIONS } from "../../../src/operations/registry.ts";
import { startTestService, type TestService } from "../../helpers/service.ts";

function urlOf(op: Operation, path: Record<string, string>, query: Record<string, string> = {}): string {
  let url = op.path;
  for (const [name, value] of Object.entries(path)) url = url.replace(`{${name}}`, encodeURIComponent(value));
  assert.doesNotMatch(url, /\{/, `${op.id}: the example names every path parameter`);
  const q = new URLSearchParams(query).toString();
  return q ? `${url}?${q}` : url;
}

/** The documented error body: a code, a message, and nothing that is a stack trace. */
function assertErrorBody(body: Record<string, any>, code: string | RegExp, what: string): void {
  assert.ok(body.error && typeof body.error.message === "string", `${what}: error body ${JSON.stringify(body).slice(0, 200)}`);
  if (typeof code === "string") assert.equal(body.error.code, code, what);
  else assert.match(body.error.code, code, what);
  assert.doesNotMatch(JSON.stringify(body), /\n\s+at /, `${what}: no stack trace`);
}

describe("security suite generated from the registry", () => {
  it("every operation of the registry has an example, and every example an operation", () => {
    const ids = OPERATIONS.map((op) => op.id);
    assert.deepEqual(ids.filter((id) => !(id in EXAMPLES)), [], "operations without an example in test/operations/security/generated.test.ts");
    assert.deepEqual(Object.keys(EXAMPLES).filter((id) => !ids.includes(id)), [], "examples of operations that no longer exist");
  });

  let t: TestService;
  const owners = new Map<PlanId, Owner>();
  let stranger: string;
  let revoked: string;
  before(async () => {
    t = await startTestService();
    // Screening with no sanctions list loaded is a 503 (nothing could be checked): load the demo's dated extracts.
    await loadDemoSanctionsExtracts(t.service, PROJECT_ROOT);
    for (const plan of ["scale", "team"] as const) {
      const k = await t.key(plan, `owner ${plan}`);
      owners.set(plan, { t, accountId: k.accountId, key: k.key });
    }
    ({ key: stranger } = await t.key("scale", "stranger"));
    const r = await t.key("scale", "revoked");
    await t.service.services.accounts.revokeKey(r.keyId);
    revoked = r.key;
  });
  after(() => t?.close());

  for (const op of OPERATIONS) {
    const example = EXAMPLES[op.id];
    if (!example) continue;
    describe(`${op.method} ${op.path} (${op.id})`, () => {
      const owner = () => owners.get(example.plan ?? "scale")!;
      const pathFor = async () => ({ ...example.path, ...(example.owned ? await example.owned(owner()) : {}) });
      const call = async (key: string | null, url: string, body = example.body) => request(t, key, op.method, url, op.body ? (body ?? {}) : body);

      it("the example is valid: the owner's key gets a 2xx", async () => {
        const res = await call(owner().key, urlOf(op, await pathFor(), example.query));
        assert.ok(res.status >= 200 && res.status < 300, `${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      });

      it(op.auth === "key" ? "without a key: 401 missing_api_key" : "without a key: served (auth is optional)", async () => {
        const res = await call(null, urlOf(op, await pathFor(), example.query));
        if (op.auth === "key") {
          assert.equal(res.status, 401);
          assertErrorBody(res.body, "missing_api_key", op.id);
        } else assert.ok(res.status < 400, `${res.status}`);
      });

      it("with a made-up key: 401 invalid_api_key", async () => {
        const res = await call("mds_live_thisKeyWasNeverIssued000000000000", urlOf(op, await pathFor(), example.query));
        assert.equal(res.status, 401);
        assertErrorBody(res.body, "invalid_api_key", op.id);
      });

      it("with a revoked key: 401 api_key_revoked", async () => {
        const res = await call(revoked, urlOf(op, await pathFor(), example.query));
        assert.equal(res.status, 401);
        assertErrorBody(res.body, "api_key_revoked", op.id);
      });

      if (example.owned) {
        it("another account's object: 404 not_found, naming nothing of the owner", async () => {
          const res = await call(stranger, urlOf(op, await pathFor(), example.query));
          assert.equal(res.status, 404);
          assertErrorBody(res.body, "not_found", op.id);
          assert.doesNotMatch(JSON.stringify(res.body), new RegExp(owner().accountId));
        });
      }

      it(`a bad ${example.bad.param}: 400 invalid_parameter naming it`, async () => {
        const path = { ...(await pathFor()), ...example.bad.path };
        const res = await call(owner().key, urlOf(op, path, example.bad.query ?? example.query), example.bad.body ?? example.body);
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assertErrorBody(res.body, "invalid_parameter", op.id);
        assert.equal(res.body.error.param, example.bad.param);
      });

      it("an unknown query parameter: 400 naming it", async () => {
        const res = await call(owner().key, urlOf(op, await pathFor(), { ...example.query, colour: "red" }));
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assertErrorBody(res.body, "invalid_parameter", op.id);
        assert.equal(res.body.error.param, "colour");
      });

      it("a 100 kB input: a documented 4xx, never a 5xx", async () => {
        const path = await pathFor();
        const attempts: { url: string; body?: Record<string, unknown> }[] = [{ url: urlOf(op, path, { ...example.query, q: HUGE }) }];
        const firstPath = Object.keys(path)[0];
        if (firstPath) attempts.push({ url: urlOf(op, { ...path, [firstPath]: HUGE }, example.query) });
        if (op.body) attempts.push({ url: urlOf(op, path, example.query), body: { ...example.body, description: HUGE, name: HUGE } });
        for (const attempt of attempts) {
          const res = await call(owner().key, attempt.url, attempt.body ?? example.body);
          assert.ok([400, 404, 413, 414].includes(res.status), `${attempt.url.slice(0, 80)}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
          assertErrorBody(res.body, /^(invalid_parameter|payload_too_large|not_found|route_not_found)$/, op.id);
        }
      });
    });
  }
});
