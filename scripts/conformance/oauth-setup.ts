import { randomBytes } from "node:crypto";
import { runUsersCommand } from "../../src/cli/users-command.ts";
import type { Service } from "../../src/main.ts";
import type { Person } from "./browser-consent.ts";

export interface SignedUpPerson extends Person {
  accountId: string;
}

/**
 * A fresh Pro account with one person who can sign in, made through the same code as
 * `mds users create --account <id> --email <e> --password-stdin --json`.
 */
export async function createPerson(service: Service, label: string): Promise<SignedUpPerson> {
  const account = await service.services.accounts.createAccount({ name: `conformance ${label}`, webPlan: "pro", apiPlan: null });
  const email = `${label}-${randomBytes(4).toString("hex")}@conformance.example`;
  const password = `conformance ${randomBytes(9).toString("base64url")}`;
  const out: string[] = [];
  const err: string[] = [];
  const code = await runUsersCommand(
    { accounts: service.services.accounts, users: service.people.users, sessions: service.people.sessions },
    ["create", "--account", account.id, "--email", email, "--password-stdin", "--json"],
    { stdin: [`${password}\n`], out: (l) => out.push(l), err: (l) => err.push(l) },
  );
  if (code !== 0) throw new Error(`users create failed (exit ${code}): ${err.join(" ")}`);
  const made = JSON.parse(out.join("")) as { account: string; email: string };
  return { accountId: made.account, email: made.email, password };
}

/** Registers a public client by RFC 7591 dynamic registration, as an MCP client would; returns its client_id. */
export async function registerPublicClient(issuer: string, name: string, redirectUri: string): Promise<string> {
  const res = await fetch(`${issuer}/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: name, redirect_uris: [redirectUri], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" }),
  });
  const body = (await res.json()) as { client_id?: string; error?: string; error_description?: string };
  if (res.status !== 201 || !body.client_id) throw new Error(`POST /register answered ${res.status}: ${body.error ?? ""} ${body.error_description ?? ""}`);
  return body.client_id;
}

/** What the service says the account has used: read with a key of that account, so it is the ledger, not the client's view. */
export async function creditsUsed(service: Service, issuer: string, accountId: string): Promise<number> {
  const key = await service.services.accounts.createKey(accountId, "conformance check");
  const res = await fetch(`${issuer}/api/v1/usage`, { headers: { authorization: `Bearer ${key.key}` } });
  const body = (await res.json()) as { data?: { credits?: { used?: number } } };
  const used = body.data?.credits?.used;
  if (res.status !== 200 || typeof used !== "number") throw new Error(`GET /api/v1/usage answered ${res.status}`);
  return used;
}
