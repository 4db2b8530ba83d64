import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { OPERATIONS } from "../../../src/operations/registry.ts";
import { get, startTestService, type TestService } from "../../helpers/service.ts";

describe("OpenAPI 3.1 document", () => {
  let t: TestService;
  let key: string;
  let doc: Record<string, any>;
  before(async () => {
    t = await startTestService();
    ({ key } = await t.key("pro"));
    doc = (await get(t, "/api/v1/openapi.json")).body;
  });
  after(() => t.close());

  it("describes every operation of the registry", () => {
    assert.equal(doc.openapi, "3.1.0");
    for (const op of OPERATIONS) assert.equal(doc.paths[op.path]?.[op.method.toLowerCase()]?.operationId, op.id, op.id);
  });

  /** Real responses, success and error, validated against the document's own schemas. */
  const calls: [string, string, number][] = [
    ["/api/v1/ports", "/api/v1/ports?country=NL&limit=3", 200],
    ["/api/v1/ports", "/api/v1/ports?country=US&limit=100", 200],
    ["/api/v1/ports/{unlocode}", "/api/v1/ports/NLRTM", 200],
    ["/api/v1/ports/{unlocode}", "/api/v1/ports/ZZZZZ", 404],
    ["/api/v1/ports", "/api/v1/ports?limit=0", 400],
    ["/api/v1/flags/{iso2}", "/api/v1/flags/PA", 200],
    ["/api/v1/usage", "/api/v1/usage", 200],
    ["/api/v1/events", "/api/v1/events?bbox=3.5,51.5,5,52.5&type=port_call,encounter", 200],
    ["/api/v1/events", "/api/v1/events?bbox=3.5,51.5,5", 400],
    ["/api/v1/vessels/{id}/events", "/api/v1/vessels/9175793/events", 200],
  ];
  for (const [path, url, status] of calls) {
    it(`GET ${url} matches the ${status} schema`, async () => {
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
      const schema = JSON.parse(JSON.stringify(doc.paths[path].get.responses[String(status)].content["application/json"].schema).replaceAll('"#/components', '"doc#/components'));
      const r = await get(t, url, key);
      assert.equal(r.status, status);
      const validate = ajv.compile(schema);
      assert.ok(validate(r.body), JSON.stringify(validate.errors?.slice(0, 3)));
    });
  }
});
