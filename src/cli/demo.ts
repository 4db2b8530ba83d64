import { isIP } from "node:net";
import { join } from "node:path";
import { importSanctions } from "../adapters/importers/sanctions-import.ts";
import { directSender, type Simulator, senderFor, startSimulator } from "../adapters/ingest/simulator/index.ts";
import { ensureDemoUser } from "../adapters/web/demo-user.ts";
import type { ServiceCore as Service } from "../compose/services.ts";
import type { IngestStation } from "../interfaces/positions.ts";
import type { SanctionsImportResult } from "../interfaces/sanctions.ts";

export interface DemoSetup {
  sandboxKey: string;
  proKey: string;
  accountId: string;
  station: IngestStation;
  secret: string;
  /** Signs in to the demo account's pages. */
  user: { email: string; password: string };
}

export const DEMO_ACCOUNT = "demo";
export const DEMO_SANDBOX_ACCOUNT = "demo sandbox";
export const DEMO_STATION = "demo station";

/**
 * `serve --demo`: a sandbox account with a key (public data only), and the `demo` account
 * on Pro (private feeds) owning one station that the built-in simulator feeds. The
 * station keeps its id and data across restarts; its secret is replaced on each start
 * because only its hash is stored and the simulator needs the secret itself.
 */
export async function setupDemo(service: Service): Promise<DemoSetup> {
  const accounts = service.services.accounts;
  const sandbox = (await accounts.findAccountByName(DEMO_SANDBOX_ACCOUNT)) ?? (await accounts.createAccount({ name: DEMO_SANDBOX_ACCOUNT, webPlan: "sandbox", apiPlan: null }));
  const demo = (await accounts.findAccountByName(DEMO_ACCOUNT)) ?? (await accounts.createAccount({ name: DEMO_ACCOUNT, webPlan: "pro", apiPlan: null }));
  // Data dirs from before the demo feed had the demo account on sandbox.
  if (demo.webPlan !== "pro") await accounts.setPlan(demo.id, "web", "pro");
  const sandboxKey = (await accounts.createKey(sandbox.id, "demo sandbox key")).key;
  const proKey = (await accounts.createKey(demo.id, "demo pro key")).key;
  const existing = (await service.services.stations.listStations(demo.id)).find((s) => s.name === DEMO_STATION);
  let stationId: number;
  let secret: string;
  if (existing) {
    secret = (await service.services.stations.rotateSecret(existing.id))!.secret;
    stationId = existing.id;
  } else {
    const created = await service.services.stations.createStation(demo.id, DEMO_STATION);
    stationId = created.station.id;
    secret = created.secret;
  }
  service.ingest.directory.forget();
  const station = await service.services.positions.stationById(stationId);
  if (!station) throw new Error("demo station vanished");
  const user = await ensureDemoUser(service.people, demo.id);
  return { sandboxKey, proKey, accountId: demo.id, station, secret, user };
}

/** Where a local client reaches a listener bound to `host` (a wildcard address means this machine). */
export function loopbackFor(host: string): string {
  if (host === "0.0.0.0" || host === "") return "127.0.0.1";
  if (host === "::") return "::1";
  return isIP(host) === 0 && host !== "localhost" ? "127.0.0.1" : host;
}

/** The demo station's simulator, in process: over the TCP listener when it runs (the real path), else straight into the pipeline. */
export function startDemoSimulator(service: Service, demo: DemoSetup, tcpPort: number | null, datasetsDir: string, onError: (message: string) => void): Simulator {
  const sender =
    tcpPort !== null
      ? senderFor({ kind: "tcp", host: loopbackFor(service.config.host), port: tcpPort }, demo.station.id, demo.secret, onError)
      : directSender(service.ingest.pipeline, demo.station);
  return startSimulator(sender, { datasetsDir, vessels: 200, stationTag: "demo" });
}


/**
 * The dated extracts of official publications the repository ships (its test samples), by
 * list, with the day each stands for. The EU annex samples are left out: they are a third
 * party's transcription under a non-commercial licence, and New Zealand's workbook is a
 * constructed test file, so neither is a publication's extract.
 */
export const DEMO_SANCTIONS_EXTRACTS = [
  { list: "ofac", asOf: "2024-05-03", files: ["ofac/sdn_csv_vessel_rows_2024-05-03.csv"] },
  { list: "uk", asOf: "2026-08-20", files: ["uk/uk_sanctions_list_xml_ship_fragments.xml"] },
  { list: "canada", asOf: "2026-09-03", files: ["canada/sema-lmes_post-2026-08-25_bilingual_tags_excerpt.xml"] },
] as const;

/**
 * `serve --demo` only: loads each shipped extract into a list that was never loaded, marked
 * as an extract with its own as-of date, so the demo's screening shows real matches without
 * passing for the current list. A list already loaded (a real import) is never touched, and
 * plain `serve` never calls this.
 */
export async function loadDemoSanctionsExtracts(service: Service, projectRoot: string): Promise<SanctionsImportResult[]> {
  const states = await service.services.sanctions.listStates();
  const out: SanctionsImportResult[] = [];
  for (const extract of DEMO_SANCTIONS_EXTRACTS) {
    if (states.find((s) => s.list === extract.list)?.versionId != null) continue;
    const paths = extract.files.map((f) => join(projectRoot, "test", "fixtures", "sanctions", f));
    out.push(await importSanctions(service.services, extract.list, paths, { asOf: extract.asOf, extract: true }));
  }
  return out;
}
