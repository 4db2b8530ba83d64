import type { Services } from "../../operations/services.ts";
import type { DatasetLog } from "../../interfaces/reference.ts";

/**
 * What the dataset importers write to: the reference and vessel stores, the clock that dates
 * a list, and the log of what was imported. Typed this narrowly so that a command which only
 * imports opens the stores without building the HTTP app, and a test can pass just the stores.
 */
export interface ImportTarget {
  datasets: DatasetLog;
  services: Pick<Services, "ports" | "flags" | "wrecks" | "vessels" | "companies" | "clock">;
}
