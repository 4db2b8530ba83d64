/**
 * `npm test`'s global setup, run once before any test file starts:
 *
 * - finds or gets the programs some tests need from outside Node and npm
 *   (test/helpers/system-tools.ts), says in one line each what it did, and hands the outcome
 *   to every test file through MDS_TEST_TOOLS;
 * - turns on Node's compile cache for the test processes and the `mds` processes they spawn:
 *   every test file is a process of its own that loads the service's modules again (about a
 *   second and a half each without the cache, half a second with it). The cache is keyed by
 *   the source, so a changed file is compiled again; NODE_COMPILE_CACHE set outside wins.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findOrGet, LABEL, type Tool, type ToolName } from "./helpers/system-tools.ts";

export function globalSetup(): void {
  process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), "mds-test-compile-cache");
  if (process.env.MDS_TEST_TOOLS) return;
  const tools: Partial<Record<ToolName, Tool>> = {};
  for (const name of ["chromium", "mosquitto", "openssl"] as const) {
    tools[name] = findOrGet(name);
    console.log(`${LABEL[name]}: ${tools[name].note}`);
  }
  process.env.MDS_TEST_TOOLS = JSON.stringify(tools);
}
