import { isIP } from "node:net";
import { resolve } from "node:path";
import { z } from "zod";
import { DEFAULT_STALE_AFTER_DAYS } from "./domain/sanctions/coverage.ts";
import { DEFAULT_RETENTION, type Retention } from "./domain/screenings/retention.ts";
import { isSanctionsListKey, SANCTIONS_LISTS, type SanctionsListKey } from "./domain/sanctions/designation.ts";

/**
 * The environment, validated once at start. Every bad variable is reported with its
 * name and the rule, all at once, before anything is opened.
 */
const url = (protocols: string[]) =>
  z.string().refine((v) => {
    try {
      return protocols.includes(new URL(v).protocol);
    } catch {
      return false;
    }
  }, `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}`);

/** "list=file-or-url[,...];list=...": where `import sanctions --all` and the refresh read a list instead of its official files. */
const sanctionsSources = z.string().transform((v, ctx) => {
  const out: Partial<Record<SanctionsListKey, string[]>> = {};
  for (const part of v.split(";").map((p) => p.trim()).filter((p) => p !== "")) {
    const eq = part.indexOf("=");
    const list = part.slice(0, Math.max(0, eq)).trim();
    const items = part.slice(eq + 1).split(",").map((x) => x.trim()).filter((x) => x !== "");
    if (eq < 1 || !isSanctionsListKey(list) || items.length === 0) {
      ctx.addIssue({ code: "custom", message: `must be list=file-or-url[,file-or-url...] joined by ";", lists from ${SANCTIONS_LISTS.join(", ")}` });
      return z.NEVER;
    }
    out[list] = items;
  }
  return out;
});

/**
 * How often `serve` fetches the sanctions lists: `off`, or hours (`24`, `0.5`), or with a
 * unit (`30m`, `12h`, `1d`). At least one minute.
 */
const sanctionsRefresh = z.string().transform((v, ctx): number | null => {
  if (v.trim().toLowerCase() === "off") return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(m|h|d)?\s*$/i.exec(v);
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[(m?.[2] ?? "h").toLowerCase() as "m" | "h" | "d"];
  const ms = m ? Math.round(Number(m[1]) * unit) : NaN;
  if (!(ms >= 60_000)) {
    ctx.addIssue({ code: "custom", message: "must be off, or an interval of at least one minute: hours (24, 0.5) or with a unit (30m, 12h, 1d)" });
    return z.NEVER;
  }
  return ms;
});

/** How long screening receipts are kept: years (`5y`) or days (`90d`), at least one day, at most 100 years. */
const retention = z.string().transform((v, ctx): Retention => {
  const m = /^\s*(\d{1,6})\s*(y|d)\s*$/i.exec(v);
  const count = m ? Number(m[1]) : NaN;
  const unit = m?.[2]!.toLowerCase() === "y" ? "years" : "days";
  if (!m || count < 1 || (unit === "years" ? count > 100 : count > 36_525)) {
    ctx.addIssue({ code: "custom", message: "must be a whole number of years or days with its unit, e.g. 5y or 90d (at least 1d, at most 100y)" });
    return z.NEVER;
  }
  return { count, unit };
});

/** A station listener's port, or `off`; 0 picks a free port. */
const ingestPort = z.string().transform((v, ctx): number | null => {
  if (v === "off") return null;
  if (!/^\d{1,5}$/.test(v) || Number(v) > 65535) {
    ctx.addIssue({ code: "custom", message: "must be a port number 0..65535 or off" });
    return z.NEVER;
  }
  return Number(v);
});

/**
 * A whole number in a range, written out as the rule: z.coerce.number() would turn "abc"
 * into NaN and report zod's "expected number, received NaN" instead.
 */
const wholeNumber = (min: number, max: number, rule: string) =>
  z.string().transform((v, ctx): number => {
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
      ctx.addIssue({ code: "custom", message: rule });
      return z.NEVER;
    }
    return Number(v);
  });

/** `from-to`: the ports stations' plain NMEA listeners are allocated from (both ends included). */
const portRange = z.string().transform((v, ctx): { from: number; to: number } => {
  const m = /^(\d{1,5})-(\d{1,5})$/.exec(v);
  const from = m ? Number(m[1]) : NaN;
  const to = m ? Number(m[2]) : NaN;
  if (!m || from < 1 || to > 65535 || from > to) {
    ctx.addIssue({ code: "custom", message: "must be a port range from-to, like 5700-5999, within 1..65535" });
    return z.NEVER;
  }
  return { from, to };
});

