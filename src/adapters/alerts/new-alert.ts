import { alertEventBody, type AlertContent, type PayloadContext } from "../../domain/alerts/payload.ts";
import { entitlements } from "../../domain/plans.ts";
import type { AccountStore } from "../../interfaces/accounts.ts";
import type { NewAlert } from "../../interfaces/webhooks.ts";

/** An alert's content, but for the ids and time the store gives it when it records it (and the type and time it has already). */
export type AlertFacts = Omit<AlertContent, "alertId" | "eventId" | "created" | "type" | "occurredAt">;

/** An alert to record: its log columns, and its event body, built once the store has given it its ids. */
export function newAlert(alert: Omit<NewAlert, "body">, facts: AlertFacts, ctx: PayloadContext): NewAlert {
  const { type, occurredAt } = alert;
  return {
    ...alert,
    body: ({ alertId, eventId, created }) => alertEventBody({ alertId, eventId, type, created, occurredAt, ...facts }, ctx),
  };
}

/** Whether the account's plans allow commercial use (the content rules decide with it); false for an account gone. */
export async function commercialUse(accounts: AccountStore, accountId: string): Promise<boolean> {
  const account = await accounts.getAccount(accountId);
  return account ? entitlements(account.webPlan, account.apiPlan).commercialUse : false;
}
