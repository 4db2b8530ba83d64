import { withJobLock } from "../adapters/storage/job-lock.ts";
import type { ServiceCore } from "./services.ts";

/** Hourly: far more often than the week of days made ahead needs, so a missed run or two costs nothing. */
const EVERY_MS = 3_600_000;

/**
 * Keeps a week of daily `positions` partitions ahead on PostgreSQL (nothing to do on
 * SQLite): once now, then every hour, in one process of the deployment at a time.
 * Returns the stop function.
 */
export function startPartitionUpkeep(core: ServiceCore): () => void {
  const partitions = core.tracks.partitions;
  if (!partitions) return () => {};
  const run = () =>
    void withJobLock(core.store, "position-partitions", false, () => partitions.ensure(core.services.clock.now()))
      .then((made) => {
        if (made && made.length > 0) core.log.info({ partitions: made }, "positions partitions made ahead");
      })
      .catch((err: unknown) => core.log.error({ err }, "positions partitions could not be made ahead; ingest writes to the default partition meanwhile"));
  run();
  const timer = setInterval(run, EVERY_MS).unref();
  return () => clearInterval(timer);
}
