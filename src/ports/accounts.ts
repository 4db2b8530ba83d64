import type { AccountDeal, PlanId } from "../domain/plans.ts";

export interface Account {
  id: string;
  name: string;
  webPlan: PlanId | null;
  apiPlan: PlanId | null;
  /** The operator's own allowance for this account, in place of the plans' credits and rate. */
  deal: AccountDeal;
  createdAt: number;
}

/** What authentication learns from a key: the key and the plans of its account. */
export interface KeyPrincipalRecord {
  keyId: string;
  accountId: string;
  revoked: boolean;
  webPlan: PlanId | null;
  apiPlan: PlanId | null;
  deal: AccountDeal;
}

export interface CreatedKey {
  id: string;
  /** The key itself: shown once, never stored. */
  key: string;
  start: string;
  accountId: string;
}

export interface KeyListing {
  id: string;
  start: string;
  name: string | null;
  createdAt: number;
  revokedAt: number | null;
  /** Recorded to the minute (domain/last-use.ts), for the keys page. */
  lastUsedAt: number | null;
}

export interface AccountStore {
  createAccount(input: { name: string; webPlan: PlanId | null; apiPlan: PlanId | null }): Promise<Account>;
  getAccount(id: string): Promise<Account | null>;
  findAccountByName(name: string): Promise<Account | null>;
  setPlan(accountId: string, slot: "web" | "api", plan: PlanId | null): Promise<void>;
  /** Sets the account's own allowance; a null field goes back to what the plans give. False: no such account. */
  setDeal(accountId: string, deal: AccountDeal): Promise<boolean>;
  createKey(accountId: string, name?: string): Promise<CreatedKey>;
  listKeys(accountId: string): Promise<KeyListing[]>;
  /** Looks a key up by the SHA-256 of its text. */
  findKeyByHash(hash: string): Promise<KeyPrincipalRecord | null>;
  revokeKey(keyId: string): Promise<boolean>;
  /** Notes when a key last authenticated a call. */
  recordKeyUse(keyId: string, at: number): Promise<void>;
}

export type ChargeResult = { ok: true; used: number } | { ok: false; used: number };

/**
 * Monthly credits, counted per account (all keys of an account draw on one allowance)
 * with a per-key tally for reporting.
 */
export interface CreditLedger {
  /** Adds `cost` to the period's usage only if the total stays within `limit`; atomic under any concurrency. */
  charge(accountId: string, keyId: string, period: string, cost: number, limit: number): Promise<ChargeResult>;
  /** Gives back a reservation whose call failed. */
  refund(accountId: string, keyId: string, period: string, cost: number): Promise<void>;
  usage(accountId: string, keyId: string, period: string): Promise<{ used: number; keyCalls: number; keyCredits: number }>;
  /** For operators and tests: set the period's usage outright. */
  setUsed(accountId: string, period: string, used: number): Promise<void>;
  /** Adds to a key's reporting tally (buffered by implementations that buffer). */
  tally?(keyId: string, period: string, calls: number, credits: number): void;
  /** Writes whatever is buffered. */
  flush?(): Promise<void>;
  close?(): Promise<void>;
}

export interface Station {
  id: number;
  accountId: string;
  name: string;
  shared: boolean;
  createdAt: number;
}

export interface StationStore {
  createStation(accountId: string, name: string): Promise<{ station: Station; secret: string }>;
  listStations(accountId: string): Promise<Station[]>;
}
