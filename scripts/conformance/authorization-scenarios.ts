import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { PROJECT_ROOT, type Service } from "../../src/main.ts";
import { background, freePort } from "./background.ts";
import { approveInBrowser } from "./browser-consent.ts";
import { createPerson, registerPublicClient } from "./oauth-setup.ts";

export interface CheckResult {
  scenario: string;
  id: string;
  status: string;
  message: string;
}

/**
 * The conformance suite's `authorization` mode, which tests this service's authorization
 * server (the `server` mode has no authorization scenarios and the `client` mode plays the
 * server itself): the suite reads the metadata, prints an authorization URL for a client
 * registered beforehand, and waits for the browser to come back to its own
 * http://127.0.0.1:<port>/callback; then it redeems the code.
 *
 * Run once with `resource` (what MCP clients send, RFC 8707) and once without (the suite's
 * default, a plain OAuth client): the service binds both to `/mcp`.
 */
export async function authorizationScenarios(service: Service, issuer: string, browser: Browser, work: string, log: (line: string) => void): Promise<{ run: string; checks: CheckResult[]; exit: number }[]> {
  const conformance = join(PROJECT_ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
  const person = await createPerson(service, "authorization");
  const runs: { run: string; checks: CheckResult[]; exit: number }[] = [];
  for (const [run, extra] of [
    ["with resource", ["--resource", `${issuer}/mcp`]],
    ["without resource", []],
  ] as const) {
    const port = await freePort();
    const redirect = `http://127.0.0.1:${port}/callback`;
    const clientId = await registerPublicClient(issuer, "Conformance suite", redirect);
    const out = join(work, "authorization", run.replace(/\s+/g, "-"));
    const suite = background(process.execPath, [conformance, "authorization", "--url", issuer, "--client-id", clientId, "-p", String(port), "-o", out, ...extra], { cwd: work });
    try {
      // The suite prints the URL on a line of its own, after its "Access the following URL" line.
      const url = (await suite.waitFor(/^(http\S+\/authorize\?\S+)$/m, 60_000))[1]!;
      const { consent } = await approveInBrowser(browser, url, person, redirect);
      log(`authorization (${run}): consent page said "${consent.slice(0, 120)}...", Allow clicked`);
    } catch (e) {
      log(`authorization (${run}): the browser step failed: ${(e as Error).message}`);
      suite.stop();
    }
    const exit = await suite.exited;
    const checks = readChecks(out);
    if (checks.length === 0) checks.push({ scenario: "(none)", id: "(no result files)", status: "FAILURE", message: suite.output().trim().split("\n").slice(-5).join(" | ") });
    runs.push({ run, checks, exit });
  }
  return runs;
}

/** The checks the suite wrote, one `checks.json` per scenario directory. */
function readChecks(dir: string): CheckResult[] {
  let files: string[];
  try {
    files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith("checks.json"));
  } catch {
    return [];
  }
  return files.sort().flatMap((f) => {
    // Directories are named `authorization-server-<scenario>-<ISO time>`.
    const scenario = f.split("/")[0]!.replace(/^authorization-server-/, "").replace(/-\d{4}-\d{2}-\d{2}T.*$/, "");
    return (JSON.parse(readFileSync(join(dir, f), "utf8")) as { id: string; status: string; errorMessage?: string; description?: string }[]).map((c) => ({
      scenario,
      id: c.id,
      status: c.status,
      message: c.errorMessage ?? c.description ?? "",
    }));
  });
}
