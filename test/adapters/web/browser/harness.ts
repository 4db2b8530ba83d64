import { mkdirSync } from "node:fs";
import { join } from "node:path";
import axeCore from "axe-core";
import { type Browser, type BrowserContext, chromium, type Frame, type Page } from "playwright-core";
import { tool } from "../../../helpers/system-tools.ts";

/**
 * The browser `npm test` found or got once for the run (CHROMIUM_PATH, PATH, Playwright's
 * download, else Debian's chromium installed with apt or Playwright's download): see
 * test/helpers/system-tools.ts.
 */
const BROWSER = tool("chromium");

/** Why the browser tests are skipped (one line), or false: every browser suite passes it as `skip`. */
export const NO_BROWSER: string | false = BROWSER.path ? false : BROWSER.note;

/** Screenshots of each page go here for people to look at; the folder is not committed. */
export const SCREENSHOT_DIR = join(import.meta.dirname, "..", "..", "..", "..", "test-output", "screenshots");

/**
 * The flags a closed CI machine needs: without the background-networking ones chromium keeps
 * trying to reach Google's hosts, and as root it cannot use its sandbox.
 */
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"];

export async function launchBrowser(): Promise<Browser> {
  if (!BROWSER.path) throw new Error(BROWSER.note);
  return chromium.launch({ executablePath: BROWSER.path, headless: true, args: FLAGS });
}

/**
 * A fresh context whose every request must stay on the service: a page that reaches for a CDN,
 * a font or a tile fails the test instead of silently depending on the network.
 */
export async function newContext(browser: Browser, baseUrl: string, options: { javaScriptEnabled?: boolean } = {}): Promise<{ context: BrowserContext; outside: string[] }> {
  const context = await browser.newContext({ ...VIEW, javaScriptEnabled: options.javaScriptEnabled ?? true });
  if (options.javaScriptEnabled === false) withoutScript.add(context);
  // A step that cannot happen fails in seconds with its name, instead of at the file's time-out.
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(15_000);
  const outside: string[] = [];
  await context.route(
    (url) => !url.href.startsWith(baseUrl),
    (route) => {
      outside.push(route.request().url());
      return route.abort();
    },
  );
  return { context, outside };
}

const VIEW = { viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1, reducedMotion: "reduce" } as const;
/** Contexts made with script off; axe cannot run inside them (below). */
const withoutScript = new WeakSet<BrowserContext>();

/**
 * axe-core's WCAG 2.1 A/AA rules; serious and critical violations fail, with their ids and targets named.
 *
 * In a context with script off, page timers never fire and axe (which needs them) never
 * finishes. So the page as the script-less browser has it (its DOM, parsed from what the
 * service sent, with no script having run) is checked in a scratch page where script runs
 * only for axe: the same URL answers with that DOM, and every script request is refused.
 * One scratch page serves every check of its context (a page per check cost a renderer
 * process each, 38% of the script-off suite's time); it closes with the context.
 */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  if (!withoutScript.has(page.context())) return axe(page);
  // A request carries no fragment; and going to the page already shown, only a reload loads it again.
  const url = withoutFragment(page.url());
  const scratch = await scratchFor(page.context());
  scratch.document = { url, dom: await page.content() };
  if (withoutFragment(scratch.page.url()) === url) await scratch.page.reload();
  else await scratch.page.goto(url);
  return axe(scratch.page);
}

const withoutFragment = (url: string) => url.replace(/#.*$/, "");

interface Scratch {
  page: Page;
  /** The document the scratch page is to show: the script-less page's URL and DOM. */
  document: { url: string; dom: string };
}
const scratches = new WeakMap<BrowserContext, Promise<Scratch>>();

function scratchFor(context: BrowserContext): Promise<Scratch> {
  let made = scratches.get(context);
  if (!made) {
    made = (async () => {
      const scratchContext = await context.browser()!.newContext(VIEW);
      context.on("close", () => void scratchContext.close().catch(() => undefined));
      const scratch: Scratch = { page: await scratchContext.newPage(), document: { url: "", dom: "" } };
      await scratchContext.route("**/*", (route) => {
        const req = route.request();
        if (req.resourceType() === "document" && withoutFragment(req.url()) === scratch.document.url) return route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: scratch.document.dom });
        if (req.resourceType() === "script") return route.abort();
        return route.continue();
      });
      return scratch;
    })();
    scratches.set(context, made);
  }
  return made;
}

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * axe run inside the page's own document. AxeBuilder's default (`runPartial` in every frame,
 * then `finishRun` in a blank page it opens for the purpose) cost each check a page of its own;
 * the service's pages have no frames, and the one framed page (the MCP app's harness) is
 * checked frame by frame below.
 */
function axe(page: Page): Promise<string[]> {
  return seriousA11yViolationsInFrame(page.mainFrame());
}

function serious(violations: axeCore.Result[]): string[] {
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/**
 * The same check inside one frame. AxeBuilder passes over a sandboxed frame without scripts'
 * same-origin access (an MCP app's srcdoc frame) and reports nothing for it; axe is put into
 * the frame itself instead (the evaluation is the browser's, not the frame's CSP-bound script).
 */
export async function seriousA11yViolationsInFrame(frame: Frame): Promise<string[]> {
  await frame.evaluate(axeCore.source);
  const violations = await frame.evaluate(
    (tags) => (globalThis as unknown as { axe: typeof axeCore }).axe.run({ runOnly: { type: "tag", values: tags } }).then((r) => r.violations),
    AXE_TAGS,
  );
  return serious(violations);
}

/**
 * A full-page screenshot for people to look at, when MDS_SCREENSHOTS is set: each costs the
 * browser a full render and encode, a fifth of the browser tests' time, and no test reads it.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!process.env.MDS_SCREENSHOTS) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true, animations: "disabled" });
}

/** A phone's screen width (an iPhone 12 to 15 in CSS pixels): every page must fit it. */
export const PHONE_WIDTH = 390;

/**
 * How much wider than a phone's screen the page is drawn (0 when it fits): the viewport is
 * narrowed to PHONE_WIDTH, the document's scroll width read, and the viewport put back.
 * Tables scroll inside their own box and the header wraps, so nothing should stick out.
 */
export async function overflowOnPhone(page: Page): Promise<number> {
  const before = page.viewportSize() ?? VIEW.viewport;
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  try {
    const width = await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
    return Math.max(0, width - PHONE_WIDTH);
  } finally {
    await page.setViewportSize(before);
  }
}
