/**
 * The station link, denied through the sources file (SOURCES_FILE) as an operator would:
 * a shared station is the only source linking an MMSI to an IMO, and with `station` denied
 * every operation over REST and MCP, and the vessel asked by that MMSI or by that IMO, must
 * show neither the link nor the ship only the station heard. The generated rights suite
 * (rights.test.ts) denies every source per use and caller; this keeps the asks by MMSI and
 * by name it does not make.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { PROJECT_ROOT } from "../../../src/main.ts";
import { OPERATIONS } from "../../../src/operations/registry.ts";
import { loadDemoSanctionsExtracts } from "../../../src/cli/demo.ts";
import { startTestService, type TestService } from "../../helpers/service.ts";
import { sourcesFile } from "../../helpers/sources-file.ts";
import { EXAMPLES, request } from "./examples.ts";
import { mcp } from "./rights-world.ts";
import { fix, identity, writeFixes } from "../../helpers/vessels.ts";

interface SourceEntry {
  id: string;
  attribution: string;
  permissions: { api: boolean; redistribution: boolean; commercial: boolean };
}

const SHIPPED = JSON.parse(readFileSync(join(PROJECT_ROOT, "config/sources.json"), "utf8")) as { sources: SourceEntry[] };

/** MAERSK ABERDEEN of the bundled EU MRV data; only the test's station links it to this MMSI. */
const IMO = 9175793;
const STATION_MMSI = 230_999_001;
/** Calls that ask by the station's MMSI: they may echo it, but must not reveal the IMO behind it. */
const BY_MMSI = [
  `REST GET /api/v1/vessels/mmsi-${STATION_MMSI}`,
  `REST GET /api/v1/vessels/mmsi-${STATION_MMSI}/track?hours=24`,
  `REST GET /api/v1/search?q=${STATION_MMSI}`,
  "MCP get_vessel by MMSI",
];

interface Answer {
  via: string;
  status: number;
  body: Record<string, any> | null;
  text: string;
}

/** The MCP tool call of the rights suite, one second later on the test clock (each call may be rate-counted). */
async function toolCall(t: TestService, key: string, name: string, args: Record<string, unknown>): Promise<Answer> {
  t.clock.t += 1_000;
  return { via: `MCP ${name}`, ...(await mcp(t, key, name, args)) };
}

/** Every operation's example over REST (and MCP for tools), plus the vessel calls that show the station's link. */
async function callEverything(t: TestService): Promise<Map<string, Answer>> {
  const owners: Record<string, { key: string; accountId: string }> = {};
  const owner = async (plan: "scale" | "team") => (owners[plan] ??= await t.key(plan, `owner ${plan}`));
  const out = new Map<string, Answer>();
  for (const op of OPERATIONS) {
    const example = EXAMPLES[op.id];
    assert.ok(example, `an example for ${op.id}`);
    const o = await owner(example.plan === "team" ? "team" : "scale");
    const params = { ...example.path, ...(example.owned ? await example.owned({ t, ...o }) : {}) };
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
    const query = example.query ? `?${new URLSearchParams(example.query).toString()}` : "";
    const res = await request(t, o.key, op.method, `${path}${query}`, example.body);
    out.set(`REST ${op.id}`, { via: `REST ${op.id}`, status: res.status, body: res.body, text: JSON.stringify(res.body) });
    if (op.tool && !example.owned && !example.body) out.set(`MCP ${op.id}`, await toolCall(t, o.key, op.tool, { ...example.path, ...example.query }));
  }
  const o = await owner("scale");
  for (const url of [
    `/api/v1/vessels/${IMO}`,
    `/api/v1/search?q=${IMO}`,
    "/api/v1/search?q=maersk%20aberdeen",
    "/api/v1/search?q=wombat",
    "/api/v1/ports/NLRTM",
    "/api/v1/flags/NL",
    `/api/v1/vessels/mmsi-${STATION_MMSI}`,
    `/api/v1/vessels/mmsi-${STATION_MMSI}/track?hours=24`,
    `/api/v1/search?q=${STATION_MMSI}`,
  ]) {
    const res = await request(t, o.key, "GET", url);
    out.set(`REST GET ${url}`, { via: `REST GET ${url}`, status: res.status, body: res.body, text: JSON.stringify(res.body) });
  }
  out.set("MCP get_vessel", await toolCall(t, o.key, "get_vessel", { id: String(IMO) }));
  out.set("MCP get_vessel by MMSI", { ...(await toolCall(t, o.key, "get_vessel", { id: `mmsi-${STATION_MMSI}` })), via: "MCP get_vessel by MMSI" });
  out.set("MCP search_entities", await toolCall(t, o.key, "search_entities", { q: String(IMO) }));
  return out;
}

