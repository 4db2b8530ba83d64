import { checkRedirectUri } from "./redirect-uri.ts";

/**
 * Client metadata (RFC 7591 2) as this server accepts it, whether a client registered
 * itself (DCR) or publishes a Client ID Metadata Document (CIMD). Only public clients:
 * `token_endpoint_auth_method` is `none` and PKCE stands in for a secret.
 */

export type GrantType = "authorization_code" | "refresh_token";

export interface ClientMetadata {
  redirect_uris: string[];
  client_name?: string;
  client_uri?: string;
  logo_uri?: string;
  grant_types: GrantType[];
  response_types: ["code"];
  token_endpoint_auth_method: "none";
  scope?: string;
  software_id?: string;
  software_version?: string;
  application_type?: "web" | "native";
}

/** RFC 7591 3.2.2 error codes. */
export type MetadataError = { error: "invalid_redirect_uri" | "invalid_client_metadata"; error_description: string };
export type MetadataCheck = { ok: true; metadata: ClientMetadata } | ({ ok: false } & MetadataError);

const GRANT_TYPES: readonly string[] = ["authorization_code", "refresh_token"];
const MAX_REDIRECT_URIS = 20;
const MAX_TEXT = 200;

function invalid(description: string): MetadataCheck {
  return { ok: false, error: "invalid_client_metadata", error_description: description };
}

function optionalText(input: Record<string, unknown>, field: string): string | undefined | Error {
  const v = input[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" || v.length > MAX_TEXT * 10) return new Error(`${field} must be a string of at most ${MAX_TEXT * 10} characters`);
  return v;
}

function optionalHttpsUrl(input: Record<string, unknown>, field: string): string | undefined | Error {
  const v = optionalText(input, field);
  if (v === undefined || v instanceof Error) return v;
  try {
    if (new URL(v).protocol === "https:") return v;
  } catch {
    // fall through to the error
  }
  return new Error(`${field} must be an https URL`);
}

/**
 * `kind` "dcr": a self-registration; an auth method other than none is replaced by none (RFC 7591 allows
 * the server to substitute, and answers with what it registered). `kind` "cimd": a published document,
 * which must ask for none itself, since nothing is answered to its author.
 */
export function validateClientMetadata(input: unknown, kind: "dcr" | "cimd"): MetadataCheck {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return invalid("the metadata must be a JSON object");
  const m = input as Record<string, unknown>;

  const uris = m.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0) return { ok: false, error: "invalid_redirect_uri", error_description: "redirect_uris must be a non-empty array of URIs" };
  if (uris.length > MAX_REDIRECT_URIS) return { ok: false, error: "invalid_redirect_uri", error_description: `redirect_uris may hold at most ${MAX_REDIRECT_URIS} URIs` };
  for (const u of uris) {
    if (typeof u !== "string") return { ok: false, error: "invalid_redirect_uri", error_description: "redirect_uris must hold strings" };
    const c = checkRedirectUri(u);
    if (!c.ok) return { ok: false, error: "invalid_redirect_uri", error_description: `redirect URI ${JSON.stringify(u.slice(0, 100))} ${c.message}` };
  }

  const method = m.token_endpoint_auth_method ?? "none";
  if (method !== "none" && (kind === "cimd" || typeof method !== "string")) {
    return invalid(`token_endpoint_auth_method must be none (this server has public clients with PKCE only), not ${JSON.stringify(method)}`);
  }
  if (kind === "cimd" && (m.client_secret !== undefined || m.client_secret_expires_at !== undefined)) return invalid("a client metadata document must not carry a client_secret");

  const grants = m.grant_types ?? ["authorization_code"];
  if (!Array.isArray(grants) || grants.length === 0 || grants.some((g) => typeof g !== "string" || !GRANT_TYPES.includes(g))) {
    return invalid(`grant_types must be a non-empty subset of ${GRANT_TYPES.join(", ")}`);
  }
  if (!grants.includes("authorization_code")) return invalid("grant_types must include authorization_code");
  const responses = m.response_types ?? ["code"];
  if (!Array.isArray(responses) || responses.length !== 1 || responses[0] !== "code") return invalid('response_types must be ["code"]');

  const appType = m.application_type;
  if (appType !== undefined && appType !== "web" && appType !== "native") return invalid("application_type must be web or native");

  const texts: Record<string, string | undefined> = {};
  for (const field of ["client_name", "scope", "software_id", "software_version"]) {
    const v = optionalText(m, field);
    if (v instanceof Error) return invalid(v.message);
    texts[field] = v;
  }
  if (texts.client_name !== undefined && texts.client_name.length > MAX_TEXT) return invalid(`client_name must be at most ${MAX_TEXT} characters`);
  for (const field of ["client_uri", "logo_uri"]) {
    const v = optionalHttpsUrl(m, field);
    if (v instanceof Error) return invalid(v.message);
    texts[field] = v;
  }

  const metadata: ClientMetadata = {
    redirect_uris: uris as string[],
    grant_types: [...new Set(grants as GrantType[])],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
  for (const [k, v] of Object.entries(texts)) if (v !== undefined) (metadata as unknown as Record<string, string>)[k] = v;
  if (appType !== undefined) metadata.application_type = appType;
  return { ok: true, metadata };
}

/**
 * A client_id that is a metadata document URL (CIMD draft 3): https, a path beyond "/", no
 * fragment, no user info, and already in normal form (so dot segments cannot hide a second name).
 */
export function checkClientIdUrl(text: string): { ok: true; url: URL } | { ok: false; message: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: "must be an absolute https URL" };
  }
  if (url.protocol !== "https:") return { ok: false, message: "must use https" };
  if (url.pathname === "/" || url.pathname === "") return { ok: false, message: "must have a path" };
  if (text.includes("#")) return { ok: false, message: "must not contain a fragment" };
  if (url.username !== "" || url.password !== "") return { ok: false, message: "must not carry a user name or password" };
  if (url.href !== text) return { ok: false, message: "must be in normal form (no dot segments, lower-case scheme and host)" };
  return { ok: true, url };
}

export function isClientIdUrl(clientId: string): boolean {
  return clientId.startsWith("https://");
}
