import { SingleBar } from "cli-progress";
import type { ReadSourcesOptions } from "../adapters/importers/sanctions/source.ts";

const MB = 1_048_576;

/**
 * A bar per downloaded file on a terminal (stderr), nothing elsewhere. The size is shown in
 * MB; a server that announces no size gets a counter instead of a percentage.
 */
export function downloadBars(enabled: boolean, list: string): ReadSourcesOptions["progressFor"] {
  if (!enabled) return undefined;
  return (name) => {
    let bar: SingleBar | null = null;
    return (received, total) => {
      if (bar === null) {
        const format = total === null ? `sanctions ${list} ${name} {value} MB` : `sanctions ${list} ${name} [{bar}] {percentage}% {value}/{total} MB`;
        bar = new SingleBar({ format, stream: process.stderr, hideCursor: true, formatValue: (v) => (v / MB).toFixed(1) });
        bar.start(total ?? 0, 0);
      }
      bar.update(received);
      if (total !== null && received >= total) bar.stop();
    };
  };
}
