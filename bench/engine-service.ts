import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseConfig } from "../src/config.ts";
import { createService, PROJECT_ROOT, type Service } from "../src/main.ts";
import { scratchDatabase } from "./scratch-database.ts";

/** The engines a benchmark runs on: SQLite always, PostgreSQL too when DATABASE_URL is set. */
export const BENCH_ENGINES: readonly ("sqlite" | "postgres")[] = process.env.DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];

/**
 * Runs `fn` on a fresh service of the engine (a temporary data folder; on PostgreSQL a
 * scratch database beside DATABASE_URL), then closes it and removes both.
 */
export async function withEngineService<T>(engine: "sqlite" | "postgres", fn: (service: Service) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), "mds-bench-"));
  const env: Record<string, string | undefined> = { ...process.env, LOG_LEVEL: "silent", DATA_DIR: dataDir };
  if (engine === "sqlite") delete env.DATABASE_URL;
  const scratch = engine === "postgres" ? await scratchDatabase(process.env.DATABASE_URL!) : null;
  if (scratch) env.DATABASE_URL = scratch.url;
  const service = await createService(parseConfig(env, PROJECT_ROOT));
  try {
    return await fn(service);
  } finally {
    await service.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
