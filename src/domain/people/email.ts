import type { Check } from "./password.ts";

export const EMAIL_MAX_LENGTH = 254;

/**
 * An e-mail address as a sign-in name. No mail is ever sent, so the check is only that it
 * looks like an address; it is trimmed and lower-cased so `Ann@Example.org` and
 * `ann@example.org` are one user.
 */
export function normaliseEmail(input: string): Check<string> {
  const email = input.trim().toLowerCase();
  if (email.length === 0) return { ok: false, param: "email", rule: "is required" };
  if (email.length > EMAIL_MAX_LENGTH) return { ok: false, param: "email", rule: `must be at most ${EMAIL_MAX_LENGTH} characters` };
  if (!/^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]{2,}$/.test(email)) {
    return { ok: false, param: "email", rule: "must be an e-mail address such as ann@example.org" };
  }
  return { ok: true, value: email };
}
