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

import type { Source } from "../domain/rights/source.ts";

export interface Station {
  id: number;
  accountId: string;
  name: string;
  /** Public: everyone may see its data, under its own source (`station:<id>`). */
  shared: boolean;
  /** What the owner grants others when shared (API use comes with sharing). */
  grants: { redistribution: boolean; commercial: boolean };
  /** The name its source goes by when shared; the station's name when null. */
  sourceName: string | null;
  /** Its own port for plain NMEA over UDP and TCP, or null. */
  plainPort: number | null;
  /** CIDRs plain NMEA is accepted from (canonical text); null: any address. */
  allowFrom: string[] | null;
  /** `host:port` of the receiver's TCP server the service reads from, or null. */
  connect: string | null;
  createdAt: number;
}

/** Settings given on create or update; an absent field is left as it is (null clears). */
export interface StationSettings {
  shared?: boolean;
  redistribution?: boolean;
  commercial?: boolean;
  sourceName?: string | null;
  /** true: allocate a plain port (keeps one already allocated); false: release it. */
  plainPort?: boolean;
  allowFrom?: string[] | null;
  connect?: string | null;
}

/** Every plain port of the configured range is taken. */
export class NoFreePlainPortError extends Error {
  readonly from: number;
  readonly to: number;
  constructor(from: number, to: number) {
    super(`every plain NMEA port from ${from} to ${to} is taken; widen INGEST_PLAIN_PORTS`);
    this.name = "NoFreePlainPortError";
    this.from = from;
    this.to = to;
  }
}

export interface StationStore {
  createStation(accountId: string, name: string, settings?: StationSettings): Promise<{ station: Station; secret: string }>;
  updateStation(id: number, settings: StationSettings): Promise<Station | null>;
  /** A new secret (and UDP signing key) for the station; the old one stops working. Null when there is no such station. */
  rotateSecret(stationId: number): Promise<{ station: Station; secret: string } | null>;
  /** Deletes a station for its owner: it accepts nothing more and leaves their list; what it delivered stays. False when there is no such station (or it is deleted already). */
  deleteStation(stationId: number): Promise<boolean>;
  /** A station in use (a deleted one is not found). */
  getStation(id: number): Promise<Station | null>;
  listStations(accountId: string): Promise<Station[]>;
  /** Every shared station (the public sources among stations). */
  sharedStations(): Promise<Station[]>;
  /**
   * Every shared station as a source (`station:<id>`, its name, attribution, licence and the
   * permissions its owner grants), for listings such as `GET /api/v1/sources`. The owner's
   * account is left out: it is the rights engine's business, not the public's.
   */
  sharedSources(): Promise<Source[]>;
  /** Every station with a plain port or a connect-out target: what `serve` listens on and dials. */
  receiverStations(): Promise<Station[]>;
}