/** A service on a copy of the shipped sources file with `denied` (if any) denied every use. */
async function serviceDenying(denied: string | null): Promise<{ t: TestService; cleanup: () => Promise<void> }> {
  const sources = sourcesFile(denied ? { [denied]: { api: false, redistribution: false, commercial: false } } : {});
  const t = await startTestService({ env: { SOURCES_FILE: sources.path } });
  // Screening with no list loaded is a 503 (nothing could be checked): the demo's dated extracts give it lists to deny.
  await loadDemoSanctionsExtracts(t.service, PROJECT_ROOT);
  // A shared station: the only one that links the MMSI to the IMO, and the only one that heard a second ship.
  const { accountId } = await t.key("pro", "station owner");
  const { station } = await t.service.services.stations.createStation(accountId, "shared mast");
  await t.service.services.stations.updateStation(station.id, { shared: true, redistribution: true, commercial: true });
  await identity(t, { stationId: station.id, mmsi: STATION_MMSI, imo: IMO, name: "MAERSK ABERDEEN" }, false);
  await identity(t, { stationId: station.id, mmsi: 230_999_002, name: "DENIED WOMBAT" });
  await writeFixes(t, [fix(station.id, STATION_MMSI, t.clock.now() - 60_000)]);
  return { t, cleanup: async () => (await t.close(), sources.remove()) };
}

const isFrom = (source: string, denied: string) => source === denied || (denied === "station" && source.startsWith("station:"));

