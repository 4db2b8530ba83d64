import { promises as dns } from "node:dns";
import type { LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { Agent, buildConnector, request } from "undici";
import { type AddressPolicy, isAllowedAddress, productionPolicy } from "../../domain/webhooks/address-policy.ts";
import { checkTargetUrl } from "../../domain/webhooks/endpoint-url.ts";
import { ATTEMPT_DEADLINE_MS, isSuccessStatus, MAX_BODY_BYTES, RESPONSE_SNIPPET_BYTES } from "../../domain/webhooks/schedule.ts";
import type { AttemptResult, ErrorClass } from "../../interfaces/webhooks.ts";

/**
 * The HTTP client of webhook deliveries, safe against server-side request forgery by
 * construction (spec 6.4; docs/webhook-testing.md, "SSRF"):
 *
 * - The URL is parsed with WHATWG `URL` and checked before anything goes on the wire:
 *   https, port 443 or 8443, no user info, IP literals public.
 * - Names are resolved inside the connection (undici `connect.lookup`): every address of
 *   the answer must be public, or the connection fails; the socket then connects to
 *   exactly the addresses checked. One resolution per connection, so a DNS answer that
 *   changes between a check and a connect (rebinding) has nothing to slip through.
 * - Node skips `lookup` for IP literals, so the connector checks literals itself too.
 * - TLS keeps the hostname (SNI, certificate check); only the address is pinned.
 * - `undici.request` never follows redirects; a 3xx is a failed attempt.
 * - One hard deadline covers DNS, connect, TLS and the response headers: a request
 *   signal alone does not interrupt a lookup that hangs.
 * - At most 1 KB of the answer is read, then the connection is dropped.
 */

export type Resolver = (host: string) => Promise<LookupAddress[]>;

export interface TransportOptions {
  /** Names to addresses. Production: the system's DNS servers over c-ares, with a timeout. Tests inject a map. */
  resolver?: Resolver;
  policy?: AddressPolicy;
  /** Extra trust anchors (tests: their own CA). Production: the system CAs. */
  ca?: string | Buffer;
  deadlineMs?: number;
}

/** c-ares, not getaddrinfo: it has its own timeout and does not queue on libuv's four threads behind slow file I/O. */
export function systemResolver(timeoutMs = 4_000, servers?: readonly string[]): Resolver {
  const r = new dns.Resolver({ timeout: timeoutMs, tries: 1 });
  if (servers) r.setServers([...servers]);
  return async (host) => {
    const [v4, v6] = await Promise.allSettled([r.resolve4(host), r.resolve6(host)]);
    const out: LookupAddress[] = [];
    if (v4.status === "fulfilled") for (const address of v4.value) out.push({ address, family: 4 });
    if (v6.status === "fulfilled") for (const address of v6.value) out.push({ address, family: 6 });
    if (out.length === 0) throw v4.status === "rejected" ? v4.reason : new Error(`no address for ${host}`);
    return out;
  };
}

class BlockedAddressError extends Error {
  readonly code = "E_BLOCKED_ADDRESS";
}

/** One deadline for a whole request (DNS, connect, TLS, headers, the body read): it aborts the request and rejects. */
function startDeadline(ms: number): { ac: AbortController; deadline: Promise<never>; timer: NodeJS.Timeout } {
  const ac = new AbortController();
  let timer!: NodeJS.Timeout;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const e = new DeadlineError(`no answer within ${ms} ms`);
      ac.abort(e);
      reject(e);
    }, ms);
  });
  // A request that settles first leaves the deadline unobserved; its rejection is not an error.
  deadline.catch(() => undefined);
  return { ac, deadline, timer };
}

/**
 * Any failure of the name lookup. Tagged where it happens, not guessed from its code: c-ares
 * reports a DNS server that refuses or cannot be reached as ECONNREFUSED, the same code as a
 * receiver that refuses the connection, and an injected resolver may throw without a code.
 */
class DnsError extends Error {
  readonly code = "E_DNS";
}

