/**
 * Seams of the webhook tests (docs/webhook-testing.md, Seams): a test CA and certificates
 * made with openssl, local HTTPS receivers on 127.0.0.N:8443 (Linux routes all of 127/8
 * to loopback), a resolver mapping test names to those addresses, and an address policy
 * whose allow list holds only the receiver's own address, so 127.0.0.1 stays blocked.
 * Production code is never switched; it is handed these at construction.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import type { TLSSocket } from "node:tls";
import { join } from "node:path";
import type { LookupAddress } from "node:dns";
import Stripe from "stripe";
import { type AddressPolicy, parseCidrs, productionPolicy } from "../../src/domain/webhooks/address-policy.ts";
import { verifySignature } from "../../src/domain/webhooks/signature.ts";
import type { Resolver, TransportOptions } from "../../src/adapters/webhooks/http-client.ts";
import { tool } from "./system-tools.ts";

export const HOOK_HOST = "hooks.example.test";

/**
 * The webhook tests need `openssl` (it makes their CA and certificates), found or installed
 * once for the run (test/helpers/system-tools.ts). Without it they fail, naming the command,
 * instead of skipping: a skipped suite would let a machine without openssl report the
 * delivery path as tested. Returns the program to run.
 */
export function requireOpenssl(): string {
  const openssl = tool("openssl");
  if (!openssl.path) throw new Error(`the webhook tests need the \`openssl\` command (Debian: apt-get install openssl): ${openssl.note}`);
  // Asked a few times: a spawn can fail once on a machine under load.
  for (let attempt = 1; ; attempt++) {
    try {
      execFileSync(openssl.path, ["version"], { stdio: "ignore" });
      return openssl.path;
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
}

export interface TestPki {
  ca: string;
  key: string;
  cert: string;
  /** A certificate for another name, signed by the same CA (hostname verification). */
  otherKey: string;
  otherCert: string;
  /** A certificate for the right name from a CA nobody trusts. */
  rogueKey: string;
  rogueCert: string;
}

let cached: TestPki | null = null;

/** A CA and leaf certificates for the test names, made once per test process. */
export function testPki(): TestPki {
  if (cached) return cached;
  const openssl = requireOpenssl();
  const dir = mkdtempSync(join(tmpdir(), "mds-webhook-pki-"));
  const run = (args: string[]) => execFileSync(openssl, args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  const ca = (name: string) => {
    run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", `${name}.key`, "-out", `${name}.pem`, "-days", "2", "-subj", `/CN=${name}`]);
  };
  const leaf = (name: string, caName: string, dns: string) => {
    run(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=${dns}`]);
    writeFileSync(join(dir, `${name}.ext`), `subjectAltName=DNS:${dns}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n`);
    run(["x509", "-req", "-in", `${name}.csr`, "-CA", `${caName}.pem`, "-CAkey", `${caName}.key`, "-CAcreateserial", "-out", `${name}.pem`, "-days", "2", "-extfile", `${name}.ext`]);
  };
  ca("test-ca");
  ca("rogue-ca");
  leaf("hooks", "test-ca", `*.example.test`);
  leaf("other", "test-ca", "other.invalid");
  leaf("rogue", "rogue-ca", `*.example.test`);
  const read = (f: string) => readFileSync(join(dir, f), "utf8");
  cached = {
    ca: read("test-ca.pem"),
    key: read("hooks.key"),
    cert: read("hooks.pem"),
    otherKey: read("other.key"),
    otherCert: read("other.pem"),
    rogueKey: read("rogue.key"),
    rogueCert: read("rogue.pem"),
  };
  rmSync(dir, { recursive: true, force: true });
  return cached;
}

/** Names to addresses, like DNS would; `calls` counts resolutions per name. */
export function mapResolver(map: Record<string, string | string[] | ((n: number) => string[])>): Resolver & { calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const fn = (async (host: string): Promise<LookupAddress[]> => {
    const n = (calls.get(host) ?? 0) + 1;
    calls.set(host, n);
    const entry = map[host];
    if (entry === undefined) throw Object.assign(new Error(`queryA ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    const list = typeof entry === "function" ? entry(n) : Array.isArray(entry) ? entry : [entry];
    return list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  }) as Resolver & { calls: Map<string, number> };
  fn.calls = calls;
  return fn;
}

/** The production policy plus one loopback address counted as public: the test receiver's. */
export function policyAllowing(...cidrs: string[]): AddressPolicy {
  const prod = productionPolicy();
  return { ...prod, allow: parseCidrs(cidrs) };
}

export function transportFor(address: string, extra: Partial<TransportOptions> = {}): TransportOptions {
  return { resolver: mapResolver({ [HOOK_HOST]: address }), policy: policyAllowing(`${address}/32`), ca: testPki().ca, ...extra };
}

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  raw: Buffer;
  localAddress: string;
  /** TLS SNI the client sent. */
  servername: string | false | null;
  /** Wall-clock receive time (ms). */
  at: number;
}

export type Behaviour = (req: Received, res: ServerResponse) => void | Promise<void>;

export interface Receiver {
  server: Server;
  received: Received[];
  /** TCP connections accepted, whether or not a request followed. */
  connections: number;
  behaviour: Behaviour;
  close(): Promise<void>;
}

/** An HTTPS receiver on host:port answering with `behaviour` (default: 204). */
export async function startReceiver(host: string, options: { port?: number; key?: string; cert?: string; behaviour?: Behaviour } = {}): Promise<Receiver> {
  const pki = testPki();
  const received: Received[] = [];
  const r: Receiver = {
    server: null as unknown as Server,
    received,
    connections: 0,
    behaviour:
      options.behaviour ??
      ((_req, res) => {
        res.statusCode = 204;
        res.end();
      }),
    close: () =>
      new Promise((resolve) => {
        r.server.closeAllConnections();
        r.server.close(() => resolve());
      }),
  };
  r.server = createServer({ key: options.key ?? pki.key, cert: options.cert ?? pki.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const rec: Received = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, raw: Buffer.concat(chunks), localAddress: req.socket.localAddress ?? "", servername: (req.socket as TLSSocket).servername, at: Date.now() };
      received.push(rec);
      void Promise.resolve(r.behaviour(rec, res)).catch(() => res.destroy());
    });
  });
  r.server.on("connection", () => r.connections++);
  r.server.on("tlsClientError", () => undefined);
  await new Promise<void>((resolve, reject) => {
    r.server.once("error", reject);
    r.server.listen(options.port ?? 8443, host, () => resolve());
  });
  return r;
}

