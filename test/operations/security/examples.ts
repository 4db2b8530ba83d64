/**
 * One valid example of each operation of the registry, and the parameter to break in it:
 * the generated security suites (REST and MCP) build every attack from these.
 */
import assert from "node:assert/strict";
import type { PlanId } from "../../../src/domain/plans.ts";
import type { TestService } from "../../helpers/service.ts";

const HARBOUR = { type: "Polygon", coordinates: [[[24.9, 60.1], [25.0, 60.1], [25.0, 60.2], [24.9, 60.2], [24.9, 60.1]]] };
/** 100 kB: far beyond any parameter and any body the service accepts. */
/** MAERSK ABERDEEN, a vessel of the bundled EU MRV data. */
const VESSEL = "9175793";
export const HUGE = "x".repeat(100_000);

export interface Owner {
  t: TestService;
  accountId: string;
  key: string;
}

export interface Example {
  /** Path parameters; `owned` makes objects of the caller's account and returns their ids. */
  path?: Record<string, string>;
  owned?: (o: Owner) => Promise<Record<string, string>>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  /** One parameter made invalid: the answer must be 400 naming it. */
  bad: { param: string; query?: Record<string, string>; path?: Record<string, string>; body?: Record<string, unknown> };
  /** The plan of the caller when the default (scale) lacks what the operation needs. */
  plan?: PlanId;
}

async function createEndpoint(o: Owner): Promise<string> {
  const res = await request(o.t, o.key, "POST", "/api/v1/account/webhooks", { url: "https://hooks.example.com/in" });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.id;
}

