/**
 * Calls of every MCP tool, each with the REST request it stands for: successes (with parts
 * withheld by source rights) and each kind of operation error. The parity test runs them on
 * both faces; the client test takes the first success of each tool.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ErrorCode } from "../../src/domain/errors.ts";
import { type PlanId, PLANS } from "../../src/domain/plans.ts";
import { PROJECT_ROOT } from "../../src/main.ts";
import { billingPeriod } from "../../src/operations/billing-period.ts";
import { encodeCursor } from "../../src/operations/params.ts";
import type { TestService } from "./service.ts";
import { positionLine, staticLines } from "./ingest.ts";
import { commitEvents, portCall, vesselEvent } from "./events.ts";
import { CANADA_POST, EU_AMENDMENT, EU_CONSOLIDATED, EU_LIBYA_AVAX, importFile, importUkCsv, OFAC_2024_05_03 } from "./sanctions.ts";

export interface Fixtures {
  /** A port whose coordinates come from a source not cleared for the API. */
  geocodedPort: string;
  /** IMOs designated on the OFAC list. */
  ofacImos: number[];
  /** An IMO designated on the UK list only (withheld under the test sources). */
  ukOnlyImo: number;
  /** The cursor of the second page of the OFAC list at 3 rows a page. */
  ofacPage2: string;
}

export interface Account {
  accountId: string;
}

export interface Case {
  tool: string;
  name: string;
  plan: PlanId;
  args: (fx: Fixtures) => Record<string, unknown>;
  expect: "ok" | ErrorCode;
  /** Prepares the account both keys belong to. */
  prepare?: (t: TestService, account: Account) => Promise<void>;
  /** Calls each key makes first, with the same arguments (to reach the rate limit). */
  before?: number;
  /** The answer leaves parts out for source rights. */
  withheld?: true;
}

/** The sources file of these tests: the shipped one with the UK list not cleared, so answers withhold parts. */
export function sourcesWithoutUk(): string {
  const dir = mkdtempSync(join(tmpdir(), "mds-mcp-sources-"));
  const file = JSON.parse(readFileSync(join(PROJECT_ROOT, "config/sources.json"), "utf8"));
  for (const s of file.sources) if (s.id === "uk") s.permissions.api = false;
  writeFileSync(join(dir, "sources.json"), JSON.stringify(file));
  return join(dir, "sources.json");
}

export async function prepareFixtures(t: TestService): Promise<Fixtures> {
  await importFile(t, "ofac", [OFAC_2024_05_03], { asOf: "2024-05-03" });
  await importUkCsv(t, { asOf: "2026-04-29" });
  // With AVAX (Reg. 2016/44 Annex V): one entry under two measures, each with its legal basis.
  await importFile(t, "eu", [EU_CONSOLIDATED, EU_AMENDMENT, EU_LIBYA_AVAX], { asOf: "2026-07-24" });
  await importFile(t, "canada", [CANADA_POST], { asOf: "2026-09-03" });
  const s = t.service.services;
  const ports = await s.ports.list({ country: "US", limit: 100_000 });
  const geocoded = ports.find((p) => p.coordSource === "geoapify" && p.lat !== null);
  if (!geocoded) throw new Error("no geocoded port in the bundled data");
  const ofac = await s.sanctions.listActive("ofac", 0, 1000);
  const uk = await s.sanctions.listActive("uk", 0, 1000);
  const elsewhere = new Set((await s.sanctions.findByIdentifiers({ imos: uk.flatMap((r) => r.record.imos), mmsis: [], lists: ["ofac", "eu", "canada"] })).map((h) => h.value));
  const page1 = await s.sanctions.listActive("ofac", 0, 3);
  return {
    geocodedPort: geocoded.unlocode,
    ofacImos: [...new Set(ofac.flatMap((r) => r.record.imos))],
    ukOnlyImo: uk.flatMap((r) => r.record.imos).find((imo) => !elsewhere.has(imo))!,
    ofacPage2: encodeCursor({ list: "ofac", after: page1.at(-1)!.designation.id }),
  };
}

/** Uses up a sandbox account's credits but for `left`. */
const exhaust = (t: TestService, a: Account, left = 0) => t.service.services.ledger.setUsed(a.accountId, billingPeriod(t.clock.now()), PLANS.sandbox.monthlyCredits - left);

