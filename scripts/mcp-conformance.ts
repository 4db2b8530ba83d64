/**
 * Checks the MCP endpoint with tools from outside the repo's own tests: the MCP Inspector in
 * CLI mode and the official conformance suite's server scenarios, in every protocol revision
 * the endpoint serves. Not part of `npm test`: it takes a minute or two and runs other
 * packages' programs.
 *
 *   npm run mcp:conformance     (or: npx node scripts/mcp-conformance.ts [--verbose] [--inspector-only] [--oauth-only] [--revision 2025-11-25])
 *
 * It starts the service on a fresh SQLite store in a temporary directory, imports the bundled
 * reference data, and puts a small proxy in front that adds the API key, because the suite has
 * no option for headers; the proxy passes Host and Origin through unchanged, so the
 * DNS-rebinding scenario still tests the service.
 *
 * Then OAuth, with a person at headless chromium (Debian's, or CHROMIUM_PATH): the Inspector
 * CLI connects with no key, a user of a fresh account signs in and allows it, and its calls
 * are charged to that account; and the suite's `authorization` mode tests the built-in
 * authorization server (metadata, authorization code grant with PKCE, `iss`).
 * `--oauth-only` runs just these; `--inspector-only` skips the suite in both parts.
 *
 * Exit status 0 when every scenario outside the expected-failure list passes, every Inspector
 * check does (with a key and through OAuth), and no authorization check fails.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importMissingDatasets } from "../src/adapters/importers/datasets.ts";
import { importSanctions } from "../src/adapters/importers/sanctions-import.ts";
import { parseConfig } from "../src/config.ts";
import { createService, PROJECT_ROOT, type Service } from "../src/main.ts";
import { authorizationScenarios } from "./conformance/authorization-scenarios.ts";
import { launchChromium } from "./conformance/browser-consent.ts";
import { inspectorThroughOAuth } from "./conformance/inspector-oauth.ts";

const verbose = process.argv.includes("--verbose");
/** `--inspector-only` skips the suite (a few minutes) when only the Inspector checks are wanted. */
const inspectorOnly = process.argv.includes("--inspector-only");
/** `--oauth-only` runs only the OAuth part: the Inspector through OAuth and the authorization scenarios. */
const oauthOnly = process.argv.includes("--oauth-only");
const ALL_REVISIONS = ["2025-06-18", "2025-11-25", "2026-07-28"];
/** `--revision <r>` runs the suite for one revision only. */
const only = process.argv.indexOf("--revision");
const REVISIONS = only > 0 ? ALL_REVISIONS.filter((r) => r === process.argv[only + 1]) : ALL_REVISIONS;

/**
 * Scenarios that need the suite's reference "everything server": its fixture tools
 * (`test_simple_text`, `test_image_content`, ...), resources (`test://...`), prompts with
 * completions, logging, sampling, elicitation, subscriptions, `x-mcp-header` tools and
 * input_required rounds. A read-only data server has none of these, so they fail by design.
 */
const FIXTURE_SCENARIOS = [
  "logging-set-level",
  "completion-complete",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-with-logging",
  "tools-call-error",
  "tools-call-with-progress",
  "tools-call-sampling",
  "tools-call-elicitation",
  "json-schema-2020-12",
  "elicitation-sep1034-defaults",
  "elicitation-sep1330-enums",
  "resources-read-text",
  "resources-read-binary",
  "resources-templates-read",
  "resources-subscribe",
  "resources-unsubscribe",
  "prompts-get-simple",
  "prompts-get-with-args",
  "prompts-get-embedded-resource",
  "prompts-get-with-image",
  "http-custom-header-server-validation",
  "input-required-result-basic-elicitation",
  "input-required-result-basic-sampling",
  "input-required-result-basic-list-roots",
  "input-required-result-request-state",
  "input-required-result-multiple-input-requests",
  "input-required-result-multi-round",
  "input-required-result-non-tool-request",
  "input-required-result-result-type",
  "input-required-result-tampered-state",
  "input-required-result-capability-check",
];