class DeadlineError extends Error {
  readonly code = "E_DEADLINE";
}

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL_)/;
const DNS_CODES = new Set(["ENOTFOUND", "ENODATA", "ESERVFAIL", "EAI_AGAIN", "ETIMEOUT", "EREFUSED", "EBADRESP", "ENONAME"]);

function codeOf(e: unknown): string {
  const err = e as { code?: unknown; cause?: { code?: unknown } };
  return String(err?.code ?? err?.cause?.code ?? "");
}

function classify(e: unknown, stage: "connect" | "response"): { errorClass: ErrorClass; error: string } {
  const code = codeOf(e);
  const message = e instanceof Error ? e.message : String(e);
  const text = `${code ? `${code}: ` : ""}${message}`.slice(0, 500);
  if (e instanceof BlockedAddressError || code === "E_BLOCKED_ADDRESS") return { errorClass: "blocked_address", error: text };
  if (e instanceof DeadlineError || code === "E_DEADLINE" || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT" || code === "UND_ERR_CONNECT_TIMEOUT" || code === "ABORT_ERR") {
    return { errorClass: "timeout", error: text };
  }
  if (e instanceof DnsError || code === "E_DNS" || DNS_CODES.has(code)) return { errorClass: "dns", error: text };
  if (TLS_CODES.test(code)) return { errorClass: "tls", error: text };
  if (code.startsWith("HPE_") || (e as Error)?.name === "HTTPParserError" || code === "UND_ERR_INFO" || code === "UND_ERR_RES_CONTENT_LENGTH_MISMATCH") return { errorClass: "protocol", error: text };
  if (stage === "response" || code === "UND_ERR_SOCKET") return { errorClass: "protocol", error: text };
  return { errorClass: "connect", error: text };
}

export interface SendRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export class DeliveryTransport {
  readonly #policy: AddressPolicy;
  readonly #resolver: Resolver;
  readonly #deadlineMs: number;
  readonly #agent: Agent;

  constructor(options: TransportOptions = {}) {
    this.#policy = options.policy ?? productionPolicy();
    this.#resolver = options.resolver ?? systemResolver();
    this.#deadlineMs = options.deadlineMs ?? ATTEMPT_DEADLINE_MS;
    const lookup = this.#lookup.bind(this);
    const base = buildConnector({ ...(options.ca ? { ca: options.ca } : {}), rejectUnauthorized: true, timeout: this.#deadlineMs, lookup } as buildConnector.BuildOptions);
    const policy = this.#policy;
    this.#agent = new Agent({
      connect: (opts, cb) => {
        // Node never calls lookup for an IP literal, so a literal is checked here, per connection.
        if (isIP(opts.hostname) !== 0 && !isAllowedAddress(opts.hostname, policy)) {
          cb(new BlockedAddressError(`${opts.hostname} is not a public address`), null);
          return;
        }
        base(opts, cb);
      },
      headersTimeout: this.#deadlineMs,
      bodyTimeout: this.#deadlineMs,
      allowH2: false,
    });
  }

  get deadlineMs(): number {
    return this.#deadlineMs;
  }

  /** Answers net.connect's lookup: every address checked, the socket gets only checked ones. */
  #lookup(hostname: string, options: { all?: boolean; family?: number | string }, cb: (err: Error | null, address?: string | LookupAddress[], family?: number) => void): void {
    this.#resolver(hostname).then(
      (addrs) => {
        const wanted = options.family === 4 || options.family === "IPv4" ? 4 : options.family === 6 || options.family === "IPv6" ? 6 : 0;
        const list = wanted === 0 ? addrs : addrs.filter((a) => a.family === wanted);
        if (list.length === 0) return cb(new DnsError(`${hostname} has no ${wanted === 0 ? "" : `IPv${wanted} `}address`));
        // Fail closed on a mixed answer: one private address makes the whole name unusable.
        const bad = addrs.find((a) => !isAllowedAddress(a.address, this.#policy));
        if (bad) return cb(new BlockedAddressError(`${hostname} resolves to ${bad.address}, which is not a public address`));
        if (options.all) cb(null, list);
        else cb(null, list[0]!.address, list[0]!.family);
      },
      (err: unknown) => {
        const code = (err as { code?: unknown })?.code;
        const why = err instanceof Error ? err.message : String(err);
        cb(new DnsError(`looking up ${hostname} failed${typeof code === "string" && !why.includes(code) ? ` (${code})` : ""}: ${why}`));
      },
    );
  }

