/**
 * A delivery worker in a process of its own, for the crash test: the production worker,
 * store and HTTP client on the store named by DATA_DIR or DATABASE_URL, with the test
 * seams (resolver, allow list, CA) for the local receiver. Runs until killed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DeliveryTransport } from "../../../src/adapters/webhooks/http-client.ts";
import { DeliveryWorker } from "../../../src/adapters/webhooks/worker.ts";
import { openStore } from "../../../src/adapters/storage/database.ts";
import { SqlWebhookStore } from "../../../src/adapters/storage/alerts/webhooks-store.ts";
import { loadSecretBox } from "../../../src/adapters/storage/accounts/secret-keys.ts";
import { systemClock } from "../../../src/interfaces/clock.ts";
import { mapResolver, policyAllowing } from "../../helpers/webhooks.ts";

const address = process.env.RECEIVER_ADDRESS!;
const store = await openStore(process.env.DATABASE_URL ? { engine: "postgres", url: process.env.DATABASE_URL } : { engine: "sqlite", file: join(process.env.DATA_DIR!, "mds.sqlite") });
const transport = new DeliveryTransport({ resolver: mapResolver({ "hooks.example.test": address }), policy: policyAllowing(`${address}/32`), ca: readFileSync(process.env.TEST_CA_FILE!, "utf8") });
const worker = new DeliveryWorker(new SqlWebhookStore(store.db, store.dialect, loadSecretBox({ secretsKey: process.env.SECRETS_KEY, secretsKeyPrevious: undefined, dataDir: process.env.DATA_DIR! })), transport, systemClock, {
  userAgent: "Service-Webhooks/1 (crash test)",
  leaseMs: Number(process.env.LEASE_MS),
  pollMs: 50,
  concurrency: 16,
  batchSize: 8,
  onError: (err) => process.stderr.write(`worker: ${String(err)}\n`),
});
worker.start();
process.stdout.write("ready\n");
