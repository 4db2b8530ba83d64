import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { rememberJson, stringifyWithRemembered } from "../../../src/adapters/mcp/known-json.ts";

describe("JSON written once and reused", () => {
  it("gives JSON.stringify's text byte for byte, members without JSON left out as it does", () => {
    const structured = { type: "port", data: { name: "Rotterdam", subdivision: null, list: [1, "a", { b: true }] }, note: 'quote " and \\ and \u2028' };
    rememberJson(structured, JSON.stringify(structured));
    const response = { result: { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured, isError: undefined, _meta: { "mds/request": { requestId: "r", creditsCharged: 1 } } }, jsonrpc: "2.0", id: 7 };
    assert.equal(stringifyWithRemembered(response), JSON.stringify(response));
    for (const v of [null, 1, "x", [1, { a: undefined }], { a: () => 1, b: [undefined] }, { deep: { deeper: { deepest: { x: 1 } } } }]) assert.equal(stringifyWithRemembered(v), JSON.stringify(v));
  });

  it("writes a remembered object's text instead of serialising the object again", () => {
    const structured = { a: 1 };
    // A text that differs from the object's JSON shows which of the two was written.
    rememberJson(structured, '{"a":1,"remembered":true}');
    assert.equal(stringifyWithRemembered({ result: { structuredContent: structured }, id: 1 }), '{"result":{"structuredContent":{"a":1,"remembered":true}},"id":1}');
  });
});
