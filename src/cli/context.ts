import { type Config, parseConfig } from "../config.ts";
import { openServices, type ServiceCore } from "../compose/services.ts";
import { PROJECT_ROOT } from "../main.ts";
import type { CliIo } from "./io.ts";

export function loadConfig(io: CliIo): Config {
  return parseConfig(io.env, PROJECT_ROOT);
}

/** Opens the services (no HTTP app, no listener) for one command and closes them after, whatever happens. */
export async function withServices<T>(io: CliIo, fn: (core: ServiceCore) => Promise<T>): Promise<T> {
  const core = await openServices(loadConfig(io));
  try {
    return await fn(core);
  } finally {
    await core.close();
  }
}
