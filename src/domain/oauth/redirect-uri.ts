/**
 * Redirect URIs: where a code may be sent. Registration checks each URI's form; the
 * authorization request must then match one registered URI exactly, with the one exception
 * RFC 8252 7.3 asks for: a loopback URI matches on any port, because native apps (VS Code,
 * Claude Code) bind whatever port is free at the time.
 */

export type RedirectKind = "https" | "loopback" | "private-use";

export type RedirectCheck = { ok: true; kind: RedirectKind; url: URL } | { ok: false; message: string };

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);
/** Schemes that run code, read local files or carry their own content: never a redirect target. */
const FORBIDDEN_SCHEMES = new Set(["javascript:", "data:", "file:", "vbscript:", "blob:", "about:", "ftp:", "ws:", "wss:"]);
/** RFC 3986 scheme syntax; private-use schemes should be reverse domain names (cursor, com.example.app). */
const SCHEME = /^[a-z][a-z0-9+.-]*:$/;

export function checkRedirectUri(text: string): RedirectCheck {
  if (text.length > 2048) return { ok: false, message: "must be at most 2048 characters" };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: "must be an absolute URI" };
  }
  if (text.includes("#")) return { ok: false, message: "must not contain a fragment" };
  if (url.username !== "" || url.password !== "") return { ok: false, message: "must not carry a user name or password" };
  const scheme = url.protocol.toLowerCase();
  if (FORBIDDEN_SCHEMES.has(scheme)) return { ok: false, message: `must not use the ${scheme} scheme` };
  if (scheme === "https:") return { ok: true, kind: "https", url };
  if (scheme === "http:") {
    // Plain http only to this machine: anything else would send the code over the network in clear.
    if (LOOPBACK_HOSTS.has(url.hostname)) return { ok: true, kind: "loopback", url };
    return { ok: false, message: "must use https unless it points at 127.0.0.1, [::1] or localhost" };
  }
  if (!SCHEME.test(scheme)) return { ok: false, message: "must have a valid scheme" };
  // A private-use scheme (cursor://, vscode://) names an app on the user's machine; PKCE is what protects it.
  return { ok: true, kind: "private-use", url };
}

/** A URI without its port, for the loopback comparison. */
function withoutPort(url: URL): string {
  const u = new URL(url.href);
  u.port = "";
  return u.href;
}

/** The registered URI the presented one matches, or null: exact string match, any port for loopback. */
export function matchRedirectUri(registered: readonly string[], presented: string): string | null {
  if (registered.includes(presented)) return presented;
  const check = checkRedirectUri(presented);
  if (!check.ok || check.kind !== "loopback") return null;
  const wanted = withoutPort(check.url);
  for (const r of registered) {
    const c = checkRedirectUri(r);
    if (c.ok && c.kind === "loopback" && withoutPort(c.url) === wanted) return r;
  }
  return null;
}

/** What the consent page names and what the page's form-action must allow: the origin, or the scheme of a private-use URI. */
export function redirectTarget(uri: string): { display: string; formAction: string } {
  const url = new URL(uri);
  if (url.protocol === "https:" || url.protocol === "http:") return { display: url.host, formAction: url.origin };
  return { display: `${url.protocol}//${url.host}`, formAction: url.protocol };
}
