/**
 * The programs some tests need from outside Node and npm: a browser (the browser tests),
 * Mosquitto (the public feed tests start one of their own) and openssl (the webhook tests
 * make their certificates with it). Each is found or got once per run:
 *
 * - found: the variable naming it (CHROMIUM_PATH, MOSQUITTO_PATH, OPENSSL_PATH), then PATH,
 *   and for the browser Playwright's own download if one is already there;
 * - got: Debian's package with apt-get where the machine has apt-get and the run is root;
 *   elsewhere the browser is Playwright's own download (`playwright-core install chromium`).
 *
 * `npm test`'s global setup (test/global-setup.ts) does this before any test file starts,
 * prints one line per program saying what it did, and hands the outcome to every file in
 * MDS_TEST_TOOLS, so files running side by side never race an install. A file run on its own
 * finds for itself. A program that can be neither found nor got makes its tests skip, naming
 * why in one line (openssl's tests fail instead, naming the command: see webhooks.ts).
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export type ToolName = "chromium" | "mosquitto" | "openssl";

export interface Tool {
  /** The program to run, or null when it could be neither found nor got. */
  path: string | null;
  /** One line saying what was done, e.g. "using /usr/bin/chromium", or why there is none. */
  note: string;
}

const ENV_NAME: Record<ToolName, string> = { chromium: "CHROMIUM_PATH", mosquitto: "MOSQUITTO_PATH", openssl: "OPENSSL_PATH" };
const NAMES: Record<ToolName, string[]> = { chromium: ["chromium", "chromium-browser"], mosquitto: ["mosquitto"], openssl: ["openssl"] };
const DEBIAN: Record<ToolName, string[]> = { chromium: ["chromium", "fonts-dejavu-core"], mosquitto: ["mosquitto"], openssl: ["openssl"] };
/** What each program is for, as the line printed about it starts. */
export const LABEL: Record<ToolName, string> = { chromium: "browser tests", mosquitto: "feed tests (Mosquitto)", openssl: "webhook tests (openssl)" };

/** The outcome handed down by the global setup, or this process's own finding. */
export function tool(name: ToolName): Tool {
  const handed = process.env.MDS_TEST_TOOLS;
  if (handed) {
    const all = JSON.parse(handed) as Partial<Record<ToolName, Tool>>;
    const t = all[name];
    if (t) return t;
  }
  const found = findOrGet(name);
  // Said here only when nobody said it for the whole run.
  console.log(`${LABEL[name]}: ${found.note}`);
  return found;
}

/** Looks for the program, and installs it when it is not there and it can be installed. */
export function findOrGet(name: ToolName): Tool {
  const named = process.env[ENV_NAME[name]];
  if (named) return executable(named) ? { path: named, note: `using ${named} (${ENV_NAME[name]})` } : { path: null, note: `${ENV_NAME[name]}=${named} is not an executable file` };
  const found = onPath(NAMES[name]) ?? (name === "chromium" ? playwrightChromium() : null);
  if (found) return { path: found, note: `using ${found}` };
  if (name === "chromium" && !canApt()) {
    const why = playwrightInstall();
    const got = playwrightChromium();
    if (got) return { path: got, note: `downloaded Playwright's chromium: using ${got}` };
    return { path: null, note: `no browser found and none could be installed (${aptMissing()}, so Playwright's download was tried): ${why ?? "the download left no browser"}` };
  }
  if (!canApt()) return { path: null, note: `${NAMES[name][0]} not found on PATH, and it cannot be installed here (${aptMissing()}): install it or set ${ENV_NAME[name]}` };
  const why = aptInstall(DEBIAN[name]);
  const got = onPath(NAMES[name]);
  if (got) return { path: got, note: `installed Debian's ${DEBIAN[name][0]} with apt: using ${got}` };
  return { path: null, note: `${NAMES[name][0]} not found${name === "chromium" ? " (no browser)" : ""} and it could not be installed with apt: ${why ?? "the package left no program on PATH"}` };
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(names: string[]): string | null {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    for (const n of names) if (executable(join(dir, n))) return join(dir, n);
  }
  return null;
}

function canApt(): boolean {
  return aptMissing() === null;
}

/** Why apt-get cannot install here, or null when it can. */
function aptMissing(): string | null {
  if (onPath(["apt-get"]) === null) return "no apt-get on PATH";
  return process.getuid?.() === 0 ? null : "apt-get needs root";
}

/** Installs Debian packages; the package lists are refreshed only when the first try fails. Null, or the last line apt said. */
function aptInstall(packages: string[]): string | null {
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  // Another run installing at the same time holds the lock: wait for it rather than fail.
  const lock = ["-o", "DPkg::Lock::Timeout=300"];
  const install = () => spawnSync("apt-get", [...lock, "install", "-y", "-qq", ...packages], { env, encoding: "utf8", timeout: 900_000 });
  let r = install();
  if (r.status !== 0) {
    spawnSync("apt-get", [...lock, "update", "-qq"], { env, encoding: "utf8", timeout: 300_000 });
    r = install();
  }
  return r.status === 0 ? null : lastLine(r.stderr, r.error);
}

function playwrightCli(): string {
  return join(dirname(fileURLToPath(import.meta.resolve("playwright-core"))), "cli.js");
}

/** Where `playwright-core install chromium` puts its browser, when it is there. */
function playwrightChromium(): string | null {
  const index = join(dirname(playwrightCli()), "index.js");
  const r = spawnSync(process.execPath, ["-e", `process.stdout.write(require(${JSON.stringify(index)}).chromium.executablePath())`], { encoding: "utf8" });
  const path = r.stdout?.trim();
  return path && existsSync(path) ? path : null;
}

function playwrightInstall(): string | null {
  const r = spawnSync(process.execPath, [playwrightCli(), "install", "chromium"], { encoding: "utf8", timeout: 600_000 });
  return r.status === 0 ? null : `playwright-core install chromium: ${lastLine(`${r.stdout ?? ""}\n${r.stderr ?? ""}`, r.error)}`;
}

/** The error lines a program printed (apt's `E: ...`, Node's `Error: ...`), first and last, else its last line. */
function lastLine(text: string | null | undefined, error?: Error): string {
  const lines = (text ?? "").split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const errors = [...new Set(lines.filter((l) => /^(E|Error):/.test(l)))];
  if (errors.length > 0) return errors.length === 1 ? errors[0]! : `${errors[0]} ${errors.at(-1)}`;
  return lines.at(-1) ?? error?.message ?? "failed";
}
