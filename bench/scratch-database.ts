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
