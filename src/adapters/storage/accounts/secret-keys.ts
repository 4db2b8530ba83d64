import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SecretBox, SecretKeyError } from "./secret-box.ts";

/** Where the key lives when SECRETS_KEY is unset: beside the SQLite file, never inside any database. */
export const KEY_FILE = "secrets.key";

function decode(name: string, text: string): Buffer {
  const key = Buffer.from(text.trim(), "base64");
  if (key.length !== 32 || key.toString("base64") !== text.trim()) {
    throw new SecretKeyError(`${name}: must be 32 bytes in base64 (44 characters, e.g. from \`openssl rand -base64 32\`)`);
  }
  return key;
}

/**
 * The key that seals stored secrets: SECRETS_KEY when set (base64 of 32 bytes), otherwise the
 * key file in DATA_DIR, created with mode 0600 on first start. SECRETS_KEY_PREVIOUS (during a
 * rotation) only opens values sealed under it.
 */
export function loadSecretBox(options: { secretsKey: string | undefined; secretsKeyPrevious: string | undefined; dataDir: string }): SecretBox {
  const previous = options.secretsKeyPrevious ? [decode("SECRETS_KEY_PREVIOUS", options.secretsKeyPrevious)] : [];
  if (options.secretsKey) return new SecretBox(decode("SECRETS_KEY", options.secretsKey), previous);
  const file = join(options.dataDir, KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(options.dataDir, { recursive: true });
    try {
      // `wx`: two processes starting at once cannot both write a key; the loser reads the winner's.
      writeFileSync(file, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
  // A key file others can read is as good as the secrets in plaintext: tighten it rather than fail.
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  return new SecretBox(decode(file, readFileSync(file, "utf8")), previous);
}
