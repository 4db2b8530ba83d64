/**
 * The world the generated rights suite (rights.test.ts) judges: one service with the bundled
 * data, the demo's sanctions extracts, and a shared station whose AIS links an MMSI to a
 * bundled IMO, calls at Rotterdam and crosses the Dover strait; the callers it asks as; and
 * one way to ask each face (REST, MCP, page). Sources are denied in place, on the service's
 * own registry, so one service serves every pass.
 */
import assert from "node:assert/strict";
import { loadDemoSanctionsExtracts } from "../../../src/cli/demo.ts";
import type { DerivedFix } from "../../../src/domain/derived/fix.ts";
import type { Source, SourceRegistry } from "../../../src/domain/rights/source.ts";
import type { Admission } from "../../../src/interfaces/admission.ts";
import { PROJECT_ROOT } from "../../../src/main.ts";
import { positionLine, staticLines } from "../../helpers/ingest.ts";
import { type Engine, startTestService, type TestService } from "../../helpers/service.ts";
import { sailVoyage } from "../../helpers/voyage.ts";
import { fix, writeFixes } from "../../helpers/vessels.ts";
import { Browser, makeUser } from "../../adapters/web/helpers.ts";

/** MAERSK ABERDEEN of the bundled EU MRV data; only the test's station links it to this MMSI. */
export const IMO = 9175793;
export const LINKED_MMSI = 230_999_001;
/** A ship only the station heard: its name and MMSI exist nowhere else. */
export const HEARD_MMSI = 230_999_002;
export const HEARD_NAME = "DENIED WOMBAT";
/** A ship only the team caller's own (private) station heard: its private feed. */
export const OWN_MMSI = 230_999_003;

const SEA: [number, number] = [3.7, 52.05];
const MOUTH: [number, number] = [4.02, 51.985];
const BERTH: [number, number] = [4.483333, 51.9];
const HOUR = 3_600_000;

export type Permissions = Source["permissions"];

/**
 * Every call is let through at once and charged nothing: the suite asks thousands of
 * questions at one instant of the test clock (so answers can be compared with the
 * baseline's), which the rate limits and credits would refuse. Metering is the security
 * suite's business, not this one's.
 */
const OPEN_ADMISSION: Admission = {
  admit: async (r) => ({ rate: { allowed: true, limit: r.perSecond, remaining: r.perSecond, resetMs: 1_000 }, charge: null }),
  close: async () => {},
};

export interface World {
  t: TestService;
  stationId: number;
  /** Keys by plan (accounts of their own, none of them the station's owner). */
  keys: { sandbox: string; scale: string; team: string };
  /** A signed-in page viewer on Pro (a commercial plan). */
  viewer: Browser;
  close(): Promise<void>;
}

export async function startWorld(engine: Engine): Promise<World> {
  const t = await startTestService({ engine });
  try {
    const admission = t.service.services.admission;
    t.service.services.admission = OPEN_ADMISSION;
    // Screening with no list loaded is a 503 (nothing could be checked): the demo's dated extracts give it lists to deny.
    await loadDemoSanctionsExtracts(t.service, PROJECT_ROOT);
    // A shared station granting every use: what it reports is denied only by the operator's `station` entry.
    const { accountId: ownerId } = await t.key("pro", "station owner");
    const { station } = await t.service.services.stations.createStation(ownerId, "shared mast");
    await t.service.services.stations.updateStation(station.id, { shared: true, redistribution: true, commercial: true });
    t.service.ingest.directory.forget();
    const now = t.clock.now();
    const lines = (fixes: readonly DerivedFix[]) => fixes.map((f) => positionLine({ mmsi: f.mmsi, lat: f.lat, lon: f.lon, sog: f.sog ?? 0, navStatus: f.navStatus ?? 0 }, Math.floor(f.time / 1000) * 1000));
    // The linked ship calls at Rotterdam for three hours; the heard ship crosses the Dover strait south-west.
    const call = sailVoyage(
      [{ sail: MOUTH, knots: 14 }, { sail: [4.3, 51.905], knots: 10 }, { sail: BERTH, knots: 8 }, { stop: 3, port: "NLRTM" }, { sail: [4.3, 51.905], knots: 8 }, { sail: MOUTH, knots: 10 }, { sail: SEA, knots: 14 }],
      { mmsi: LINKED_MMSI, stationId: station.id, start: now - 11 * HOUR, from: SEA },
    );
    const dover = sailVoyage([{ sail: [1.2, 50.8], knots: 15 }], { mmsi: HEARD_MMSI, stationId: station.id, start: now - 2 * HOUR, from: [2.0, 51.3] });
    const all = [
      ...staticLines({ mmsi: LINKED_MMSI, imo: IMO, shipname: "MAERSK ABERDEEN", shipType: 70 }),
      ...staticLines({ mmsi: HEARD_MMSI, shipname: HEARD_NAME, shipType: 80 }, 2),
      ...lines(call.fixes.filter((f) => f.time < now)),
      ...lines(dover.fixes.filter((f) => f.time < now)),
    ];
    const ingest = (await t.service.ingest.directory.byId(station.id))!;
    for (let at = 0; at < all.length; at += 500) {
      const r = t.service.ingest.pipeline.submit(ingest, all.slice(at, at + 500), { source: "rights-suite", transport: "http" });
      await t.service.ingest.pipeline.flush();
      await r.stored;
    }
    await t.service.derived!.idle();
    await t.service.services.vessels.refresh(now);

    const key = async (plan: "sandbox" | "scale" | "team") => (await t.key(plan, `${plan} caller`)).key;
    const team = await t.key("team", "team caller");
    const keys = { sandbox: await key("sandbox"), scale: await key("scale"), team: team.key };
    // The team caller's own private station: its feed (me.feed) rests on the operator's `station` entry.
    const { station: own } = await t.service.services.stations.createStation(team.accountId, "own mast");
    await writeFixes(t, [fix(own.id, OWN_MMSI, now - 60_000)]);
    await makeUser(t, "viewer@example.test", "pro");
    const viewer = new Browser(t);
    const signedIn = await viewer.signIn("viewer@example.test");
    assert.equal(signedIn.statusCode, 303, signedIn.body);
    return {
      t,
      stationId: station.id,
      keys,
      viewer,
      async close() {
        t.service.services.admission = admission;
        await t.close();
      },
    };
  } catch (e) {
    await t.close();
    throw e;
  }
}

