/**
 * "Last used" of a credential (an API key, an OAuth grant) is written at most this often:
 * the account pages show it to the minute, and a busy credential then costs one write a
 * minute instead of one per call.
 */
export const LAST_USE_RESOLUTION_MS = 60_000;

/** Whether a use at `now` should be written, given when the last write was (null or undefined: never). */
export function lastUseDue(lastWritten: number | null | undefined, now: number): boolean {
  return lastWritten === null || lastWritten === undefined || now - lastWritten >= LAST_USE_RESOLUTION_MS;
}
