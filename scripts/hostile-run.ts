/**
 * The bounded hostile-input run of CI: starts the service in-process on a free port, with
 * the bundled data imported, and sends at least REQUESTS requests over every operation of
 * its OpenAPI document and every MCP tool: malformed, boundary, oversized and
 * injection-style parameters, header abuse, foreign ids, revoked and made-up keys, bodies
 * that are not JSON. It passes when no answer is a 5xx and /healthz still answers at the end.
 *
 * Runs on SQLite always, and on PostgreSQL (+ Redis) when DATABASE_URL (and REDIS_URL) are
 * set: a fresh database per run, dropped at the end. One summary line per engine.
 *
 *   node scripts/hostile-run.ts [--requests N] [--engine sqlite|postgres]
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { Pool } from "undici";
import { importMissingDatasets } from "../src/adapters/importers/datasets.ts";
import { parseConfig } from "../src/config.ts";
import { loadDemoSanctionsExtracts } from "../src/cli/demo.ts";
import { createService, PROJECT_ROOT, type Service } from "../src/main.ts";
import { HOSTILE_VALUES } from "./hostile-values.ts";

const { values: args } = parseArgs({ options: { requests: { type: "string", default: "20500" }, engine: { type: "string" }, concurrency: { type: "string", default: "12" } } });
const REQUESTS = Number(args.requests);
const CONCURRENCY = Number(args.concurrency);


/** Bodies for operations that take one: wrong types, hostile strings, deep nesting, not JSON. */
function hostileBodies(): { payload: string; type: string }[] {
  const json = (v: unknown) => ({ payload: JSON.stringify(v), type: "application/json" });
  let deep: unknown = 1;
  for (let i = 0; i < 2_000; i++) deep = [deep];
  const out = [
    json({}),
    json([]),
    json(null),
    json("string"),
    json(42),
    json(deep),
    json({ url: "https://127.0.0.1/in" }),
    json({ url: "http://169.254.169.254/latest/meta-data" }),
    json({ url: "https://[::1]/x" }),
    json({ url: "https://hooks.example.com/in", events: ["alert.nope"], description: "x".repeat(100_000) }),
    json({ name: "z", geometry: { type: "Polygon", coordinates: [[[0, 0], [1e308, 0], [0, 1], [0, 0]]] } }),
    json({ name: "z", geometry: { type: "Polygon", coordinates: [Array.from({ length: 20_000 }, (_, i) => [i % 180, 0])] } }),
    json({ mmsi: "230123456", imo: "9175793", unlocode: "NLRTM" }),
    json({ mmsi: 1e20 }),
    json({ name: "", q: "" }),
    json({ graceHours: 1e9 }),
    json({ __proto__: { admin: true }, constructor: { prototype: { x: 1 } } }),
    { payload: "{not json", type: "application/json" },
    { payload: "a=1&b=2", type: "application/x-www-form-urlencoded" },
    { payload: "<xml/>", type: "text/xml" },
    { payload: "\u0000\u0001\u0002", type: "application/octet-stream" },
    { payload: "x".repeat(2_000_000), type: "application/json" },
  ];
  for (const v of HOSTILE_VALUES.slice(0, 30)) out.push(json({ url: v, name: v, q: v, mmsi: v, imo: v, description: v, geometry: v, graceHours: v }));
  return out;
}

interface OpenApiOperation {
  method: string;
  path: string;
  params: { name: string; in: string }[];
  body: boolean;
}

interface Tally {
  total: number;
  byStatus: Map<number, number>;
  failures: string[];
  /** 503 sanctions_unavailable: a list never loaded (EU and New Zealand have no demo extract) is an answer, not a fault. */
  listsNotLoaded: number;
}

function record(t: Tally, status: number, what: string, body: string): void {
  t.total++;
  t.byStatus.set(status, (t.byStatus.get(status) ?? 0) + 1);
  if (status === 503 && body.includes('"code":"sanctions_unavailable"')) {
    t.listsNotLoaded++;
    return;
  }
  if (status >= 500 && t.failures.length < 20) t.failures.push(`${status} ${what.slice(0, 200)}: ${body.slice(0, 300)}`);
}