  /** One attempt: never throws; every failure is classified. */
  async send(req: SendRequest): Promise<AttemptResult> {
    const started = performance.now();
    const done = (r: Omit<AttemptResult, "durationMs">): AttemptResult => ({ ...r, durationMs: performance.now() - started });
    const target = checkTargetUrl(req.url, this.#policy);
    if (!target.ok) {
      return done({ success: false, statusCode: null, errorClass: target.problem === "blocked_address" ? "blocked_address" : "invalid_target", error: `the URL ${target.message}`, responseSnippet: null });
    }
    if (Buffer.byteLength(req.body, "utf8") > MAX_BODY_BYTES) {
      return done({ success: false, statusCode: null, errorClass: "body_too_large", error: `the body is larger than ${MAX_BODY_BYTES} bytes`, responseSnippet: null });
    }
    const { ac, deadline, timer } = startDeadline(this.#deadlineMs);
    let status: number | null = null;
    try {
      const res = await Promise.race([
        request(target.url, { method: "POST", dispatcher: this.#agent, body: req.body, headers: req.headers, signal: ac.signal }),
        deadline,
      ]);
      status = res.statusCode;
      // Headers came in time: the outcome is decided. Read a little of the body for the log, within what is left of the deadline.
      const snippet = await Promise.race([readSnippet(res.body), deadline]).catch(() => {
        res.body.destroy();
        return null;
      });
      const ok = isSuccessStatus(status);
      return done({ success: ok, statusCode: status, errorClass: ok ? null : "http_status", error: ok ? null : `answered ${status}`, responseSnippet: snippet });
    } catch (e) {
      const c = classify(e, status === null ? "connect" : "response");
      return done({ success: false, statusCode: status, errorClass: c.errorClass, error: c.error, responseSnippet: null });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A small GET under the same address rules and deadline (OAuth client metadata documents):
   * resolves with any status, rejects on a blocked or malformed URL, a transport failure, or a
   * body larger than `maxBytes`. Redirects are not followed, as for deliveries.
   */
  async fetchSmall(url: string, maxBytes: number, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
    const target = checkTargetUrl(url, this.#policy);
    if (!target.ok) throw new Error(`the URL ${target.message}`);
    const { ac, deadline, timer } = startDeadline(this.#deadlineMs);
    try {
      const res = await Promise.race([request(target.url, { method: "GET", dispatcher: this.#agent, headers, signal: ac.signal }), deadline]);
      const read = async (): Promise<string> => {
        const chunks: Buffer[] = [];
        let got = 0;
        for await (const chunk of res.body) {
          got += (chunk as Buffer).length;
          if (got > maxBytes) {
            res.body.destroy();
            throw new Error(`the body is larger than ${maxBytes} bytes`);
          }
          chunks.push(chunk as Buffer);
        }
        return Buffer.concat(chunks).toString("utf8");
      };
      const body = await Promise.race([read(), deadline]);
      return { status: res.statusCode, headers: res.headers, body };
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}

/** At most RESPONSE_SNIPPET_BYTES, as UTF-8 text (invalid bytes replaced); the rest of the body is dropped with the connection. */
async function readSnippet(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let got = 0;
  for await (const chunk of body) {
    const take = Math.min(chunk.length, RESPONSE_SNIPPET_BYTES - got);
    if (take > 0) chunks.push(chunk.subarray(0, take));
    got += chunk.length;
    if (got >= RESPONSE_SNIPPET_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).toString("utf8");
}
