import type { ColumnType, Generated } from "kysely";

/** Accounts, API keys and their usage, stations, and the people and OAuth clients that sign in (migrations 0001, 0007, 0008). */

export interface AccountsTable {
  id: string;
  name: string;
  web_plan: string | null;
  api_plan: string | null;
  created_at: number;
  /** `mds accounts set` (migration 0020): the account's own monthly credits and rate in place of its plans', null: its plans'. */
  monthly_credits: number | null;
  rate_per_second: number | null;
  /** `mds accounts set --monthly-credits` (migration 0022): credits on top of the above, null: none. */
  extra_monthly_credits: number | null;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  /** SHA-256 hex of the whole key; the key itself is never stored. */
  hash: string;
  /** The first characters of the key, shown in listings so a user can tell keys apart. */
  start: string;
  name: string | null;
  created_at: number;
  revoked_at: number | null;
  /** When the key last authenticated a call, to the minute (written at most once a minute per key). */
  last_used_at: ColumnType<number | null, number | null | undefined, number | null>;
}

/** One row per account and calendar month (UTC): the credits that month has used. */
export interface CreditUsageTable {
  account_id: string;
  period: string;
  used: number;
}

/** A batch of credit increments applied from Redis's write-behind, by the token it was taken under. */
export interface CreditBatchesTable {
  token: string;
  applied_at: number;
}

/** Per-key tallies for reporting; the account row above is what limits. */
export interface KeyUsageTable {
  key_id: string;
  period: string;
  calls: number;
  credits: number;
}

export interface StationsTable {
  id: Generated<number>;
  account_id: string;
  name: string;
  secret_hash: string;
  /** UDP signing key, sealed (migration 0018); null for stations from before it until their secret is rotated. */
  udp_key: string | null;
  shared: number;
  created_at: number;
  /** Migration 0017: what the owner grants others when shared, and receiver settings. */
  share_redistribution: Generated<number>;
  share_commercial: Generated<number>;
  source_name: string | null;
  plain_port: number | null;
  allow_from: string | null;
  connect_to: string | null;
  /** Migration 0030: when its owner deleted it; null while it is in use. */
  deleted_at: ColumnType<number | null, number | null | undefined, number | null>;
}

/** People who sign in to the web pages; `email` is stored normalised (lower-case), so unique is case-insensitive. */
export interface UsersTable {
  id: string;
  account_id: string;
  email: string;
  /** PHC string: `$argon2id$v=19$m=...,t=...,p=...$salt$hash`. */
  password_hash: string;
  created_at: number;
  updated_at: number;
}

/** Server-side sessions, keyed by the SHA-256 of the cookie value. */
export interface SessionsTable {
  id_hash: string;
  user_id: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  ip: string | null;
  user_agent: string | null;
}

/** OAuth clients: a self-registration (dcr) or a fetched metadata document (cimd, cached until expires_at). */
export interface OAuthClientsTable {
  client_id: string;
  kind: string;
  metadata_json: string;
  fetched_at: number;
  expires_at: number | null;
}

/** One per account, user and client: a "connected app". Scopes space-separated. */
export interface OAuthGrantsTable {
  id: string;
  account_id: string;
  user_id: string;
  client_id: string;
  redirect_uri: string;
  scopes: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** Authorization codes by SHA-256 hex; single use. */
export interface OAuthCodesTable {
  hash: string;
  grant_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  family_id: string;
  expires_at: number;
  used_at: number | null;
}

/** Access and refresh tokens by SHA-256 hex; a family is one code's chain of rotations. */
export interface OAuthTokensTable {
  hash: string;
  grant_id: string;
  kind: string;
  family_id: string;
  resource: string;
  expires_at: number;
  revoked_at: number | null;
  used_at: number | null;
}
