/**
 * `mds serve` for runs that spawn whole processes and need their webhooks to reach a local
 * receiver (scripts/multiprocess.ts). Production code is not switched: like the in-process
 * webhook tests (test/helpers/webhooks.ts), the services are handed a transport at
 * construction whose resolver maps one test name to one loopback address and whose address
 * policy counts only that address as public, trusting only the test CA besides the system's.
 *
 *   TEST_HOOK_HOST=hooks.example.test TEST_HOOK_ADDRESS=127.x.y.z TEST_HOOK_CA="<PEM>" \
 *     node test/helpers/serve-with-test-receiver.ts serve --role worker
 */
import type { LookupAddress } from "node:dns";
import { serveCommand } from "../../src/cli/serve.ts";
import { processIo } from "../../src/cli/io.ts";
import { parseCidrs, productionPolicy } from "../../src/domain/webhooks/address-policy.ts";

const host = process.env.TEST_HOOK_HOST;
const address = process.env.TEST_HOOK_ADDRESS;
const ca = process.env.TEST_HOOK_CA;
if (!host || !address || !ca) {
  process.stderr.write("serve-with-test-receiver: set TEST_HOOK_HOST, TEST_HOOK_ADDRESS and TEST_HOOK_CA\n");
  process.exit(2);
}
const [command, ...args] = process.argv.slice(2);
if (command !== "serve") {
  process.stderr.write("serve-with-test-receiver: only `serve [--role ...]` runs here\n");
  process.exit(2);
}

const resolver = async (name: string): Promise<LookupAddress[]> => {
  if (name !== host) throw Object.assign(new Error(`queryA ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  return [{ address, family: 4 }];
};
const transport = { resolver, policy: { ...productionPolicy(), allow: parseCidrs([`${address}/32`]) }, ca };

try {
  await serveCommand(args, processIo(), { webhooks: { transport } });
} catch (e) {
  process.stderr.write(`mds: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
