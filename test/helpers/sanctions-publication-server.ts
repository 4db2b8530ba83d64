/**
 * A local stand-in for the official publication servers: serves the bundled samples under
 * the official file names, so the fetch on start and the refresh run end to end without the
 * internet. Paths can be made to fail (HTTP 500) or to hang (never answer).
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { SanctionsListKey } from "../../src/domain/sanctions/designation.ts";
import { CANADA_POST, NZ_XLSX, OFAC_2024_05_03, UK_XML } from "./sanctions.ts";

export const PUBLICATIONS: Record<string, string> = {
  "/ofac/SDN.CSV": OFAC_2024_05_03,
  "/uk/UK-Sanctions-List.xml": UK_XML,
  "/canada/sema-lmes.xml": CANADA_POST,
  "/nz/Russia-Sanctions-Register.xlsx": NZ_XLSX,
};

export interface PublicationServer {
  url: string;
  /** SANCTIONS_SOURCES-style sources for every list but the EU (which has no official file). */
  sources: Partial<Record<SanctionsListKey, string[]>>;
  /** The same as a SANCTIONS_SOURCES value. */
  env: string;
  failing: Set<string>;
  hanging: Set<string>;
  /** Bodies to serve instead of the sample at a path. */
  replaced: Map<string, Buffer>;
  requests: string[];
  close(): Promise<void>;
}

export async function startPublicationServer(): Promise<PublicationServer> {
  const failing = new Set<string>();
  const hanging = new Set<string>();
  const replaced = new Map<string, Buffer>();
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? "";
    requests.push(path);
    if (hanging.has(path)) return; // never answers: the fetch's own deadline must end it
    const file = PUBLICATIONS[path];
    if (failing.has(path) || file === undefined) {
      res.writeHead(failing.has(path) ? 500 : 404).end();
      return;
    }
    const body = replaced.get(path) ?? readFileSync(file);
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sources = {
    ofac: [`${url}/ofac/SDN.CSV`],
    uk: [`${url}/uk/UK-Sanctions-List.xml`],
    canada: [`${url}/canada/sema-lmes.xml`],
    "new-zealand": [`${url}/nz/Russia-Sanctions-Register.xlsx`],
  };
  return {
    url,
    sources,
    env: Object.entries(sources)
      .map(([list, urls]) => `${list}=${urls.join(",")}`)
      .join(";"),
    failing,
    hanging,
    replaced,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Timers a test fires by hand: the refresher's schedule without waiting. */
export class ManualTimers {
  pending: { run: () => void; ms: number; id: number }[] = [];
  #next = 1;
  setTimeout(run: () => void, ms: number): unknown {
    const id = this.#next++;
    this.pending.push({ run, ms, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending = this.pending.filter((p) => p.id !== handle);
  }
  /** Runs the one pending timer and returns its delay. */
  fire(): number {
    const next = this.pending.shift();
    if (!next) throw new Error("no timer pending");
    next.run();
    return next.ms;
  }
}