/** A station of the account hearing two ships within the last hour (test clock). */
const withStation = async (t: TestService, a: Account) => {
  const { secret } = await t.service.services.stations.createStation(a.accountId, "harbour mast");
  const now = t.clock.now();
  const body = [
    positionLine({ mmsi: 244_000_001, lat: 51.9, lon: 4.1, sog: 11.2, cog: 270 }, now - 5 * 60_000),
    positionLine({ mmsi: 244_000_002, lat: 51.95, lon: 4.05, navStatus: 5 }, now - 20 * 60_000),
    ...staticLines({ mmsi: 244_000_001, imo: 9_074_729, shipname: "NORTH STAR", callsign: "PA1234", destination: "NLRTM" }),
  ].join("\n");
  const r = await t.service.app.inject({ method: "POST", url: "/ingest/nmea", headers: { "content-type": "text/plain", authorization: `Bearer ${secret}` }, payload: body });
  if (r.statusCode !== 200) throw new Error(`ingest answered ${r.statusCode}: ${r.body}`);
  // The ship's IMO is linked just after the report is stored: wait for it, so REST and MCP see the same link.
  await t.service.identityLinks.drain();
};

/**
 * The account's station hears two ships meeting (an encounter each) and one of them calling at
 * Rotterdam; another account's shared station, which grants no commercial use, saw a gap: a
 * commercial plan's answer leaves it out and counts it.
 */
const withEvents = async (t: TestService, a: Account) => {
  await withStation(t, a);
  const own = (await t.service.services.stations.listStations(a.accountId))[0]!.id;
  const neighbour = await t.key("pro", "events neighbour");
  const { station: noncommercial } = await t.service.services.stations.createStation(neighbour.accountId, "noncommercial mast");
  await t.service.services.stations.updateStation(noncommercial.id, { shared: true, redistribution: true, commercial: false });
  const now = t.clock.now();
  await commitEvents(
    t,
    [
      vesselEvent({ type: "encounter", stationId: own, mmsi: 244_000_001, start: now - 30 * 3_600_000, counterpartMmsi: 244_000_002 }),
      vesselEvent({ type: "encounter", stationId: own, mmsi: 244_000_001, start: now - 20 * 3_600_000, counterpartMmsi: 244_000_002 }),
      vesselEvent({ type: "encounter", stationId: own, mmsi: 244_000_002, start: now - 30 * 3_600_000, counterpartMmsi: 244_000_001 }),
      vesselEvent({ type: "ais_gap", stationId: noncommercial.id, mmsi: 244_000_001, start: now - 10 * 3_600_000, end: null }),
    ],
    [portCall({ stationId: own, mmsi: 244_000_001, unlocode: "NLRTM", arrival: now - 3 * 86_400_000 })],
  );
};

/** The screeningId of the last screening `screenedBy` made; the get_screening cases ask for it. */
let lastScreening = "";

/** The account screens two vessels through REST with a key of its own (not one the faces compare), keeping a receipt. */
const screenedBy = async (t: TestService, a: Account) => {
  const k = await t.service.services.accounts.createKey(a.accountId);
  const r = await t.service.app.inject({ method: "GET", url: "/api/v1/screen?ids=9187629,9074729", headers: { authorization: `Bearer ${k.key}` } });
  if (r.statusCode !== 200) throw new Error(`screen answered ${r.statusCode}: ${r.body}`);
  lastScreening = (r.json() as { screeningId: string }).screeningId;
};

/** Another account screens: its receipt is not found for the account the faces call with. */
const screenedByAnother = async (t: TestService) => {
  await screenedBy(t, await t.key("growth", "another screener"));
};

/** The id of the last watchlist `withWatchlist` made; the screen_watchlist cases ask for it. */
let lastWatchlist = "";

/** The account makes a watchlist of a listed ship and two others, through REST with a key of its own (making one is free). */
const withWatchlist = async (t: TestService, a: Account) => {
  const k = await t.service.services.accounts.createKey(a.accountId);
  const r = await t.service.app.inject({
    method: "POST",
    url: "/api/v1/account/watchlists",
    headers: { authorization: `Bearer ${k.key}`, "content-type": "application/json" },
    payload: JSON.stringify({ name: "Charters", ids: ["9187629", "9074729", "mmsi-244123456"] }),
  });
  if (r.statusCode !== 200) throw new Error(`watchlist creation answered ${r.statusCode}: ${r.body}`);
  lastWatchlist = (r.json() as { data: { id: string } }).data.id;
};

