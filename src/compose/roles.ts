/**
 * What one `mds serve` process runs. A small deployment runs everything in one process
 * (`all`); a larger one runs N `api` processes behind a proxy, one or more `ingest`
 * processes and `worker`s, on one PostgreSQL and one Redis. Every part that `serve` can
 * start is named here once; a new part (a feed connector, a derived-facts job) is one
 * more name and one more line in the table below.
 */
export const ROLES = ["api", "ingest", "worker", "all"] as const;
export type Role = (typeof ROLES)[number];

export type Part =
  /** REST, MCP, the account pages, OAuth and station ingest over HTTP, on PORT. */
  | "http-api"
  /** Station listeners on INGEST_TCP_PORT / INGEST_UDP_PORT (and the demo simulator that feeds them). */
  | "station-listeners"
  /** Public AIS feeds added with `mds feeds add` (connectors to Kystverket, Digitraffic, aisstream.io, AISHub). */
  | "feeds"
  /** The bundled reference data imported when missing (one process at a time, under a job lock). */
  | "import-data"
  /** Webhook deliveries, the sanctions alerts reader and the zone queue's catch-up poll. */
  | "deliveries"
  /** Sanctions list refresh, vessel registry refresh, archive compaction, partition upkeep, and the sweeps of ended sign-in sessions and of screening receipts past their retention. */
  | "maintenance";

const API: readonly Part[] = ["http-api", "import-data"];
const INGEST: readonly Part[] = ["station-listeners", "feeds"];
const WORKER: readonly Part[] = ["deliveries", "maintenance", "import-data"];

export const ROLE_PARTS: Readonly<Record<Role, readonly Part[]>> = {
  api: API,
  ingest: INGEST,
  worker: WORKER,
  all: [...new Set([...API, ...INGEST, ...WORKER])],
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function runs(role: Role, part: Part): boolean {
  return ROLE_PARTS[role].includes(part);
}
