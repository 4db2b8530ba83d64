/**
 * Scopes: `mcp` (call the tools as the account) and `offline_access` (a refresh token).
 * Clients reconnecting without `scope` (ChatGPT does) get the full set, so a missing scope
 * never costs the user a second consent.
 */
export const SCOPES = ["mcp", "offline_access"] as const;
export type Scope = (typeof SCOPES)[number];

/** What the protected resource advertises: the MCP spec asks resources to leave offline_access out. */
export const RESOURCE_SCOPES: readonly Scope[] = ["mcp"];

const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);

export type ScopeCheck = { ok: true; scopes: Scope[] } | { ok: false; message: string };

export function parseScope(text: string | undefined): ScopeCheck {
  const parts = (text ?? "").split(" ").filter((s) => s !== "");
  if (parts.length === 0) return { ok: true, scopes: [...SCOPES] };
  const unknown = parts.filter((s) => !isScope(s));
  if (unknown.length > 0) return { ok: false, message: `unknown scope ${unknown.join(", ")}; this server offers ${SCOPES.join(", ")}` };
  const scopes = SCOPES.filter((s) => parts.includes(s));
  // A token that cannot call the tools is of no use to an MCP client.
  if (!scopes.includes("mcp")) scopes.unshift("mcp");
  return { ok: true, scopes };
}

export function scopeText(scopes: readonly string[]): string {
  return scopes.join(" ");
}
