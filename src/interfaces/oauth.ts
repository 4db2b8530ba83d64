import type { ClientMetadata } from "../domain/oauth/client-metadata.ts";

/**
 * What the OAuth authorization server keeps: clients (registered or fetched), grants (one
 * per account, user and client: the "connected apps"), codes and tokens. Codes and tokens
 * are stored only as SHA-256 hashes of their text.
 */

export interface StoredClient {
  clientId: string;
  kind: "dcr" | "cimd";
  metadata: ClientMetadata;
  fetchedAt: number;
  /** When a fetched document must be fetched again; null for registered clients. */
  expiresAt: number | null;
}

export interface CodeRow {
  hash: string;
  grantId: string;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  /** The token family the code's tokens will belong to, so a replayed code can revoke them. */
  familyId: string;
  expiresAt: number;
}

export interface CodeLookup extends CodeRow {
  usedAt: number | null;
  clientId: string;
  scopes: string[];
  grantRevoked: boolean;
}

export interface TokenRow {
  hash: string;
  grantId: string;
  kind: "access" | "refresh";
  familyId: string;
  resource: string;
  expiresAt: number;
}

export interface TokenLookup extends TokenRow {
  revokedAt: number | null;
  usedAt: number | null;
  clientId: string;
  accountId: string;
  userId: string;
  scopes: string[];
  grantRevoked: boolean;
  grantLastUsedAt: number | null;
}

export interface GrantListing {
  id: string;
  clientId: string;
  clientKind: "dcr" | "cimd" | null;
  clientMetadata: ClientMetadata | null;
  redirectUri: string;
  scopes: string[];
  createdAt: number;
  lastUsedAt: number | null;
}

export interface OAuthStore {
  getClient(clientId: string): Promise<StoredClient | null>;
  /** Inserts or replaces (a re-fetched document replaces the cached one). */
  saveClient(client: StoredClient): Promise<void>;
  /** The live grant of this account, user and client, with its scopes set to these; or a new one. */
  upsertGrant(input: { accountId: string; userId: string; clientId: string; redirectUri: string; scopes: string[]; now: number }): Promise<string>;
  createCode(code: CodeRow): Promise<void>;
  findCode(hash: string): Promise<CodeLookup | null>;
  /** Marks the code used and stores the tokens, atomically; false (and nothing stored) when it was used already. */
  redeemCode(hash: string, now: number, tokens: TokenRow[]): Promise<boolean>;
  findToken(hash: string): Promise<TokenLookup | null>;
  /** Marks the refresh token used and stores its successors, atomically; false when it was used already. */
  rotateRefreshToken(hash: string, now: number, tokens: TokenRow[]): Promise<boolean>;
  revokeFamily(familyId: string, now: number): Promise<void>;
  revokeToken(hash: string, now: number): Promise<void>;
  touchGrant(grantId: string, now: number): Promise<void>;
  listGrants(accountId: string): Promise<GrantListing[]>;
  /** Revokes the grant and every token of it; false when the account has no such live grant. */
  revokeGrant(accountId: string, grantId: string, now: number): Promise<boolean>;
}
