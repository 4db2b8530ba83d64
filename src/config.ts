import { resolve } from "node:path";
import { z } from "zod";

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

const EnvSchema = z.object({
  PORT: z.coerce.number().int("must be a whole number").min(0).max(65535, "must be 0..65535").default(8080),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: url(["postgres:", "postgresql:"]).optional(),
  REDIS_URL: url(["redis:", "rediss:"]).optional(),
  BASE_URL: url(["http:", "https:"]).optional(),
  SOURCES_FILE: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Public base URL used in `next`, `api` and `page` links; defaults to http://HOST:PORT. */
  baseUrl: string | undefined;
  sourcesFile: string;
  logLevel: z.infer<typeof EnvSchema>["LOG_LEVEL"];
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
    this.problems = problems;
  }
}

/** Empty strings count as unset, as a shell `FOO=` usually means. */
export function parseConfig(env: Record<string, string | undefined>, projectRoot: string): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message} (got ${JSON.stringify(cleaned[String(i.path[0])])})`));
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    baseUrl: e.BASE_URL?.replace(/\/+$/, ""),
    sourcesFile: e.SOURCES_FILE ? resolve(e.SOURCES_FILE) : resolve(projectRoot, "config/sources.json"),
    logLevel: e.LOG_LEVEL,
  };
}