/** Links the imported sanctions lists into the vessel registry (what `serve` does every minute). */
const linkRegistry = async (t: TestService) => {
  await t.service.services.vessels.refresh(t.clock.now());
};

export const CASES: Case[] = [
  { tool: "get_company", name: "a MARAD operator with its fleet", plan: "developer", args: () => ({ entityId: "marad-name-alaska-tanker-co-llc" }), expect: "ok" },
  { tool: "get_company", name: "an OFAC Linked To: company", plan: "developer", args: () => ({ entityId: "ofac-name-national-iranian-tanker-company" }), expect: "ok" },
  { tool: "get_company", name: "a malformed entity id", plan: "developer", args: () => ({ entityId: "imo-12" }), expect: "invalid_parameter" },
  { tool: "get_company", name: "an unknown entity id", plan: "developer", args: () => ({ entityId: "ofac-999999999" }), expect: "not_found" },
  { tool: "get_company", name: "an unknown argument", plan: "developer", args: () => ({ entityId: "ofac-1", role: "x" }), expect: "invalid_parameter" },
  { tool: "get_port", name: "a port page", plan: "developer", args: () => ({ unlocode: "nlrtm" }), expect: "ok" },
  { tool: "get_port", name: "geocoded coordinates withheld", plan: "developer", args: (fx) => ({ unlocode: fx.geocodedPort }), expect: "ok", withheld: true },
  { tool: "get_port", name: "a malformed UN/LOCODE", plan: "developer", args: () => ({ unlocode: "NL1" }), expect: "invalid_parameter" },
  { tool: "get_port", name: "an unknown UN/LOCODE", plan: "developer", args: () => ({ unlocode: "ZZZZZ" }), expect: "not_found" },
  { tool: "get_port", name: "an unknown argument", plan: "developer", args: () => ({ unlocode: "NLRTM", country: "NL" }), expect: "invalid_parameter" },
  { tool: "get_port", name: "over the rate limit", plan: "sandbox", args: () => ({ unlocode: "NLRTM" }), expect: "rate_limited", before: 2 },
  { tool: "get_port", name: "credits used up", plan: "sandbox", args: () => ({ unlocode: "NLRTM" }), expect: "credits_exhausted", prepare: (t, a) => exhaust(t, a) },

  { tool: "get_usage", name: "usage of the key", plan: "plus", args: () => ({}), expect: "ok" },
  { tool: "get_usage", name: "an unknown argument", plan: "plus", args: () => ({ verbose: true }), expect: "invalid_parameter" },

  { tool: "list_sources", name: "every source with its licence and feed state", plan: "sandbox", args: () => ({}), expect: "ok" },
  { tool: "list_sources", name: "an unknown argument", plan: "sandbox", args: () => ({ feed: "norway" }), expect: "invalid_parameter" },

  { tool: "get_my_feed", name: "the account's own stations", plan: "pro", args: () => ({ maxAge: 30 }), expect: "ok", prepare: withStation },
  { tool: "get_my_feed", name: "a sandbox key: the plan lacks private feeds", plan: "sandbox", args: () => ({}), expect: "plan_lacks_feature" },
  { tool: "get_my_feed", name: "maxAge out of range", plan: "team", args: () => ({ maxAge: 0 }), expect: "invalid_parameter" },

  { tool: "list_sanctioned_vessels", name: "a first page of OFAC", plan: "scale", args: () => ({ list: "ofac", limit: 3 }), expect: "ok" },
  { tool: "list_sanctioned_vessels", name: "the next page by cursor", plan: "scale", args: (fx) => ({ list: "ofac", limit: 3, cursor: fx.ofacPage2 }), expect: "ok" },
  { tool: "list_sanctioned_vessels", name: "the UK list, withheld row by row", plan: "scale", args: () => ({ list: "uk" }), expect: "ok", withheld: true },
  { tool: "list_sanctioned_vessels", name: "an unknown list", plan: "scale", args: () => ({ list: "un" }), expect: "invalid_parameter" },
  { tool: "list_sanctions_changes", name: "OFAC listings over a window", plan: "scale", args: () => ({ limit: 3, lists: "ofac", since: "2024-05-01", until: "2024-05-31" }), expect: "ok" },
  { tool: "list_sanctions_changes", name: "the UK list, withheld row by row", plan: "scale", args: () => ({ limit: 5, lists: "uk" }), expect: "ok", withheld: true },
  { tool: "list_sanctions_changes", name: "since after until", plan: "scale", args: () => ({ since: "2024-06-01", until: "2024-05-01" }), expect: "invalid_parameter" },
  { tool: "list_sanctions_changes", name: "an unknown action", plan: "scale", args: () => ({ action: "renamed" }), expect: "invalid_parameter" },
  { tool: "list_sanctions_changes", name: "a list never loaded, named", plan: "scale", args: () => ({ lists: "new-zealand" }), expect: "sanctions_unavailable" },
  { tool: "list_sanctioned_vessels", name: "a forged cursor", plan: "scale", args: () => ({ list: "ofac", cursor: "bm9wZQ" }), expect: "invalid_parameter" },

  { tool: "screen_vessels", name: "listed, UK-only (withheld) and unlisted vessels", plan: "growth", args: (fx) => ({ ids: `${fx.ofacImos[0]},${fx.ukOnlyImo},9074729` }), expect: "ok", withheld: true },
  { tool: "screen_vessels", name: "an EU annex entry under two measures, with their legal basis (AVAX)", plan: "growth", args: () => ({ ids: "9058713", lists: "eu" }), expect: "ok" },
  { tool: "screen_vessels", name: "ids as an array", plan: "growth", args: (fx) => ({ ids: fx.ofacImos.slice(0, 4).map(String) }), expect: "ok" },
  { tool: "screen_vessels", name: "a bad IMO check digit", plan: "growth", args: () => ({ ids: "9074728" }), expect: "invalid_parameter" },
  { tool: "screen_vessels", name: "51 vessels", plan: "growth", args: (fx) => ({ ids: fx.ofacImos.slice(0, 51).join(",") }), expect: "invalid_parameter" },
  { tool: "screen_vessels", name: "more vessels than credits left", plan: "sandbox", args: (fx) => ({ ids: fx.ofacImos.slice(0, 3).join(",") }), expect: "credits_exhausted", prepare: (t, a) => exhaust(t, a, 2) },

  { tool: "screen_watchlist", name: "the account's own watchlist", plan: "pro", args: () => ({ id: lastWatchlist }), expect: "ok", prepare: withWatchlist },
  { tool: "screen_watchlist", name: "one member a page", plan: "developer", args: () => ({ id: lastWatchlist, limit: 1 }), expect: "ok", prepare: withWatchlist },
  { tool: "screen_watchlist", name: "another account's watchlist", plan: "growth", args: () => ({ id: lastWatchlist }), expect: "not_found", prepare: async (t) => withWatchlist(t, await t.key("growth", "another watcher")) },
  { tool: "screen_watchlist", name: "a malformed watchlist id", plan: "growth", args: () => ({ id: "zone_1" }), expect: "invalid_parameter" },
  { tool: "screen_watchlist", name: "limit above 100", plan: "growth", args: () => ({ id: "wl_1", limit: 101 }), expect: "invalid_parameter" },

  { tool: "get_screening", name: "the receipt of the account's own screening", plan: "pro", args: () => ({ id: lastScreening }), expect: "ok", prepare: screenedBy },
  { tool: "get_screening", name: "another account's screening", plan: "growth", args: () => ({ id: lastScreening }), expect: "not_found", prepare: (t) => screenedByAnother(t) },
  { tool: "get_screening", name: "a malformed screening id", plan: "growth", args: () => ({ id: "scr_1" }), expect: "invalid_parameter" },

  { tool: "get_vessel", name: "a ship of the MARAD fleet list", plan: "developer", args: () => ({ id: "9244661" }), expect: "ok" },
  { tool: "get_vessel", name: "UK designations withheld", plan: "developer", args: (fx) => ({ id: String(fx.ukOnlyImo) }), expect: "ok", withheld: true, prepare: linkRegistry },
  { tool: "get_vessel", name: "ARTAVIL: OFAC's former name, flag and type as facts of the list", plan: "developer", args: () => ({ id: "9187629" }), expect: "ok", prepare: linkRegistry },
  { tool: "get_vessel", name: "a bad IMO check digit", plan: "developer", args: () => ({ id: "9074728" }), expect: "invalid_parameter" },
  { tool: "get_vessel", name: "an unknown ship", plan: "developer", args: () => ({ id: "mmsi-999999999" }), expect: "not_found" },

  { tool: "get_vessel_track", name: "the last hour heard by the account's station", plan: "pro", args: () => ({ id: "mmsi-244000001", hours: 1 }), expect: "ok", prepare: withStation },
  { tool: "get_vessel_track", name: "hours out of range", plan: "pro", args: () => ({ id: "mmsi-244000001", hours: 0 }), expect: "invalid_parameter" },
  { tool: "get_vessel_track", name: "history the plan lacks", plan: "sandbox", args: () => ({ id: "9244661", from: "2026-11-17T00:00:00Z", to: "2026-11-18T00:00:00Z" }), expect: "plan_lacks_feature" },

  { tool: "get_port_calls", name: "calls of a vessel the account's station heard", plan: "pro", args: () => ({ vessel: "mmsi-244000001" }), expect: "ok", prepare: withStation },
  { tool: "get_port_calls", name: "calls at a port", plan: "developer", args: () => ({ port: "nlrtm", limit: 5 }), expect: "ok" },
  { tool: "get_port_calls", name: "neither a vessel nor a port", plan: "developer", args: () => ({}), expect: "invalid_parameter" },
  { tool: "get_port_calls", name: "an unknown port", plan: "developer", args: () => ({ port: "ZZZZZ" }), expect: "not_found" },
  { tool: "get_port_calls", name: "history the plan lacks", plan: "sandbox", args: () => ({ port: "NLRTM", from: "2026-11-01T00:00:00Z" }), expect: "plan_lacks_feature" },

  { tool: "get_vessel_events", name: "a ship's events and port calls, one of them from a station not cleared", plan: "pro", args: () => ({ id: "mmsi-244000001" }), expect: "ok", withheld: true, prepare: withEvents },
  { tool: "get_vessel_events", name: "encounters only, one a page", plan: "developer", args: () => ({ id: "mmsi-244000001", limit: 1, type: "encounter" }), expect: "ok", prepare: withEvents },
  { tool: "list_events_in_area", name: "an area's events, one of them from a station not cleared", plan: "pro", args: () => ({ bbox: "19,59,22,60" }), expect: "ok", withheld: true, prepare: withEvents },
  { tool: "list_events_in_area", name: "AIS gaps in an area, one a page", plan: "developer", args: () => ({ limit: 1, bbox: "19,59,22,60", type: "ais_gap" }), expect: "ok", prepare: withEvents },
  { tool: "list_events_in_area", name: "a box with its corners swapped", plan: "developer", args: () => ({ bbox: "22,60,19,59" }), expect: "invalid_parameter" },
  { tool: "get_vessel_events", name: "an unknown event type", plan: "developer", args: () => ({ id: "mmsi-244000001", type: "meeting" }), expect: "invalid_parameter" },
  { tool: "get_vessel_events", name: "history the plan lacks", plan: "sandbox", args: () => ({ id: "mmsi-244000001", from: "2026-11-01T00:00:00Z" }), expect: "plan_lacks_feature" },

  { tool: "get_chokepoint_transits", name: "the Dover Strait's last week", plan: "developer", args: () => ({ id: "chokepoint9", days: 7 }), expect: "ok" },
  { tool: "get_chokepoint_transits", name: "days out of range", plan: "developer", args: () => ({ id: "chokepoint9", days: 91 }), expect: "invalid_parameter" },
  { tool: "get_chokepoint_transits", name: "an unknown waterway", plan: "developer", args: () => ({ id: "chokepoint99" }), expect: "not_found" },

  { tool: "search_entities", name: "vessel names", plan: "developer", args: () => ({ q: "alaskan" }), expect: "ok" },
  { tool: "search_entities", name: "a ship by a former name a list gives, type and flag withheld from hits", plan: "developer", args: () => ({ q: "alpha", kind: "vessel" }), expect: "ok", withheld: true, prepare: linkRegistry },
  { tool: "search_entities", name: "a port by UN/LOCODE", plan: "developer", args: () => ({ q: "nlrtm", kind: "port" }), expect: "ok" },
  { tool: "search_entities", name: "an unknown kind", plan: "developer", args: () => ({ q: "alaskan", kind: "ship" }), expect: "invalid_parameter" },
];
