import { randomBytes } from "node:crypto";
import pg from "pg";

/**
 * A fresh PostgreSQL database beside the one `admin` names, for one benchmark run; `drop`
 * removes it (connections still open are closed by force).
 */
export async function scratchDatabase(admin: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `mds_bench_${randomBytes(6).toString("hex")}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * The real service (createService, no bundled data) on a store of its own: a fresh data
 * directory, and a scratch PostgreSQL database when `admin` is given. `close` removes both.
 */
export async function scratchService(admin: string | undefined, label: string, extraEnv: Record<string, string> = {}) {
  const [{ mkdtempSync, rmSync }, { tmpdir }, { join }, { parseConfig }, { createService, PROJECT_ROOT }] = await Promise.all([
    import("node:fs"),
    import("node:os"),
    import("node:path"),
    import("../src/config.ts"),
    import("../src/main.ts"),
  ]);
  const dataDir = mkdtempSync(join(tmpdir(), `mds-bench-${label}-`));
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: "silent", ...extraEnv };
  const scratch = admin ? await scratchDatabase(admin) : null;
  if (scratch) env.DATABASE_URL = scratch.url;
  const service = await createService(parseConfig(env, PROJECT_ROOT));
  return {
    service,
    async close() {
      await service.close();
      if (scratch) await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
