/**
 * One service listening on a free loopback port, one browser, and a way to sign a fresh
 * user in: what every browser test file starts from. Webhook deliveries reach a local HTTPS
 * receiver the same way the webhook tests do (a resolver naming the test host, an address
 * policy allowing only the receiver's own loopback address, a test CA), so the spec's target
 * rules stay on for every other address.
 */
import { randomInt } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import type { PlanId } from "../../../../src/domain/plans.ts";
import { startTestService, type TestService } from "../../../helpers/service.ts";
import { makeUser, PASSWORD } from "../helpers.ts";
import { HOOK_HOST, type Receiver, startReceiver, transportFor } from "../../../helpers/webhooks.ts";
import { launchBrowser } from "./harness.ts";

export { PASSWORD };

export interface BrowserFixture {
  t: TestService;
  /** The service's origin, e.g. http://127.0.0.1:41234 */
  base: string;
  browser: Browser;
  /** Present when asked for: an HTTPS receiver answering 204 at https://hooks.example.test:8443/. */
  receiver: Receiver | null;
  /** A user of a fresh account (Pro plan unless told) who can sign in with PASSWORD. */
  user(plan?: PlanId): Promise<{ email: string; accountId: string; userId: string }>;
  close(): Promise<void>;
}

let users = 0;

export async function startFixture(options: { receiver?: boolean; withData?: boolean; env?: Record<string, string> } = {}): Promise<BrowserFixture> {
  // The browser first: without one (the suites skip then) this fails here naming why, before anything else starts.
  const browser = await launchBrowser();
  let receiver: Receiver | null = null;
  let webhooks;
  if (options.receiver) {
    // A loopback address of its own (Linux routes all of 127/8 here), so suites running at once do not meet on :8443.
    const address = `127.0.${randomInt(1, 250)}.${randomInt(2, 250)}`;
    receiver = await startReceiver(address);
    webhooks = { transport: transportFor(address) };
  }
  const t = await startTestService({ withData: options.withData ?? false, ...(options.env ? { env: options.env } : {}), ...(webhooks ? { webhooks } : {}) });
  const base = await t.service.app.listen({ port: 0, host: "127.0.0.1" });
  return {
    t,
    base,
    browser,
    receiver,
    async user(plan: PlanId = "pro") {
      const email = `user${++users}-${randomInt(1e9)}@example.test`;
      const made = await makeUser(t, email, plan);
      return { email, ...made };
    },
    async close() {
      await browser.close();
      await receiver?.close();
      await t.close();
    },
  };
}

export const HOOK_URL = `https://${HOOK_HOST}:8443/mds`;

/** Signs in through the real form; lands wherever `next` (or /account) says. */
export async function signIn(page: Page, base: string, email: string, next?: string): Promise<void> {
  await page.goto(`${base}/login${next ? `?next=${encodeURIComponent(next)}` : ""}`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith("/login")), page.getByRole("button", { name: "Sign in" }).click()]);
}
