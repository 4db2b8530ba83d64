/** Runs `stop` on the first SIGINT or SIGTERM, then ends the process: `serve` and `simulate` run until told to stop. */
export function untilSignal(stop: () => Promise<void>): void {
  const onSignal = () => {
    stop().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`mds: stopping failed: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
}
