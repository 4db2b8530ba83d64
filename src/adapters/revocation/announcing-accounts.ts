import type { AccountStore } from "../../ports/accounts.ts";

/**
 * The account store with one addition: a key revoked through it (web page, command line,
 * any operation) is announced once the store has recorded it, so every path that revokes
 * a key makes the revocation take effect at once without having to remember to.
 */
export function announcingRevocations(accounts: AccountStore, announce: (keyId: string) => Promise<void>): AccountStore {
  const revokeKey = async (keyId: string): Promise<boolean> => {
    const revoked = await accounts.revokeKey(keyId);
    if (revoked) await announce(keyId);
    return revoked;
  };
  // Every other method is the store's own, called on the store (its private fields need that).
  return new Proxy(accounts, {
    get(target, prop) {
      if (prop === "revokeKey") return revokeKey;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
