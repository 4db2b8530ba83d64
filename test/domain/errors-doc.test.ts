import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { ERROR_CODES } from "../../src/domain/errors.ts";
import { PROJECT_ROOT } from "../../src/main.ts";

it("docs/errors.md lists every code of the table with its status, retryability and hint, and nothing else", () => {
  const text = readFileSync(join(PROJECT_ROOT, "docs/errors.md"), "utf8");
  const section = text.slice(text.indexOf("## Codes"), text.indexOf("## Headers"));
  const rows = section
    .split("\n")
    .filter((l) => /^\| [a-z_]+ \| \d{3} \|/.test(l))
    .map((l) => l.split("|").map((c) => c.trim()));
  const documented = new Map(rows.map((r) => [r[1]!, { status: Number(r[2]), retryable: r[3] === "yes", hint: r[5] }]));
  assert.deepEqual([...documented.keys()].sort(), Object.keys(ERROR_CODES).sort());
  for (const [code, e] of Object.entries(ERROR_CODES)) assert.deepEqual(documented.get(code), { status: e.status, retryable: e.retryable, hint: e.hint }, code);
});
