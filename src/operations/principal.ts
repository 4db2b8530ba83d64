import type { Entitlements } from "../domain/plans.ts";

/** What every caller has, however it was authenticated. */
interface PrincipalBase {
  entitlements: Entitlements;
  clientAddress: string;
  /**
   * What the rate limit is counted on: `key:<id>` for a key, `ip:<address>` without one. A new
   * credential kind names its own (an OAuth grant would be `grant:<id>`), so the pipeline never
   * needs to know which kind it holds.
   */
  subject: string;
}

/** A caller with an API key: billed to the key's account, usage tallied per key. */
export interface KeyPrincipal extends PrincipalBase {
  kind: "key";
  keyId: string;
  accountId: string;
}

/** A call without credentials, to an operation whose auth is optional. */
export interface AnonymousPrincipal extends PrincipalBase {
  kind: "anonymous";
}

/**
 * An MCP client the account's user connected through OAuth: it acts as the account, with the
 * account's credits, rate limit, plan gates and rights; its usage is tallied per grant.
 */
export interface OAuthPrincipal extends PrincipalBase {
  kind: "oauth";
  grantId: string;
  accountId: string;
}

/**
 * A person signed in to the service's pages: acts as their account, with its plans, rights
 * and credits; its usage is tallied as `web:<user>`, apart from the account's keys.
 */
export interface SessionPrincipal extends PrincipalBase {
  kind: "session";
  userId: string;
  accountId: string;
}

/**
 * The operator at the command line, acting on an account's behalf (`mds webhooks create
 * --account ...`): the account's plans and rights; its usage is tallied as `cli`.
 */
export interface OperatorPrincipal extends PrincipalBase {
  kind: "operator";
  accountId: string;
}

/** Who calls, by how they authenticated. */
export type Principal = KeyPrincipal | OAuthPrincipal | SessionPrincipal | OperatorPrincipal | AnonymousPrincipal;

/** Where a call's credits are charged: the account, and the credential its usage is tallied under. */
export interface Billing {
  accountId: string;
  credentialId: string;
}

/** Null for callers that are not billed (no credentials: the free anonymous budget only). */
export function billingOf(principal: Principal): Billing | null {
  switch (principal.kind) {
    case "key":
      return { accountId: principal.accountId, credentialId: principal.keyId };
    case "oauth":
      return { accountId: principal.accountId, credentialId: `grant:${principal.grantId}` };
    case "session":
      return { accountId: principal.accountId, credentialId: `web:${principal.userId}` };
    case "operator":
      return { accountId: principal.accountId, credentialId: "cli" };
    case "anonymous":
      return null;
  }
}

/** The account the caller acts for, or null without one. */
export function accountIdOf(principal: Principal): string | null {
  return principal.kind === "anonymous" ? null : principal.accountId;
}