describe("the station denied: the MMSI and IMO only a station linked are nowhere, asked either way", () => {
  let baseline: Map<string, Answer>;
  before(async () => {
    const s = await serviceDenying(null);
    try {
      baseline = await callEverything(s.t);
    } finally {
      await s.cleanup();
    }
  });

  it("the baseline shows the station's link, the port's name and the flag's name (so the checks below can fail)", () => {
    assert.match(baseline.get(`REST GET /api/v1/vessels/${IMO}`)!.text, new RegExp(String(STATION_MMSI)));
    assert.match(baseline.get(`REST GET /api/v1/search?q=${IMO}`)!.text, new RegExp(String(STATION_MMSI)));
    assert.equal(baseline.get("REST GET /api/v1/ports/NLRTM")!.body!.name, "Rotterdam");
    assert.equal(baseline.get("REST GET /api/v1/flags/NL")!.body!.name, "Netherlands");
    // Asked by the MMSI, the page and its links name the ship by the IMO the station linked.
    const byMmsi = baseline.get(`REST GET /api/v1/vessels/mmsi-${STATION_MMSI}`)!.body!;
    assert.equal(byMmsi.imo, IMO);
    assert.match(byMmsi.api, new RegExp(`/api/v1/vessels/${IMO}$`));
    assert.match(baseline.get("MCP get_vessel by MMSI")!.text, new RegExp(String(IMO)));
  });

  for (const denied of ["station"]) {
    it(`with ${denied} denied`, async () => {
      const s = await serviceDenying(denied);
      try {
        const answers = await callEverything(s.t);
        const attribution = SHIPPED.sources.find((x) => x.id === denied)!.attribution;
        for (const [what, a] of answers) {
          const before = baseline.get(what)!;
          assert.ok(a.status < 500, `${what}: ${a.status}`);
          if (a.status !== 200 || !a.body) continue;
          const sources: string[] = a.body.sources ?? [];
          assert.deepEqual(sources.filter((x) => isFrom(x, denied)), [], `${what}: sources name ${denied}`);
          assert.ok(!(a.body.attribution ?? []).includes(attribution), `${what}: ${denied}'s attribution`);
          // What rested on the source in the baseline is listed as withheld, naming it.
          if ((before.body?.sources ?? []).some((x: string) => isFrom(x, denied))) {
            const withheld: { sources: string[] }[] = a.body.withheld ?? [];
            assert.ok(withheld.some((w) => w.sources.some((x) => isFrom(x, denied))), `${what}: withheld names ${denied}: ${JSON.stringify(a.body.withheld)}`);
          }
          if (denied === "station") {
            // Asked by the MMSI, the answer may echo it; the IMO only the station linked it to is nowhere, URLs included.
            if (BY_MMSI.includes(what)) assert.doesNotMatch(a.text, new RegExp(`${IMO}|MAERSK`), `${what}: the IMO only a station linked`);
            else assert.doesNotMatch(a.text, new RegExp(String(STATION_MMSI)), `${what}: the MMSI only a station linked`);
          }
        }
        const port = answers.get("REST GET /api/v1/ports/NLRTM")!.body!;
        const flag = answers.get("REST GET /api/v1/flags/NL")!.body!;
        if (denied === "unlocode") {
          assert.equal(port.name, null);
          assert.equal(port.country, null);
          assert.equal(port.data.identity, undefined);
          assert.equal(port.data.flag, null, "the flag link is the country UN/LOCODE gives");
        } else {
          assert.equal(port.name, "Rotterdam");
        }
        if (denied === "iso3166") {
          assert.equal(flag.name, null);
          assert.equal(flag.data.country, null);
        } else {
          assert.equal(flag.name, "Netherlands");
        }
        const waterways = answers.get("REST waterways.list")!.body!;
        const dover = waterways.data.find((w: { id: string }) => w.id === "chokepoint9");
        if (denied === "portwatch") {
          assert.deepEqual([dover.name, dover.point, dover.portwatch], [null, null, null], "PortWatch's name, point and id are its facts");
          assert.doesNotMatch(JSON.stringify(waterways), /Dover Strait/);
          assert.equal(waterways.data.find((w: { id: string }) => w.id === "kiel-canal").name, "Kiel Canal", "an extra gate is the service's own");
        } else {
          assert.equal(dover.name, "Dover Strait");
        }
        if (denied === "station") {
          const page = answers.get(`REST GET /api/v1/vessels/${IMO}`)!.body!;
          assert.equal(page.mmsi, null);
          assert.equal(page.imo, IMO, "the IMO the caller asked for stays");
          assert.doesNotMatch(answers.get("REST GET /api/v1/search?q=wombat")!.text, /DENIED WOMBAT|230999002/);
          const byMmsi = answers.get(`REST GET /api/v1/vessels/mmsi-${STATION_MMSI}`)!.body!;
          assert.equal(byMmsi.imo, null);
          assert.match(byMmsi.page, new RegExp(`/vessel/mmsi-${STATION_MMSI}$`));
          assert.match(byMmsi.api, new RegExp(`/api/v1/vessels/mmsi-${STATION_MMSI}$`));
          assert.ok(byMmsi.withheld.some((w: { section: string; sources: string[] }) => w.section === "identity" && w.sources.some((x) => x.startsWith("station:"))), JSON.stringify(byMmsi.withheld));
        }
      } finally {
        await s.cleanup();
      }
    });
  }
});

