import { isIP } from "node:net";
import { type AddressPolicy, isAllowedAddress } from "./address-policy.ts";

/**
 * What an endpoint URL must look like (spec 6.4), checked on the WHATWG-normalised URL,
 * never on the raw text: `new URL()` turns `2130706433`, `0x7f.1`, `127.1` and `①②⑦.0.0.1`
 * into `127.0.0.1`, so the address check sees what the socket would.
 *
 * This runs when an endpoint is saved (so users learn early) and again before every
 * attempt; the address check that matters for names happens at connect time (http-client).
 */

export const MAX_URL_LENGTH = 2048;

export type UrlProblem = "malformed" | "scheme" | "port" | "userinfo" | "blocked_address" | "too_long" | "blocked_name";

export type TargetCheck = { ok: true; url: URL; host: string; literal: boolean } | { ok: false; problem: UrlProblem; message: string };

const PROBLEM_TEXT: Record<UrlProblem, string> = {
  malformed: "must be an absolute URL",
  scheme: "must use https",
  port: "must use port 443 or 8443",
  userinfo: "must not carry a user name or password",
  blocked_address: "must not point at a private, loopback, link-local or otherwise non-public address",
  too_long: `must be at most ${MAX_URL_LENGTH} characters`,
  blocked_name: "must not name a local host",
};

export function urlProblemText(p: UrlProblem): string {
  return PROBLEM_TEXT[p];
}

function fail(problem: UrlProblem): TargetCheck {
  return { ok: false, problem, message: PROBLEM_TEXT[problem] };
}

export function checkTargetUrl(text: string, policy: AddressPolicy): TargetCheck {
  if (text.length > MAX_URL_LENGTH) return fail("too_long");
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail("malformed");
  }
  if (url.protocol !== "https:") return fail("scheme");
  // An empty port is the scheme's default (443); WHATWG already turned ":0443" into "443" -> "".
  const port = url.port === "" ? 443 : Number(url.port);
  if (!policy.ports.includes(port)) return fail("port");
  if (url.username !== "" || url.password !== "") return fail("userinfo");
  // Fragments never go on the wire; drop them so the stored URL is what is used.
  url.hash = "";
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const literal = isIP(host) !== 0;
  if (literal) {
    if (!isAllowedAddress(host, policy)) return fail("blocked_address");
  } else {
    const name = host.toLowerCase().replace(/\.$/, "");
    if (name === "localhost" || name.endsWith(".localhost") || !name.includes(".")) return fail("blocked_name");
  }
  return { ok: true, url, host, literal };
}
