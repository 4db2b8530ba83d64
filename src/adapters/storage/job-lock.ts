import type { Store } from "./database.ts";

/**
 * Runs a job in one process of a deployment at a time. On PostgreSQL a session advisory
 * lock named after the job, held on a connection of its own: a process that dies drops
 * its connection and with it the lock, so no lease is left to expire. On SQLite one
 * process serves the file, so the job simply runs.
 *
 * `wait`: true waits for the lock (the bundled import: whoever comes second finds the data
 * in); false skips the run when another process holds it (periodic upkeep: the holder is
 * doing it already) and resolves to null.
 */
export async function withJobLock<T>(store: Pick<Store, "pgPool">, job: string, wait: boolean, run: () => Promise<T>): Promise<T | null> {
  const pool = store.pgPool;
  if (!pool) return run();
  const client = await pool.connect();
  try {
    if (wait) {
      await client.query("SELECT pg_advisory_lock(hashtext($1))", [`mds:${job}`]);
    } else {
      const r = await client.query<{ got: boolean }>("SELECT pg_try_advisory_lock(hashtext($1)) AS got", [`mds:${job}`]);
      if (!r.rows[0]?.got) return null;
    }
    try {
      return await run();
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext($1))", [`mds:${job}`]).catch(() => undefined);
    }
  } finally {
    client.release();
  }
}
