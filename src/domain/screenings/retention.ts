/**
 * How long screening receipts are kept (SCREENING_RETENTION). Years are calendar years, not
 * 365-day blocks, so "5y" keeps a receipt for five years to the day, leap days included.
 */
export interface Retention {
  count: number;
  unit: "days" | "years";
}

export const DEFAULT_RETENTION: Retention = { count: 5, unit: "years" };

/** Receipts screened before this instant have outlived the retention and may be swept. */
export function retentionCutoff(now: number, retention: Retention): number {
  if (retention.unit === "days") return now - retention.count * 86_400_000;
  const d = new Date(now);
  d.setUTCFullYear(d.getUTCFullYear() - retention.count);
  return d.getTime();
}