async function created(o: Owner, url: string, body: Record<string, unknown>): Promise<string> {
  const res = await request(o.t, o.key, "POST", url, body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.id;
}

const endpoint = async (o: Owner) => ({ id: await createEndpoint(o) });
// EBANO (7406784) is on the demo OFAC extract: the screening rests on a list the rights suite can deny.
const watchlist = async (o: Owner) => ({ id: await created(o, "/api/v1/account/watchlists", { name: "Fleet", ids: ["9292058", "7406784"] }) });

export const EXAMPLES: Record<string, Example> = {
  "ports.list": { query: { country: "NL" }, bad: { param: "limit", query: { limit: "0" } } },
  "ports.get": { path: { unlocode: "NLRTM" }, bad: { param: "unlocode", path: { unlocode: "NL-RT" } } },
  "flags.get": { path: { iso2: "NL" }, bad: { param: "iso2", path: { iso2: "NLD" } } },
  "companies.get": { path: { entityId: "marad-name-alaska-tanker-co-llc" }, bad: { param: "entityId", path: { entityId: "imo-12" } } },
  "wrecks.get": { path: { id: "14296" }, bad: { param: "id", path: { id: "algeria" } } },
  "usage.get": { bad: { param: "nope", query: { nope: "1" } } },
  "sources.list": { bad: { param: "nope", query: { nope: "1" } } },
  "me.feed": { query: { maxAge: "60" }, plan: "team", bad: { param: "maxAge", query: { maxAge: "0" } } },
  "me.stations": { bad: { param: "nope", query: { nope: "1" } } },
  "sanctions.list": { path: { list: "ofac" }, bad: { param: "list", path: { list: "mars" } } },
  // The demo's OFAC extract is as of 2024-05-03: its listings answer, resting on a list the rights suite can deny.
  "sanctions.changes": { query: { lists: "ofac", since: "2024-05-01", until: "2024-05-31", limit: "5" }, bad: { param: "action", query: { lists: "ofac", action: "renamed" } } },
  // EBANO (7406784) is on the demo OFAC extract: the answer rests on a list the rights suite can deny.
  screen: { query: { ids: "9292058,7406784" }, bad: { param: "ids", query: { ids: "12" } } },
  // A receipt of the account's own screening: another account's caller must get the 404 of an id that never existed.
  "screenings.get": {
    owned: async (o) => {
      const res = await request(o.t, o.key, "GET", "/api/v1/screen?ids=9292058,7406784");
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return { id: res.body.screeningId };
    },
    bad: { param: "id", path: { id: "scr_x" } },
  },
  "vessels.get": { path: { id: VESSEL }, bad: { param: "id", path: { id: "9175794" } } },
  "vessels.track": { path: { id: VESSEL }, query: { hours: "24" }, bad: { param: "hours", path: { id: VESSEL }, query: { hours: "169" } } },
  search: { query: { q: "rotterdam" }, bad: { param: "q", query: { q: "x" } } },
  "vessels.port-calls": { path: { id: VESSEL }, query: { limit: "10" }, bad: { param: "from", path: { id: VESSEL }, query: { from: "yesterday" } } },
  "ports.calls": { path: { unlocode: "NLRTM" }, bad: { param: "unlocode", path: { unlocode: "NL-RT" } } },
  "port-calls.list": { query: { port: "NLRTM" }, bad: { param: "limit", query: { port: "NLRTM", limit: "101" } } },
  "vessels.events": { path: { id: VESSEL }, query: { type: "encounter,port_call", limit: "10" }, bad: { param: "type", path: { id: VESSEL }, query: { type: "meeting" } } },
  "events.list": { query: { bbox: "3.5,51.5,5.0,52.5" }, bad: { param: "bbox", query: { bbox: "19,59,23" } } },
  "waterways.list": { bad: { param: "nope", query: { nope: "1" } } },
  "waterways.transits": { path: { id: "chokepoint9" }, query: { days: "7" }, bad: { param: "days", path: { id: "chokepoint9" }, query: { days: "0" } } },
  "account.webhooks.create": { body: { url: "https://hooks.example.com/in" }, bad: { param: "url", body: { url: "http://hooks.example.com/in" } } },
  "account.webhooks.list": { bad: { param: "nope", query: { nope: "1" } } },
  "account.webhooks.get": { owned: endpoint, bad: { param: "id", path: { id: "wh_x" } } },
  "account.webhooks.update": { owned: endpoint, body: { description: "renamed" }, bad: { param: "url", body: { url: "https://127.0.0.1/in" } } },
  "account.webhooks.delete": { owned: endpoint, bad: { param: "id", path: { id: "zone_1" } } },
  "account.webhooks.test": { owned: endpoint, bad: { param: "id", path: { id: "wh_" } } },
  "account.webhooks.rotate": { owned: endpoint, body: { graceHours: 24 }, bad: { param: "graceHours", body: { graceHours: -1 } } },
  "account.webhooks.enable": { owned: endpoint, bad: { param: "id", path: { id: "wh_-1" } } },
  "account.webhooks.disable": { owned: endpoint, bad: { param: "id", path: { id: "wh_0x1" } } },
  "account.webhooks.deliveries": { owned: endpoint, bad: { param: "limit", query: { limit: "101" } } },
  "account.deliveries.retry": {
    owned: async (o) => {
      const ep = await createEndpoint(o);
      const dlv = await o.t.service.services.webhooks.createSingleDelivery(o.accountId, Number(ep.slice(3)), "webhook.test", (id) => `{"id":"evt_${id}"}`, "test", o.t.clock.now());
      return { id: `dlv_${dlv}` };
    },
    bad: { param: "id", path: { id: "wh_1" } },
  },
  "account.zones.create": { body: { name: "Harbour", geometry: HARBOUR }, bad: { param: "geometry", body: { name: "Harbour", geometry: { type: "Point", coordinates: [25, 60] } } } },
  "account.zones.list": { bad: { param: "nope", query: { nope: "1" } } },
  "account.zones.delete": { owned: async (o) => ({ id: await created(o, "/api/v1/account/zones", { name: "Harbour", geometry: HARBOUR }) }), bad: { param: "id", path: { id: "wh_1" } } },
  "account.follows.create": { body: { mmsi: "230123456" }, bad: { param: "mmsi", body: { mmsi: "12" } } },
  "account.follows.list": { bad: { param: "nope", query: { nope: "1" } } },
  "account.follows.delete": { owned: async (o) => ({ id: await created(o, "/api/v1/account/follows", { mmsi: "230123456" }) }), bad: { param: "id", path: { id: "wh_1" } } },
  "account.saved-searches.create": { body: { name: "tankers", q: "tanker" }, bad: { param: "q", body: { name: "tankers", q: "x" } } },
  "account.watchlists.create": { body: { name: "Fleet", ids: ["9292058", "7406784"] }, bad: { param: "ids", body: { name: "Fleet", ids: ["9292058", "12"] } } },
  "account.watchlists.list": { bad: { param: "nope", query: { nope: "1" } } },
  "account.watchlists.get": { owned: watchlist, bad: { param: "limit", query: { limit: "0" } } },
  "account.watchlists.update": { owned: watchlist, body: { name: "Renamed" }, bad: { param: "ids", body: { ids: ["mmsi-1"] } } },
  "account.watchlists.delete": { owned: watchlist, bad: { param: "id", path: { id: "zone_1" } } },
  "account.watchlists.screen": { owned: watchlist, bad: { param: "cursor", query: { cursor: "x" } } },
  "account.saved-searches.list": { bad: { param: "nope", query: { nope: "1" } } },
  "account.saved-searches.delete": {
    owned: async (o) => ({ id: await created(o, "/api/v1/account/saved-searches", { name: "tankers", q: "tanker" }) }),
    bad: { param: "id", path: { id: "wh_1" } },
  },
};

export async function request(t: TestService, key: string | null, method: string, url: string, body?: unknown) {
  // Each call a second later on the service's clock: the suite tests keys, not rate limits.
  t.clock.t += 1_000;
  const res = await t.service.app.inject({
    method: method as "GET",
    url,
    headers: key ? { authorization: `Bearer ${key}` } : {},
    ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
  });
  return { status: res.statusCode, body: res.json() as Record<string, any> };
}

