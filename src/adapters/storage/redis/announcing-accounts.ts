import type { AccountStore } from "../../../interfaces/accounts.ts";
import type { KeyRevocations } from "./key-revocations.ts";

/**
 * The account store with one addition: a key revoked through it (web page, command line,
 * any operation), and an account whose plans or allowance change, are announced once the
 * store has recorded them, so every path that changes what a key may do takes effect at
 * once, in every process, without having to remember to.
 */
export function announcingRevocations(accounts: AccountStore, announce: Pick<KeyRevocations, "revoked" | "accountChanged">): AccountStore {
  const revokeKey = async (keyId: string): Promise<boolean> => {
    const revoked = await accounts.revokeKey(keyId);
    if (revoked) await announce.revoked(keyId);
    return revoked;
  };
  const setPlan: AccountStore["setPlan"] = async (accountId, slot, plan) => {
    await accounts.setPlan(accountId, slot, plan);
    await announce.accountChanged(accountId);
  };
  const setDeal: AccountStore["setDeal"] = async (accountId, deal) => {
    const found = await accounts.setDeal(accountId, deal);
    if (found) await announce.accountChanged(accountId);
    return found;
  };
  const announcing: Partial<Record<keyof AccountStore, unknown>> = { revokeKey, setPlan, setDeal };
  // Every other method is the store's own, called on the store (its private fields need that).
  return new Proxy(accounts, {
    get(target, prop) {
      if (typeof prop === "string" && prop in announcing) return announcing[prop as keyof AccountStore];
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