interface Req {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

async function fire(pool: Pool, t: Tally, r: Req): Promise<void> {
  try {
    const res = await pool.request({ method: r.method as "GET", path: r.path, headers: { host: "localhost", ...r.headers }, body: r.body });
    const text = await res.body.text();
    record(t, res.statusCode, `${r.method} ${r.path}`, text);
  } catch (e) {
    // A refused or reset connection is the server's failure too (a crash, a hang).
    record(t, 599, `${r.method} ${r.path}`, `transport: ${(e as Error).message}`);
  }
}

async function runEngine(engine: "sqlite" | "postgres"): Promise<boolean> {
  const started = performance.now();
  const dataDir = mkdtempSync(join(tmpdir(), "mds-hostile-"));
  let dropDb: (() => Promise<void>) | null = null;
  const env: Record<string, string | undefined> = { LOG_LEVEL: "silent", DATA_DIR: dataDir, BASE_URL: "http://localhost", DATABASE_URL: undefined, REDIS_URL: undefined };
  if (engine === "postgres") {
    const admin = process.env.DATABASE_URL!;
    const name = `mds_hostile_${randomBytes(5).toString("hex")}`;
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`CREATE DATABASE ${name}`);
    await c.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    env.REDIS_URL = process.env.REDIS_URL;
    dropDb = async () => {
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.end();
    };
  }
  let service: Service | null = null;
  let pool: Pool | null = null;
  const tally: Tally = { total: 0, byStatus: new Map(), failures: [], listsNotLoaded: 0 };
  let healthy = false;
  try {
    service = await createService(parseConfig(env, PROJECT_ROOT));
    await importMissingDatasets(service, { progress: false });
    // Sanctions lists to screen against (the demo's dated extracts): with none loaded, screening is a
    // deliberate 503 sanctions_unavailable, which is an answer and not the failure this run looks for.
    await loadDemoSanctionsExtracts(service, PROJECT_ROOT);
    await service.app.listen({ port: 0, host: "127.0.0.1" });
    const address = service.app.server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    pool = new Pool(`http://127.0.0.1:${port}`, { connections: CONCURRENCY, pipelining: 1 });

    // Keys: two accounts on the top plan (owner and stranger), a revoked one, a made-up one.
    const accounts = service.services.accounts;
    const owner = await accounts.createAccount({ name: "hostile owner", webPlan: null, apiPlan: "scale" });
    const stranger = await accounts.createAccount({ name: "hostile stranger", webPlan: "team", apiPlan: null });
    const ownerKey = (await accounts.createKey(owner.id)).key;
    const strangerKey = (await accounts.createKey(stranger.id)).key;
    const revoked = await accounts.createKey(owner.id);
    await accounts.revokeKey(revoked.id);
    // More valid keys than bad ones, on several accounts, so most requests get past
    // authentication and the rate limit into parameter parsing and the stores. Each of the six
    // valid slots below draws from a pool of its own, so no key nears its per-second limit.
    const VALID_POOL_SIZE = 8;
    const pools: string[][] = [];
    for (let n = 0; n < 6; n++) {
      const pool: string[] = [];
      for (let k = 0; k < VALID_POOL_SIZE; k++) {
        const a = await accounts.createAccount({ name: `hostile ${n}.${k}`, webPlan: null, apiPlan: "scale" });
        pool.push((await accounts.createKey(a.id)).key);
      }
      pools.push(pool);
    }
    const more = pools.map((_, n) => `pool:${n}`);
    const bad = [revoked.key, "mds_sk_thisKeyWasNeverIssued00000000000", `mds_sk_${"A".repeat(5_000)}`, "", "mds_at_garbage"];
    const keys = [ownerKey, strangerKey, ...more, ownerKey, ...more, bad[0]!, ...more, bad[1]!, ...more, bad[2]!, ...more, bad[3]!, ...more, bad[4]!];

    // Objects of the owner, asked for with the stranger's key: foreign ids.
    const owned: string[] = [];
    for (const [url, body] of [
      ["/api/v1/account/webhooks", { url: "https://hooks.example.com/in" }],
      ["/api/v1/account/zones", { name: "Harbour", geometry: { type: "Polygon", coordinates: [[[24.9, 60.1], [25.0, 60.1], [25.0, 60.2], [24.9, 60.2], [24.9, 60.1]]] } }],
      ["/api/v1/account/follows", { mmsi: "230123456" }],
      ["/api/v1/account/saved-searches", { name: "tankers", q: "tanker" }],
    ] as const) {
      const res = await pool.request({ method: "POST", path: url, headers: { host: "localhost", authorization: `Bearer ${ownerKey}`, "content-type": "application/json" }, body: JSON.stringify(body) });
      const text = await res.body.text();
      record(tally, res.statusCode, `POST ${url}`, text);
      if (res.statusCode === 200) owned.push((JSON.parse(text) as { data: { id: string } }).data.id);
    }

    const docRes = await pool.request({ method: "GET", path: "/api/v1/openapi.json", headers: { host: "localhost" } });
    const doc = (await docRes.body.json()) as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; requestBody?: unknown }>> };
    const ops: OpenApiOperation[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        ops.push({ method: method.toUpperCase(), path, params: (op.parameters ?? []).filter((p) => p.in === "path" || p.in === "query"), body: op.requestBody !== undefined });
      }
    }
    const toolsRes = await pool.request({
      method: "POST",
      path: "/mcp",
      headers: { host: "localhost", "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25", authorization: `Bearer ${ownerKey}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    const toolsText = await toolsRes.body.text();
    const toolsJson = toolsText.startsWith("{") ? toolsText : (/^data: (.*)$/m.exec(toolsText)?.[1] ?? "{}");
    const tools = ((JSON.parse(toolsJson) as { result?: { tools?: { name: string; inputSchema?: { properties?: Record<string, unknown> } }[] } }).result?.tools ?? []).map((t) => ({
      name: t.name,
      args: Object.keys(t.inputSchema?.properties ?? {}),
    }));

    const bodies = hostileBodies();
    const values = [...HOSTILE_VALUES, ...owned];
    /** The i-th request of the run: cycles over operations, parameters, values, keys and header abuse. */
    function nth(i: number): Req {
      const slot = keys[i % keys.length]!;
      const key = slot.startsWith("pool:") ? pools[Number(slot.slice(5))]![Math.floor(i / keys.length) % VALID_POOL_SIZE]! : slot;
      const auth: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
      const kind = i % 10;
      if (kind === 9 && tools.length > 0) {
        const tool = tools[Math.floor(i / 10) % tools.length]!;
        const v = values[Math.floor(i / 10 / tools.length) % values.length]!;
        const callArgs = Object.fromEntries(tool.args.map((a) => [a, v]));
        const variants = [
          JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: tool.name, arguments: callArgs } }),
          JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: tool.name, arguments: { ...callArgs, extra: v } } }),
          JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: tool.name, arguments: v } }),
          JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: `${tool.name}${v}` } }),
          JSON.stringify([{ jsonrpc: "2.0", id: i, method: "tools/list" }, { jsonrpc: "2.0", id: i + 1, method: "nope" }]),
          JSON.stringify({ jsonrpc: "1.0", id: { a: 1 }, method: 42 }),
          "{\"jsonrpc\":\"2.0\",",
          JSON.stringify({ jsonrpc: "2.0", id: i, method: "initialize", params: { protocolVersion: v, capabilities: v, clientInfo: v } }),
        ];
        const body = variants[Math.floor(i / 10) % variants.length]!;
        const versions = ["2025-11-25", "2025-06-18", "2026-07-28", "1999-01-01", v.slice(0, 100)];
        const method = ["POST", "POST", "POST", "POST", "GET", "DELETE", "HEAD", "PUT"][Math.floor(i / 7) % 8]!;
        return {
          method,
          path: "/mcp",
          headers: {
            ...auth,
            "content-type": i % 13 === 0 ? "text/plain" : "application/json",
            accept: i % 11 === 0 ? "text/html" : "application/json, text/event-stream",
            "mcp-protocol-version": versions[i % versions.length]!.replace(/[^\x20-\x7e]/g, "?"),
            ...(i % 17 === 0 ? { "mcp-session-id": "x".repeat(300) } : {}),
          },
          body: method === "GET" || method === "HEAD" ? undefined : body,
        };
      }
      const op = ops[i % ops.length]!;
      const round = Math.floor(i / ops.length);
      const params: Record<string, string> = {};
      const target = op.params.length > 0 ? op.params[round % op.params.length]! : null;
      for (const p of op.params) {
        // One parameter hostile at a time; the others get a plausible value or a hostile one too.
        params[p.name] = p === target ? values[Math.floor(round / Math.max(1, op.params.length)) % values.length]! : round % 3 === 0 ? values[(round * 7) % values.length]! : "";
      }
      let path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] || "x"));
      const query = new URLSearchParams();
      for (const p of op.params) if (p.in === "query" && params[p.name] !== "") query.set(p.name, params[p.name]!);
      if (round % 11 === 5) query.append(target?.name ?? "q", "dup");
      if (round % 13 === 7) query.set("unknown_param", "1");
      const q = query.toString();
      if (q) path += `?${q}`;
      if (round % 19 === 0) path += "&%zz=%G0";
      const headers: Record<string, string> = { ...auth };
      // Half the rounds abuse a header, half send clean ones, so every value also meets a plain valid key.
      const abuse = round % 24;
      if (abuse === 1) headers.authorization = `Basic ${Buffer.from("a:b").toString("base64")}`;
      if (abuse === 2) headers.authorization = `Bearer ${key} ${key}`;
      if (abuse === 3) headers.host = "evil.example";
      if (abuse === 4) headers["x-forwarded-for"] = "1.2.3.4, ' OR 1=1";
      if (abuse === 5) headers["x-forwarded-host"] = "evil.example";
      if (abuse === 6) headers.accept = "application/xml";
      if (abuse === 7) headers["accept-encoding"] = "gzip;q=abc, br, *;q=-1";
      if (abuse === 8) headers.cookie = `mds_session=${"x".repeat(3_000)}`;
      if (abuse === 9) headers["content-length"] = "0";
      if (abuse === 10) headers["if-none-match"] = "*";
      let body: string | undefined;
      if (op.body) {
        const b = bodies[round % bodies.length]!;
        body = b.payload;
        headers["content-type"] = b.type;
        delete headers["content-length"];
      }
      const method = round % 23 === 0 ? ["PATCH", "OPTIONS", "TRACE", "PUT"][round % 4]! : op.method;
      return { method, path, headers, body };
    }

    let next = 0;
    const worker = async () => {
      for (let i = next++; i < REQUESTS; i = next++) await fire(pool!, tally, nth(i));
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    const health = await pool.request({ method: "GET", path: "/healthz", headers: { host: "localhost" } });
    healthy = health.statusCode === 200 && ((await health.body.json()) as { ok?: boolean }).ok === true;
  } finally {
    await pool?.close().catch(() => undefined);
    await service?.close().catch(() => undefined);
    await dropDb?.().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
  const statuses = [...tally.byStatus.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}:${n}`).join(" ");
  const fivexx = [...tally.byStatus.entries()].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0) - tally.listsNotLoaded;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const pass = fivexx === 0 && healthy && tally.total >= REQUESTS;
  console.log(`hostile-run ${engine}${engine === "postgres" && process.env.REDIS_URL ? "+redis" : ""}: ${tally.total} requests in ${seconds}s, status ${statuses}, 5xx = ${fivexx} (beside ${tally.listsNotLoaded} answers that a list is not loaded), healthz ${healthy ? "ok" : "DOWN"}: ${pass ? "PASS" : "FAIL"}`);
  for (const f of tally.failures) console.log(`  ${f}`);
  return pass;
}

const engines: ("sqlite" | "postgres")[] = args.engine ? [args.engine as "sqlite" | "postgres"] : process.env.DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];
let ok = true;
for (const e of engines) ok = (await runEngine(e)) && ok;
process.exit(ok ? 0 : 1);
