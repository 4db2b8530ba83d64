import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Debian's chromium, as the browser tests use it; CHROMIUM_PATH points elsewhere. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** A closed, root-run machine: no background calls to Google's hosts, no sandbox. */
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`chromium is missing at ${CHROMIUM}: install it with \`apt-get install -y chromium\` or set CHROMIUM_PATH`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

export interface Person {
  email: string;
  password: string;
}

/**
 * What a person does with an authorization URL an OAuth client printed: opens it, is sent
 * to sign in, signs in, reads the consent page and clicks Allow. Resolves with the URL the
 * browser was sent back to (the client's callback), once that page has loaded.
 */
export async function approveInBrowser(browser: Browser, authorizationUrl: string, person: Person, callbackPrefix: string): Promise<{ callback: string; consent: string }> {
  const context = await browser.newContext();
  context.setDefaultTimeout(20_000);
  context.setDefaultNavigationTimeout(20_000);
  try {
    const page = await context.newPage();
    await page.goto(authorizationUrl);
    if (new URL(page.url()).pathname === "/login") {
      await page.getByLabel("E-mail").fill(person.email);
      await page.getByLabel("Password").fill(person.password);
      await Promise.all([page.waitForURL((u) => u.pathname === "/authorize"), page.getByRole("button", { name: "Sign in" }).click()]);
    }
    const consent = ((await page.locator("main").textContent()) ?? "").replace(/\s+/g, " ").trim();
    await Promise.all([page.waitForURL((u) => u.href.startsWith(callbackPrefix), { waitUntil: "load" }), page.getByRole("button", { name: "Allow" }).click()]);
    return { callback: page.url(), consent };
  } finally {
    await context.close();
  }
}
