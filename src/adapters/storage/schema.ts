import type { Generated } from "kysely";

/**
 * The tables of the main store, the same on SQLite and PostgreSQL. Times are integer
 * epoch milliseconds so queries stay portable; JSON values are stored as text.
 */
export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  credit_usage: CreditUsageTable;
  key_usage: KeyUsageTable;
  stations: StationsTable;
  ports: PortsTable;
  flags: FlagsTable;
  datasets: DatasetsTable;
}

export interface AccountsTable {
  id: string;
  name: string;
  web_plan: string | null;
  api_plan: string | null;
  created_at: number;
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
}

/** One row per account and calendar month (UTC): the credits that month has used. */
export interface CreditUsageTable {
  account_id: string;
  period: string;
  used: number;
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
  shared: number;
  created_at: number;
}

export interface PortsTable {
  unlocode: string;
  country: string;
  location: string;
  name: string;
  name_ascii: string;
  subdivision: string | null;
  subdivision_name: string | null;
  functions: string;
  function_names: string;
  status: string | null;
  iata: string | null;
  changed: string | null;
  edition: string;
  lat: number | null;
  lon: number | null;
  coord_source: string | null;
  wpi: string | null;
  /** Alternate names, remarks, caveats of the row, as JSON. */
  details: string;
}

export interface FlagsTable {
  iso2: string;
  name: string;
  record: string;
}

/** What each bundled or imported dataset holds, so a first start knows what to import. */
export interface DatasetsTable {
  id: string;
  rows: number;
  origin: string;
  imported_at: number;
}
