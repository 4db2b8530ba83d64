/**
 * Failed sign-ins counted per client address (30) and per e-mail (10) in a sliding window of 15 minutes: past the
 * limit, sign-in is refused (429) until the oldest failure in the window ages out, without
 * checking the password, so an attacker can neither guess on nor queue costly hashes. A
 * success clears the e-mail's count. Counted through Redis when the deployment has one, so
 * every API process sees the same failures; in the process otherwise (one process is then
 * the whole deployment).
 */
export const LOGIN_MAX_FAILURES = 10;
/** An address may hold several people (an office behind one NAT), so it gets more room than one e-mail. */
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 30;
export const LOGIN_WINDOW_MS = 15 * 60_000;

/** The subjects a sign-in attempt is counted under: its address and the e-mail it names. */
export function loginSubjects(address: string, email: string): { address: string; email: string } {
  return { address: `login:ip:${address}`, email: `login:email:${email}` };
}
