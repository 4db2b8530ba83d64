import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ESLint } from "eslint";

// The repository's own eslint.config.js, applied to text that never touches the disk: the
// file path decides which layer's rules apply.
const eslint = new ESLint({ cwd: new URL("../..", import.meta.url).pathname });
const RULE = "@typescript-eslint/no-restricted-imports";

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === RULE || m.ruleId === "no-restricted-properties").map((m) => m.message);
}

function assertFires(errors: string[], expected: RegExp): void {
  assert.equal(errors.length, 1, `expected one boundary error, got ${JSON.stringify(errors)}`);
  assert.match(errors[0]!, expected);
}

describe("import boundaries", () => {
  it("When the domain imports an adapter, then lint fails naming the rule", async () => {
    assertFires(await boundaryErrors("src/domain/x.ts", 'export { buildApp } from "../adapters/http/app.ts";\n'), /src\/domain is pure/);
    assertFires(await boundaryErrors("src/domain/ais/x.ts", 'export type { Clock } from "../../ports/clock.ts";\n'), /src\/domain is pure/);
  });

  it("When the domain imports inside itself, a pure package or node:crypto, then lint passes", async () => {
    const code = 'import { z } from "zod";\nimport { createHash } from "node:crypto";\nimport { isIP } from "node:net";\nimport { AppError } from "../errors.ts";\nexport { z, createHash, isIP, AppError };\n';
    assert.deepEqual(await boundaryErrors("src/domain/ais/x.ts", code), []);
  });

  it("When the domain does I/O or reads the clock, then lint fails", async () => {
    assertFires(await boundaryErrors("src/domain/x.ts", 'export { readFileSync } from "node:fs";\n'), /does no I\/O/);
    assertFires(await boundaryErrors("src/domain/x.ts", 'export { connect } from "node:net";\n'), /isIP/);
    assertFires(await boundaryErrors("src/domain/x.ts", 'export { Pool } from "pg";\n'), /pure packages/);
    assertFires(await boundaryErrors("src/domain/x.ts", "export const t = Date.now();\n"), /Clock/);
  });

  it("When an operation imports an adapter or the composition root, then lint fails", async () => {
    assertFires(await boundaryErrors("src/operations/x.ts", 'export { SqlVesselStore } from "../adapters/storage/vessel-store.ts";\n'), /must not import src\/adapters/);
    assertFires(await boundaryErrors("src/operations/x.ts", 'export { createService } from "../main.ts";\n'), /composition root/);
    assert.deepEqual(await boundaryErrors("src/operations/x.ts", 'export { AppError } from "../domain/errors.ts";\n'), []);
  });

  it("When one adapter imports another, then lint fails; inside one adapter and from main.ts it passes", async () => {
    assertFires(await boundaryErrors("src/adapters/mcp/x.ts", 'export { buildApp } from "../http/app.ts";\n'), /only through the composition root/);
    assertFires(await boundaryErrors("src/adapters/storage/migrations/x.ts", 'export { buildApp } from "../../http/app.ts";\n'), /only through the composition root/);
    assert.deepEqual(await boundaryErrors("src/adapters/storage/migrations/x.ts", 'export * from "../schema.ts";\n'), []);
    assert.deepEqual(await boundaryErrors("src/adapters/mcp/x.ts", 'export { execute } from "../../operations/execute.ts";\n'), []);
    assert.deepEqual(await boundaryErrors("src/main.ts", 'export { buildApp } from "./adapters/http/app.ts";\n'), []);
  });

  it("When an adapter uses a shared library, then lint passes; when a shared library imports an adapter, then lint fails", async () => {
    assert.deepEqual(await boundaryErrors("src/adapters/oauth/x.ts", 'export { html } from "../shared/html.ts";\n'), []);
    assertFires(await boundaryErrors("src/adapters/shared/x.ts", 'export { registerWeb } from "../web/index.ts";\n'), /only through the composition root/);
  });
});
