import { resolve } from "node:path";
import type { FastifyInstance } from "fastify";
import type { Config } from "./config.ts";
import { buildServer } from "./compose/server.ts";
import { type OpenOptions, openServices, type ServiceCore } from "./compose/services.ts";

/**
 * The composition root. Opening the services a command needs (compose/services.ts) is
 * apart from building the server on them (compose/server.ts); `createService` does both
 * without listening, for tests, benchmarks and importers.
 */
export { archiveLocation, type OAuthSeams, openServices, type OpenOptions, type ServiceCore, storeLocation } from "./compose/services.ts";
export { bindPorts, BindError, buildServer, type Server } from "./compose/server.ts";

/** The project's root: bundled datasets, the default sources file and the docs live here. */
export const PROJECT_ROOT = resolve(import.meta.dirname, "..");
export { BUNDLED_DATASETS_DIR as DATASETS_DIR } from "./adapters/importers/bundled-datasets-dir.ts";

/** Opened services with the HTTP app built on them (not listening). */
export interface Service extends ServiceCore {
  app: FastifyInstance;
}

export async function createService(config: Config, options: OpenOptions = {}): Promise<Service> {
  const core = await openServices(config, options);
  let app: FastifyInstance;
  try {
    ({ app } = buildServer(core, { projectRoot: PROJECT_ROOT, oauth: options.oauth, mcpTasks: options.mcpTasks, httpLimits: options.httpLimits }));
  } catch (e) {
    await core.close();
    throw e;
  }
  return {
    ...core,
    app,
    async close() {
      await app.close();
      await core.close();
    },
  };
}