/** AES-256 key for secrets at rest: 32 bytes in base64, as `openssl rand -base64 32` prints them. */
const secretsKey = z.string().regex(/^[A-Za-z0-9+/]{43}=$/, { error: "must be 32 bytes in base64 (44 characters, e.g. from `openssl rand -base64 32`)" });

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const EnvSchema = z.object({
  PORT: wholeNumber(0, 65535, "must be a whole number from 0 to 65535").default(8080),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: url(["postgres:", "postgresql:"]).optional(),
  ARCHIVE_DATABASE_URL: url(["postgres:", "postgresql:"]).optional(),
  REDIS_URL: url(["redis:", "rediss:"]).optional(),
  REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9_:-]{1,64}$/, { error: "must be 1 to 64 letters, digits, _, : or -" }).default("mds"),
  BASE_URL: url(["http:", "https:"]).optional(),
  SOURCES_FILE: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(", ")}`).default("info"),
  INGEST_TCP_PORT: ingestPort.default(5631),
  INGEST_UDP_PORT: ingestPort.default(5632),
  SANCTIONS_REFRESH: sanctionsRefresh.default(86_400_000),
  SANCTIONS_FETCH_TIMEOUT_SECONDS: wholeNumber(1, 86_400, "must be a whole number of seconds from 1 to 86400").default(300),
  SANCTIONS_SOURCES: sanctionsSources.optional(),
  SANCTIONS_STALE_DAYS: wholeNumber(1, 3650, "must be a whole number of days from 1 to 3650").default(DEFAULT_STALE_AFTER_DAYS),
  SCREENING_RETENTION: retention.default(DEFAULT_RETENTION),
  MCP_ALLOWED_HOSTS: z.string().optional(),
  MCP_ALLOWED_ORIGINS: z.string().optional(),
  SIGNUP: z.enum(["open", "closed"], { error: "must be open or closed" }).default("closed"),
  SECRETS_KEY: secretsKey.optional(),
  SECRETS_KEY_PREVIOUS: secretsKey.optional(),
  TRUST_PROXY: z
    .string()
    .refine((v) => v.split(",").every((part) => trustedProxy(part.trim())), { error: "must be a comma-separated list of proxy addresses or networks (10.0.0.0/8), or loopback, linklocal, uniquelocal" })
    .optional(),
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters (a random token; leave unset for loopback-only /metrics)").optional(),
  INGEST_IDLE_TIMEOUT_SECONDS: wholeNumber(1, 86_400, "must be a whole number of seconds from 1 to 86400").default(300),
  INGEST_TCP_MAX_CONNECTIONS: wholeNumber(1, 1_000_000, "must be a whole number from 1 to 1000000").default(5_000),
  INGEST_TCP_MAX_PER_ADDRESS: wholeNumber(1, 1_000_000, "must be a whole number from 1 to 1000000").default(50),
  INGEST_PLAIN_PORTS: portRange.default({ from: 5700, to: 5999 }),
  DIGITRAFFIC_USER: z.string().regex(/^[A-Za-z0-9._-]{1,60}\/[A-Za-z0-9._-]{1,60}$/, { error: "must be <organisation>/<application> (letters, digits, . _ -; no personal data)" }).optional(),
  FEED_SILENT_MINUTES: wholeNumber(1, 1_440, "must be a whole number of minutes from 1 to 1440").optional(),
  DERIVED_FACTS: z.enum(["on", "off"], { error: "must be on or off" }).default("on"),
  AIS_GAP_HOURS: wholeNumber(1, 72, "must be a whole number of hours from 1 to 72").default(6),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** The position archive (older than 90 days) on PostgreSQL; unset: a second SQLite file, DATA_DIR/archive.sqlite. */
  archiveDatabaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Starts every Redis key of this deployment (credits, rate limits), so deployments can share one Redis. */
  redisPrefix: string;
  /** Public base URL used in `next`, `api` and `page` links; defaults to http://HOST:PORT. */
  baseUrl: string | undefined;
  sourcesFile: string;
  logLevel: z.infer<typeof EnvSchema>["LOG_LEVEL"];
  /** Station listeners started by `serve` (AIS over TCP and signed UDP); null: off. */
  ingestTcpPort: number | null;
  ingestUdpPort: number | null;
  /** Time between fetches of the sanctions lists by `serve` (ms; default a day); null: `serve` never fetches them. */
  sanctionsRefreshMs: number | null;
  /** Deadline of one download of a sanctions publication (ms). */
  sanctionsFetchTimeoutMs: number;
  /** Days after its last successful import that a sanctions list is marked stale in answers. */
  sanctionsStaleDays: number;
  /** How long screening receipts are kept before the sweep deletes them (default 5 years). */
  screeningRetention: Retention;
  /** Per-list sources overriding the official files. */
  sanctionsSources: Partial<Record<SanctionsListKey, string[]>>;
  /** Host names /mcp answers to besides localhost, BASE_URL's and HOST's (DNS-rebinding guard); `*` turns the check off. */
  mcpAllowedHosts: string[];
  /** Browser origins (host names) allowed to call /mcp besides those hosts. */
  mcpAllowedOrigins: string[];
  /** `open`: anyone may create an account (Sandbox plan) at /signup; `serve --demo` opens it unless SIGNUP says otherwise. */
  signup: "open" | "closed";
  /** Seals stored webhook secrets (base64, 32 bytes); unset: the key file DATA_DIR/secrets.key, made on first start. */
  secretsKey: string | undefined;
  /** The key being rotated away from: only opens values sealed under it; each start re-seals them under secretsKey. */
  secretsKeyPrevious: string | undefined;
  /** Bearer token /metrics requires; unset: /metrics answers loopback clients only. */
  metricsToken: string | undefined;
  /**
   * The reverse proxies whose X-Forwarded-For is believed (addresses, networks, or loopback,
   * linklocal, uniquelocal): the client address of per-address limits is then the one they
   * forward. Unset: the address of the connection.
   */
  trustProxy: string | undefined;
  /** Station TCP connections: closed after this long without a byte from the station, at most this many in all and per source address. */
  ingestIdleTimeoutMs: number;
  ingestTcpMaxConnections: number;
  ingestTcpMaxPerAddress: number;
  /** Ports allocated to stations for plain NMEA (`stations create --plain-port`), INGEST_PLAIN_PORTS. */
  ingestPlainPorts: { from: number; to: number };
  /** The `Digitraffic-User` header of the Digitraffic feed; unset: the service's own name. */
  digitrafficUser: string | undefined;
  /** Silence before a feed's alarm, for every feed; unset: each kind's own (2 to 15 minutes). */
  feedSilentMs: number | undefined;
  /** Port calls and chokepoint transits derived from ingested positions; off: nothing is queued or derived. */
  derivedFacts: boolean;
  /** A vessel silent this long while its station hears others near it has an AIS gap. */
  aisGapMs: number;
}

/** Every problem as `NAME: rule, got "value"`; the message holds them all on one line. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(problems.join("; "));
    this.name = "ConfigError";
    this.problems = problems;
  }
}

/** Empty strings count as unset, as a shell `FOO=` usually means. */
export function parseConfig(env: Record<string, string | undefined>, projectRoot: string): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}, got ${JSON.stringify(cleaned[String(i.path[0])])}`));
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    archiveDatabaseUrl: e.ARCHIVE_DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    baseUrl: e.BASE_URL?.replace(/\/+$/, ""),
    sourcesFile: e.SOURCES_FILE ? resolve(e.SOURCES_FILE) : resolve(projectRoot, "config/sources.json"),
    logLevel: e.LOG_LEVEL,
    ingestTcpPort: e.INGEST_TCP_PORT,
    ingestUdpPort: e.INGEST_UDP_PORT,
    sanctionsRefreshMs: e.SANCTIONS_REFRESH,
    sanctionsFetchTimeoutMs: e.SANCTIONS_FETCH_TIMEOUT_SECONDS * 1000,
    sanctionsSources: e.SANCTIONS_SOURCES ?? {},
    sanctionsStaleDays: e.SANCTIONS_STALE_DAYS,
    screeningRetention: e.SCREENING_RETENTION,
    mcpAllowedHosts: commaList(e.MCP_ALLOWED_HOSTS),
    mcpAllowedOrigins: commaList(e.MCP_ALLOWED_ORIGINS),
    signup: e.SIGNUP,
    secretsKey: e.SECRETS_KEY,
    secretsKeyPrevious: e.SECRETS_KEY_PREVIOUS,
    metricsToken: e.METRICS_TOKEN,
    trustProxy: e.TRUST_PROXY,
    ingestIdleTimeoutMs: e.INGEST_IDLE_TIMEOUT_SECONDS * 1000,
    ingestTcpMaxConnections: e.INGEST_TCP_MAX_CONNECTIONS,
    ingestTcpMaxPerAddress: e.INGEST_TCP_MAX_PER_ADDRESS,
    ingestPlainPorts: e.INGEST_PLAIN_PORTS,
    digitrafficUser: e.DIGITRAFFIC_USER,
    feedSilentMs: e.FEED_SILENT_MINUTES === undefined ? undefined : e.FEED_SILENT_MINUTES * 60_000,
    derivedFacts: e.DERIVED_FACTS === "on",
    aisGapMs: e.AIS_GAP_HOURS * 3_600_000,
  };
}

function commaList(v: string | undefined): string[] {
  return (v ?? "").split(",").map((x) => x.trim()).filter((x) => x !== "");
}

/** One entry of TRUST_PROXY: an address, an address/prefix network, or a name proxy-addr knows. */
function trustedProxy(part: string): boolean {
  if (["loopback", "linklocal", "uniquelocal"].includes(part)) return true;
  const [address, prefix, ...rest] = part.split("/");
  const family = isIP(address ?? "");
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
