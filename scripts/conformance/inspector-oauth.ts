import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { PROJECT_ROOT, type Service } from "../../src/main.ts";
import { background, freePort } from "./background.ts";
import { approveInBrowser } from "./browser-consent.ts";
import { createPerson, creditsUsed } from "./oauth-setup.ts";

export interface InspectorOAuthCheck {
  name: string;
  ok: boolean;
  detail: string;
}

interface ToolsOutput {
  tools?: { name: string }[];
  isError?: boolean;
  structuredContent?: { unlocode?: string; data?: { credits?: { used?: number } } };
  content?: { text?: string }[];
}

/**
 * The MCP Inspector CLI connecting with no key, through OAuth, as a person at a headless
 * machine would drive it:
 *
 * - `MCP_AUTO_OPEN_ENABLED=true` is the CLI's switch for interactive OAuth without a TTY; it
 *   then prints "Please navigate to: <authorization URL>" on stderr and tries to open a
 *   browser. `BROWSER=true` makes that attempt (xdg-open) run the no-op `true`, and this
 *   script opens the URL in headless chromium instead: sign in, Allow.
 * - `--callback-url` puts the CLI's own callback listener on a free loopback port; it
 *   registers that URI by dynamic registration and redeems the code itself.
 * - `MCP_INSPECTOR_SECRET_STORE=file` under a scratch HOME keeps the tokens between runs, so
 *   the later runs use `--stored-auth-only` (what CI would do): no person, the same grant.
 */
export async function inspectorThroughOAuth(service: Service, base: string, browser: Browser, work: string, log: (line: string) => void): Promise<InspectorOAuthCheck[]> {
  const home = join(work, "inspector-oauth");
  try {
    return await run(service, base, browser, home, log);
  } finally {
    // The stored tokens go with the instance; nothing of a grant stays on disk.
    rmSync(home, { recursive: true, force: true });
  }
}

async function run(service: Service, base: string, browser: Browser, home: string, log: (line: string) => void): Promise<InspectorOAuthCheck[]> {
  const inspector = join(PROJECT_ROOT, "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");
  mkdirSync(home, { recursive: true });
  const person = await createPerson(service, "inspector");
  const callback = `http://127.0.0.1:${await freePort()}/oauth/callback`;
  const env = { HOME: home, MCP_INSPECTOR_SECRET_STORE: "file", MCP_AUTO_OPEN_ENABLED: "true", BROWSER: "true", MCP_CLIENT_CONFIG_PATH: join(home, "client.json") };
  const config = join(home, "servers.json");
  const entry = (era: string) => ({ type: "streamable-http", url: `${base}/mcp`, protocolEra: era });
  writeFileSync(config, JSON.stringify({ mcpServers: { legacy: entry("legacy"), modern: entry("modern") } }));
  const checks: InspectorOAuthCheck[] = [];
  const record = (name: string, problem: string | null, output: string) => {
    checks.push({ name, ok: problem === null, detail: problem ?? "ok" });
    log(`inspector OAuth: ${name}: ${problem === null ? "ok" : `FAIL ${problem}`}`);
    if (problem !== null) log(output.slice(-3000));
  };
  const cli = (server: string, args: string[]) =>
    background(process.execPath, [inspector, "--cli", "--config", config, "--server", server, "--callback-url", callback, ...args, "--format", "json"], { env, cwd: home });
  const parse = (stdout: string): ToolsOutput | null => {
    const line = stdout.split("\n").find((l) => l.startsWith("{"));
    if (!line) return null;
    try {
      const parsed = JSON.parse(line) as { result?: ToolsOutput };
      return parsed.result ?? (parsed as ToolsOutput);
    } catch {
      return null;
    }
  };

  // 1. No token yet: the CLI meets the 401, registers, prints the URL and waits on its callback.
  const first = cli("legacy", ["--method", "tools/list"]);
  try {
    const url = (await first.waitFor(/Please navigate to: (\S+)/, 60_000))[1]!;
    const { consent } = await approveInBrowser(browser, url, person, callback);
    log(`inspector OAuth: consent page said "${consent.slice(0, 120)}...", Allow clicked`);
  } catch (e) {
    log(`inspector OAuth: the browser step failed: ${(e as Error).message}`);
    first.stop();
  }
  const firstExit = await first.exited;
  const listed = (parse(first.output())?.tools ?? []).map((t) => t.name);
  record(
    "no key: OAuth in chromium (sign in, Allow), then tools/list",
    firstExit === 0 && listed.includes("get_usage") && listed.includes("get_port") ? null : `exit ${firstExit}, tools ${listed.join(",") || "(none)"}`,
    first.output(),
  );

  // 2. The stored token, no person: a charged call, then get_usage, in both eras.
  const before = await creditsUsed(service, base, person.accountId);
  const call = async (server: string, name: string, args: string) => {
    const run = cli(server, ["--stored-auth-only", "--method", "tools/call", "--tool-name", name, "--tool-args-json", args]);
    const exit = await run.exited;
    return { exit, out: parse(run.output()), text: run.output() };
  };
  const port = await call("legacy", "get_port", '{"unlocode":"NLRTM"}');
  record("stored token (--stored-auth-only): tools/call get_port", port.exit === 0 && !port.out?.isError ? null : `exit ${port.exit}: ${port.out?.content?.[0]?.text ?? ""}`, port.text);
  const usage = await call("modern", "get_usage", "{}");
  const seen = usage.out?.structuredContent?.data?.credits?.used;
  const ledger = await creditsUsed(service, base, person.accountId);
  record(
    "stored token, 2026-07-28 era: tools/call get_usage shows the call charged to the signed-in user's account",
    usage.exit === 0 && typeof seen === "number" && seen > before && seen === ledger ? null : `exit ${usage.exit}, get_usage says used ${seen}, the account's ledger ${before} -> ${ledger}`,
    usage.text,
  );
  log(`inspector OAuth: the account's credits used ${before} -> ${ledger} (get_usage through OAuth said ${seen})`);
  return checks;
}