/**
 * Sets a source entry's permissions on the service's registry, in place: the registry hands
 * out its own entry objects, and every decision is made per call (CallerRights), so nothing
 * holds an older decision. Shared stations' sources are capped by the `station` entry at
 * every look-up, so changing it reaches them too. One thing is built from the registry once
 * and does not follow: the MCP server's rights document (adapters/mcp/rights-doc.ts, made
 * at registerMcp), which no answer here reads. Returns the undo.
 */
export function setPermissions(registry: SourceRegistry, id: string, permissions: Permissions): () => void {
  const entry = registry.get(id);
  assert.ok(entry, `source ${id} in the registry`);
  const before = entry.permissions;
  entry.permissions = permissions;
  assert.equal(registry.get(id)!.permissions, permissions, "the registry hands out its own entry (the suite changes it in place)");
  return () => {
    entry.permissions = before;
  };
}

export interface Reply {
  status: number;
  /** The envelope (REST), the structured content (MCP), or null (a page). */
  body: Record<string, any> | null;
  /** What a reader sees: the JSON, or the page's <main>. */
  text: string;
}

export async function rest(t: TestService, key: string | null, method: string, url: string, body?: unknown, remoteAddress = "127.0.0.1"): Promise<Reply> {
  const res = await t.service.app.inject({
    method: method as "GET",
    url,
    remoteAddress,
    headers: key ? { authorization: `Bearer ${key}` } : {},
    ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
  });
  const json = res.body.startsWith("{") ? (JSON.parse(res.body) as Record<string, any>) : null;
  return { status: res.statusCode, body: json, text: res.body };
}

export async function mcp(t: TestService, key: string, name: string, args: Record<string, unknown>): Promise<Reply> {
  const res = await t.service.app.inject({
    method: "POST",
    url: "/mcp",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25", authorization: `Bearer ${key}` },
    payload: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  const data = res.body.startsWith("{") ? res.body : (/^data: (.*)$/m.exec(res.body)?.[1] ?? "null");
  const message = JSON.parse(data) as { result?: { isError?: boolean; structuredContent?: Record<string, any>; content?: { text?: string }[] } } | null;
  const text = message?.result?.content?.map((c) => c.text ?? "").join("\n") ?? data;
  const body = message?.result?.structuredContent ?? null;
  return { status: message?.result?.isError ? 400 : res.statusCode, body, text: `${text}\n${JSON.stringify(body)}` };
}

/** A page as a visitor (anonymous, or the signed-in viewer) sees it, following one redirect (a slug that changed with a withheld name). */
export async function page(t: TestService, url: string, viewer: Browser | null): Promise<Reply> {
  const get = (u: string) => t.service.app.inject({ method: "GET", url: u, headers: viewer ? { cookie: viewer.cookieHeader } : {} });
  let res = await get(url);
  if (res.statusCode === 301) res = await get(String(res.headers.location));
  const main = res.body.slice(res.body.indexOf("<main"), res.body.indexOf("</main>"));
  return { status: res.statusCode, body: null, text: main };
}