/**
 * Checks of otherwise generic scenarios that probe the reference server's diagnostic tools
 * (`test_missing_capability`, `test_streaming_elicitation`, `test_logging_tool`) and report
 * "Not testable" without them. Any other failed check of a generic scenario counts.
 */
const FIXTURE_CHECKS = [
  "sep-2575-server-rejects-undeclared-capability",
  "sep-2575-missing-capability-http-400",
  "sep-2575-http-server-no-independent-requests-on-stream",
  "sep-2575-server-no-log-without-loglevel",
];

function run(cmd: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, timeout: options.timeoutMs ?? 300_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === "number" ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Forwards every request to the service with the key added; nothing else is touched. */
function authProxy(target: URL, key: string): Promise<Server> {
  const server = createServer((req, res) => {
    // No keep-alive pool towards the service: pooled idle sockets would keep this process alive at the end.
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, authorization: `Bearer ${key}` }, agent: false },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on("error", () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    // A client leaving mid-stream (the suite's subscription streams) ends the upstream exchange too.
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function startService(dir: string): Promise<{ service: Service; url: string }> {
  const config = parseConfig({ DATA_DIR: dir, LOG_LEVEL: "warn", INGEST_TCP_PORT: "off", INGEST_UDP_PORT: "off" }, PROJECT_ROOT);
  const service = await createService(config);
  process.stderr.write("importing the bundled reference data into a fresh store...\n");
  await importMissingDatasets(service, { progress: false });
  // Sanctions lists are not bundled (they are fetched from their publishers); the repo's OFAC
  // sample gives the list tools rows, so a fresh clone needs no network for this run.
  await importSanctions(service.services, "ofac", [join(PROJECT_ROOT, "test/fixtures/sanctions/ofac/sdn_csv_vessel_rows_2024-05-03.csv")], { asOf: "2024-05-03" });
  const url = await service.app.listen({ port: 0, host: "127.0.0.1" });
  return { service, url };
}

interface ScenarioResult {
  revision: string;
  scenario: string;
  passed: boolean;
  /** Needs the reference server's fixtures: failing is expected. */
  fixture: boolean;
  /** A generic scenario whose only failed checks probe the reference server's diagnostic tools. */
  onlyFixtureChecks: boolean;
  summary: string;
}

const acceptable = (s: ScenarioResult) => s.passed || s.fixture || s.onlyFixtureChecks;

/** Scenario names for one revision, from the suite's own list (`name [revisions]`). */
async function scenariosFor(conformance: string, revision: string): Promise<string[]> {
  const r = await run(process.execPath, [conformance, "list", "--server"]);
  return r.stdout
    .split("\n")
    .map((l) => /^\s*-\s+(\S+)\s+\[([^\]]+)\]/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null && m[2]!.split(",").includes(revision))
    .map((m) => m[1]!);
}

/** The ids of the checks a scenario run failed, from the result files it wrote. */
function failedChecks(dir: string): string[] {
  let files: string[];
  try {
    files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith("checks.json"));
  } catch {
    return [];
  }
  return files.flatMap((f) => (JSON.parse(readFileSync(join(dir, f), "utf8")) as { id: string; status: string }[]).filter((c) => c.status === "FAILURE").map((c) => c.id));
}

async function conformanceRun(url: string, work: string): Promise<ScenarioResult[]> {
  const conformance = join(PROJECT_ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
  const results: ScenarioResult[] = [];
  for (const revision of REVISIONS) {
    for (const scenario of await scenariosFor(conformance, revision)) {
      const out = join(work, "conformance", revision, scenario);
      const r = await run(process.execPath, [conformance, "server", "--url", url, "--scenario", scenario, "--spec-version", revision, "-o", out], { cwd: work, timeoutMs: 120_000 });
      const text = `${r.stdout}\n${r.stderr}`;
      const counts = /Passed:\s*(\d+)\/(\d+)(?:,\s*(\d+) failed)?(?:,\s*(\d+) warnings?)?/i.exec(text);
      const summary = counts ? counts[0] : (text.trim().split("\n").at(-1) ?? "").slice(0, 120);
      const failed = failedChecks(out);
      const onlyFixtureChecks = failed.length > 0 && failed.every((id) => FIXTURE_CHECKS.includes(id));
      results.push({
        revision,
        scenario,
        passed: r.code === 0,
        fixture: FIXTURE_SCENARIOS.includes(scenario),
        onlyFixtureChecks,
        summary: onlyFixtureChecks ? `${summary}; failed only: ${failed.join(", ")}` : summary,
      });
      if (verbose) process.stderr.write(`${revision} ${scenario}: exit ${r.code}\n${text}\n`);
      else process.stderr.write(`${revision} ${scenario}: ${r.code === 0 ? "pass" : "fail"} (${summary})\n`);
    }
  }
  return results;
}

/** The parts of the Inspector's JSON output the checks read. */
interface InspectorOutput {
  tools?: { name: string }[];
  structuredContent?: { unlocode?: string; type?: string; attribution?: unknown };
  contents?: { text?: string }[];
}

interface InspectorCheck {
  name: string;
  ok: boolean;
  detail: string;
}

/** The Inspector CLI in each revision: list, call, read, get, and the error paths. */
async function inspectorRun(mcpUrl: string, key: string, sandboxKey: string, work: string): Promise<InspectorCheck[]> {
  const inspector = join(PROJECT_ROOT, "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");
  const checks: InspectorCheck[] = [];
  // Its catalog, client config and token store go into the work directory, not the user's home.
  const env = { MCP_INSPECTOR_SECRET_STORE: "memory", HOME: work, MCP_CLIENT_CONFIG_PATH: join(work, "client.json") };
  const eras = [
    ["legacy", "2025 (initialize handshake)"],
    ["modern", "2026-07-28 (stateless)"],
  ] as const;
  for (const [era, label] of eras) {
    const config = join(work, `inspector-${era}.json`);
    const server = (k: string) => ({ type: "streamable-http", url: mcpUrl, headers: { Authorization: `Bearer ${k}` }, protocolEra: era });
    writeFileSync(config, JSON.stringify({ mcpServers: { maritime: server(key), sandbox: server(sandboxKey), nokey: { type: "streamable-http", url: mcpUrl, protocolEra: era } } }));
    const cli = (serverName: string, args: string[]) => run(process.execPath, [inspector, "--cli", "--config", config, "--server", serverName, ...args, "--format", "json"], { env, timeoutMs: 60_000 });
    const expect = async (name: string, serverName: string, args: string[], want: (r: { code: number; json: InspectorOutput | null; text: string }) => string | null) => {
      const r = await cli(serverName, args);
      let json: InspectorOutput | null = null;
      try {
        const parsed = JSON.parse(r.stdout) as { result?: InspectorOutput };
        json = parsed.result ?? (parsed as InspectorOutput);
      } catch {
        // not JSON: the check below sees the text
      }
      const problem = want({ code: r.code, json, text: `${r.stdout}\n${r.stderr}` });
      checks.push({ name: `${label}: ${name}`, ok: problem === null, detail: problem ?? `exit ${r.code}` });
      process.stderr.write(`inspector ${label}: ${name}: ${problem === null ? "ok" : `FAIL ${problem}`}\n`);
      if (verbose || problem !== null) process.stderr.write(`${r.stdout.slice(0, 2000)}\n${r.stderr.slice(0, 2000)}\n`);
    };
    // --strict fails (exit 6) on errors only; its JSON output lists every finding, warnings included, and there must be none.
    await expect("tools/list names every tool; no schema portability finding (--strict)", "maritime", ["--method", "tools/list", "--strict"], ({ code, json, text }) => {
      const names = (json?.tools ?? []).map((t: { name: string }) => t.name);
      const findings = text.includes('"schemaFindings"');
      return code === 0 && !findings && ["get_port", "get_usage", "get_my_feed", "list_sanctioned_vessels", "screen_vessels"].every((n) => names.includes(n))
        ? null
        : `exit ${code}${findings ? ", schema findings" : ""}, tools ${names.join(",")}`;
    });
    await expect("tools/call get_port", "maritime", ["--method", "tools/call", "--tool-name", "get_port", "--tool-args-json", '{"unlocode":"NLRTM"}'], ({ code, json }) =>
      code === 0 && json?.structuredContent?.unlocode === "NLRTM" && Array.isArray(json?.structuredContent?.attribution) ? null : `exit ${code}`,
    );
    await expect("tools/call with an integer argument", "maritime", ["--method", "tools/call", "--tool-name", "list_sanctioned_vessels", "--tool-args-json", '{"list":"ofac","limit":2}'], ({ code, json }) =>
      code === 0 && json?.structuredContent?.type === "sanctions_list" ? null : `exit ${code}`,
    );
    await expect("a sandbox key calling get_my_feed: isError naming Pro, Team (exit 5)", "sandbox", ["--method", "tools/call", "--tool-name", "get_my_feed"], ({ code, text }) =>
      code === 5 && /plan_lacks_feature/.test(text) && /Pro, Team/.test(text) ? null : `exit ${code}`,
    );
    await expect("resources/read service://docs/rights", "maritime", ["--method", "resources/read", "--uri", "service://docs/rights"], ({ code, json }) =>
      code === 0 && /withheld/.test(json?.contents?.[0]?.text ?? "") ? null : `exit ${code}`,
    );
    await expect("prompts/get vessel_due_diligence_brief", "maritime", ["--method", "prompts/get", "--prompt-name", "vessel_due_diligence_brief", "--prompt-args", "vessel=9074729"], ({ code, json }) =>
      code === 0 && /screen_vessels/.test(JSON.stringify(json)) ? null : `exit ${code}`,
    );
    await expect("prompts/get port_activity_brief", "maritime", ["--method", "prompts/get", "--prompt-name", "port_activity_brief", "--prompt-args", "unlocode=NLRTM"], ({ code, json }) =>
      code === 0 && /get_port/.test(JSON.stringify(json)) ? null : `exit ${code}`,
    );
    await expect("no key: authorization required (exit 3)", "nokey", ["--method", "tools/list", "--stored-auth-only"], ({ code }) => (code === 3 ? null : `exit ${code}`));
  }
  return checks;
}

/**
 * The OAuth part: one headless chromium plays the person who signs in and clicks Allow, for
 * the Inspector CLI and for the suite's authorization scenarios. A browser that cannot start
 * is a failure of this part, reported as such, not a crash of the whole run.
 */
async function oauthRun(service: Service, url: string, work: string): Promise<{ inspector: InspectorCheck[]; authorization: Awaited<ReturnType<typeof authorizationScenarios>> }> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  let browser;
  try {
    browser = await launchChromium();
  } catch (e) {
    const detail = `chromium did not start: ${(e as Error).message}`;
    log(detail);
    return { inspector: [{ name: "OAuth in a browser", ok: false, detail }], authorization: [] };
  }
  try {
    const inspector = await inspectorThroughOAuth(service, url, browser, work, log);
    const authorization = inspectorOnly ? [] : await authorizationScenarios(service, url, browser, work, log);
    return { inspector, authorization };
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "mds-mcp-conformance-"));
  const { service, url } = await startService(join(work, "data"));
  let proxy: Server | null = null;
  try {
    const accounts = service.services.accounts;
    const keyOf = async (plan: "sandbox" | "pro") => {
      const a = await accounts.createAccount({ name: `conformance ${plan}`, webPlan: plan, apiPlan: null });
      return (await accounts.createKey(a.id)).key;
    };
    const [sandboxKey, proKey] = [await keyOf("sandbox"), await keyOf("pro")];
    proxy = await authProxy(new URL(url), sandboxKey);
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;

    const inspector = oauthOnly ? [] : await inspectorRun(`${url}/mcp`, proKey, sandboxKey, work);
    const scenarios = inspectorOnly || oauthOnly ? [] : await conformanceRun(proxyUrl, work);
    const oauth = await oauthRun(service, url, work);

    const lines = [""];
    if (!oauthOnly) lines.push("## MCP Inspector (CLI)", "", "| check | result |", "|---|---|", ...inspector.map((c) => `| ${c.name} | ${c.ok ? "ok" : `FAIL: ${c.detail}`} |`), "");
    lines.push("## MCP Inspector (CLI) through OAuth", "", "| check | result |", "|---|---|", ...oauth.inspector.map((c) => `| ${c.name} | ${c.ok ? "ok" : `FAIL: ${c.detail}`} |`), "");
    lines.push("## Conformance suite, authorization scenarios (the built-in authorization server)", "", "| run | scenario | check | status | message |", "|---|---|---|---|---|");
    for (const r of oauth.authorization) for (const c of r.checks) lines.push(`| ${r.run} | ${c.scenario} | ${c.id} | ${c.status} | ${c.message.replace(/\|/g, "/")} |`);
    lines.push("");
    if (scenarios.length > 0) lines.push("## Conformance suite, server scenarios", "", "| revision | scenario | result | checks | note |", "|---|---|---|---|---|");
    for (const s of scenarios) {
      const note = s.fixture ? "needs the reference server's fixtures" : s.onlyFixtureChecks ? "only the reference server's diagnostic-tool checks failed" : "";
      lines.push(`| ${s.revision} | ${s.scenario} | ${s.passed ? "pass" : "fail"} | ${s.summary} | ${note} |`);
    }
    lines.push("");
    for (const revision of scenarios.length > 0 ? REVISIONS : []) {
      const of = scenarios.filter((s) => s.revision === revision);
      const generic = of.filter((s) => !s.fixture);
      const fixture = of.filter((s) => s.fixture);
      lines.push(
        `${revision}: generic scenarios ${generic.filter((s) => s.passed).length}/${generic.length} passed` +
          `${generic.some((s) => s.onlyFixtureChecks) ? ` (${generic.filter((s) => s.onlyFixtureChecks).map((s) => s.scenario).join(", ")}: only diagnostic-tool checks failed)` : ""}; ` +
          `fixture-specific ${fixture.filter((s) => !s.passed).length}/${fixture.length} failed as expected`,
      );
    }
    const unexpected = scenarios.filter((s) => !acceptable(s));
    const surprising = scenarios.filter((s) => s.passed && s.fixture);
    if (unexpected.length > 0) lines.push(`\nUNEXPECTED FAILURES: ${unexpected.map((s) => `${s.revision} ${s.scenario}`).join(", ")}`);
    if (surprising.length > 0) lines.push(`\nPassed although listed as fixture-specific: ${surprising.map((s) => `${s.revision} ${s.scenario}`).join(", ")}`);
    process.stdout.write(`${lines.join("\n")}\n\nThe suite's result files: ${join(work, "conformance")} (server scenarios), ${join(work, "authorization")} (authorization scenarios)\n`);
    const authorizationFailed = oauth.authorization.some((r) => r.exit !== 0 || r.checks.some((c) => c.status === "FAILURE"));
    if (authorizationFailed) lines.push("\nAUTHORIZATION SCENARIOS FAILED (see the table above)");
    if (oauth.inspector.some((c) => !c.ok)) lines.push("\nTHE INSPECTOR THROUGH OAUTH FAILED (see the table above)");
    process.exitCode = unexpected.length > 0 || inspector.some((c) => !c.ok) || oauth.inspector.some((c) => !c.ok) || authorizationFailed ? 1 : 0;
  } finally {
    // Idle keep-alive connections of the suite would otherwise hold the process open.
    proxy?.closeAllConnections();
    proxy?.close();
    await service.close();
    // The store goes; the suite's result files stay for reading.
    rmSync(join(work, "data"), { recursive: true, force: true });
  }
}

await main();