const stripe = new Stripe("sk_test_unused_for_webhook_verification");

/**
 * The receiver side: verifies one request as a Stripe-style receiver would (stripe-node's
 * constructEvent on the raw bytes, 300 s tolerance at `receivedAtMs`) and with the
 * service's reference verifier (both directions of the window). Throws on failure.
 */
export function verifyReceived(rec: Received, secret: string, receivedAtMs: number): Record<string, unknown> {
  const header = String(rec.headers["service-signature"] ?? "");
  const event = stripe.webhooks.constructEvent(rec.raw, header, secret, 300, undefined, receivedAtMs) as unknown as Record<string, unknown>;
  const own = verifySignature(header, rec.raw, secret, Math.floor(receivedAtMs / 1000));
  if (!own.ok) throw new Error(`reference verifier: ${own.reason}`);
  return event;
}

export function wait(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Literal IPv4 in every spelling WHATWG URL turns into the same address (N-3). */
export const BLOCKED_V4_LITERALS = [
  "127.0.0.1",
  "2130706433",
  "0177.0.0.1",
  "0x7f.0.0.1",
  "127.1",
  "①②⑦.0.0.1",
  "0.0.0.0",
  "0.1.2.3",
  "169.254.169.254",
  "100.100.100.200",
  "10.0.0.1",
  "172.31.255.255",
  "192.168.0.1",
  "198.18.0.1",
  "224.0.0.1",
  "240.0.0.1",
  "255.255.255.255",
  "168.63.129.16",
];

/** N-4. */
export const BLOCKED_V6_LITERALS = [
  "[::1]",
  "[::]",
  "[::ffff:127.0.0.1]",
  "[::ffff:a9fe:a9fe]",
  "[::7f00:1]",
  "[64:ff9b::a9fe:a9fe]",
  "[64:ff9b:1::1]",
  "[2002:a9fe:a9fe::1]",
  "[2001:0:4136:e378:8000:63bf:3fff:fdd2]",
  "[fd00:ec2::254]",
  "[fe80::1]",
  "[ff02::1]",
  "[2001:db8::1]",
  "[3fff::1]",
  "[5f00::1]",
  "[100::1]",
];
