/**
 * Attempts counted per subject (`login:ip:203.0.113.9`, `register:ip:...`) in a sliding
 * window: the sign-in throttle and the OAuth endpoints' per-address limits. Shared by every
 * process through Redis when there is one, kept in the process otherwise. Time is the
 * caller's `now` (the service clock), so a test clock moves the windows.
 */
export interface AttemptWindows {
  /** Milliseconds until the subject has fewer than `max` attempts in the last `windowMs`, or 0. */
  wait(subject: string, max: number, windowMs: number, now: number): Promise<number>;
  /** Counts one attempt. */
  add(subject: string, windowMs: number, now: number): Promise<void>;
  /** Counts one attempt if fewer than `max` are in the window, in one step: 0 when counted, else the wait (nothing counted). */
  take(subject: string, max: number, windowMs: number, now: number): Promise<number>;
  /** Forgets the subject's attempts. */
  clear(subject: string): Promise<void>;
  close(): Promise<void>;
}
