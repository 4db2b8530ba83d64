/**
 * How often one client address may call the open OAuth endpoints, in a sliding window.
 * `/register` creates a row for anyone who asks, and `/authorize` may fetch a client's
 * metadata document over the network, so neither may be called without bound. The limits sit
 * far above what people connecting applications do (an MCP client registers once per
 * connection; connecting takes two or three `/authorize` requests), and an address may be an
 * office behind one NAT.
 */
export const REGISTER_MAX_PER_ADDRESS = 20;
export const REGISTER_WINDOW_MS = 60 * 60_000;
export const AUTHORIZE_MAX_PER_ADDRESS = 60;
export const AUTHORIZE_WINDOW_MS = 10 * 60_000;

/** The subjects the calls are counted under, beside the sign-in throttle's. */
export const registerSubject = (address: string) => `oauth-register:ip:${address}`;
export const authorizeSubject = (address: string) => `oauth-authorize:ip:${address}`;

/** "12 minutes" or "40 seconds": when to try again, for a person. */
export function waitText(ms: number): string {
  if (ms >= 60_000) {
    const minutes = Math.ceil(ms / 60_000);
    return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  }
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return `${seconds} second${seconds === 1 ? "" : "s"}`;
}
