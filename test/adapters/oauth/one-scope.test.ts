import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { RESOURCE_SCOPES, SCOPES } from "../../../src/domain/oauth/scopes.ts";
import { PROJECT_ROOT } from "../../../src/main.ts";
import { OPERATIONS } from "../../../src/operations/registry.ts";

/**
 * Tokens are not checked per tool because one scope grants every tool, and that is right
 * only while every tool reads (docs/oauth.md, "Why one scope"). A tool that writes fails this
 * test: it needs its own scope, checked per tool, and the document changed with it.
 */
describe("one tool scope, and why", () => {
  test("mcp is the one scope that grants tools (offline_access only adds a refresh token)", () => {
    assert.deepEqual([...SCOPES], ["mcp", "offline_access"]);
    assert.deepEqual([...RESOURCE_SCOPES], ["mcp"]);
  });

  test("every MCP tool is a read (a GET operation)", () => {
    const tools = OPERATIONS.filter((op) => op.tool !== undefined);
    assert.ok(tools.length > 0);
    assert.deepEqual(
      tools.filter((op) => op.method !== "GET").map((op) => op.tool),
      [],
      "a tool that writes needs its own scope, checked per tool (docs/oauth.md, Why one scope)",
    );
  });

  test("docs/oauth.md says why one scope is right and what changes when a tool writes", () => {
    const doc = readFileSync(join(PROJECT_ROOT, "docs/oauth.md"), "utf8");
    assert.match(doc, /^### Why one scope$/m);
    assert.match(doc, /insufficient_scope/);
  });
});
