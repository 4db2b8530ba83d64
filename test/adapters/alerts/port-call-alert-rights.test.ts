/**
 * What an `alert.port_call` sends when UN/LOCODE may not be redistributed: the port's name
 * is its fact, so it leaves the payload (fact and text) and `withheld` names `unlocode`;
 * the port's code, the event and the call stay. Built by the same code the derivation
 * commit uses (port-call-alerts.ts), with the stores it reads stood in for.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { portCallAlerts, type PortCallAlertsDeps } from "../../../src/adapters/alerts/port-call-alerts.ts";
import type { PortCall } from "../../../src/domain/derived/port-call-detector.ts";
import { SourceRegistry, type Source } from "../../../src/domain/rights/source.ts";
import { PROJECT_ROOT } from "../../../src/main.ts";

const SHIPPED = (JSON.parse(readFileSync(join(PROJECT_ROOT, "config/sources.json"), "utf8")) as { sources: Source[] }).sources;
const ARRIVAL = Date.parse("2026-11-20T03:00:00Z");
const CALL: PortCall = {
  id: "7:244100001:NLRTM:1", stationId: 7, mmsi: 244_100_001, unlocode: "NLRTM", enteredAt: ARRIVAL - 600_000, arrival: ARRIVAL, berthArrival: ARRIVAL, departure: null, leftAt: null,
  waitingFrom: null, arrivalObserved: true, departureObserved: false, confidence: 3, maxGapMinutes: 3, positions: 60, geometry: "default_radius",
};

async function payload(unlocodeRedistributes: boolean): Promise<Record<string, any>> {
  const sources = new SourceRegistry(SHIPPED.map((s) => (s.id === "unlocode" ? { ...s, permissions: { ...s.permissions, redistribution: unlocodeRedistributes } } : s)));
  const deps = {
    alerts: { vesselFollowers: async () => [{ id: 1, accountId: "acc_1", imo: null, mmsi: 244_100_001 }], portFollowers: async () => [] },
    accounts: { getAccount: async () => ({ webPlan: "pro", apiPlan: null }) },
    positions: { identities: async () => [{ imo: 9_074_729, name: "MAAS TRADER" }] },
    ports: { get: async () => ({ name: "Rotterdam" }) },
    sources,
    station: async () => ({ id: 7, accountId: "acc_1", shared: false }),
    baseUrl: "https://mds.example",
  } as unknown as PortCallAlertsDeps;
  const [alert] = await portCallAlerts(deps, [{ kind: "arrival", call: CALL }]);
  return JSON.parse(alert!.body({ alertId: 1, eventId: 2, created: ARRIVAL })).data.alert;
}

it("cleared: the port's name in the fact and the text", async () => {
  const a = await payload(true);
  assert.deepEqual(a.fact.port, { unlocode: "NLRTM", name: "Rotterdam" });
  assert.match(a.text, /arrived at Rotterdam \(NLRTM\)/);
  assert.deepEqual(a.withheld, []);
  assert.ok(a.sources.some((s: { id: string }) => s.id === "unlocode"));
});

it("UN/LOCODE not redistributable: no port name anywhere, the code and the call stay, withheld names unlocode", async () => {
  const a = await payload(false);
  assert.doesNotMatch(JSON.stringify(a), /Rotterdam/);
  assert.deepEqual(a.fact.port, { unlocode: "NLRTM" });
  assert.equal(a.text, null);
  assert.equal(a.fact.call.arrival, new Date(ARRIVAL).toISOString());
  assert.deepEqual(a.withheld.map((w: { fields: string[]; sources: string[] }) => [w.fields, w.sources]).sort(), [[["fact.port"], ["unlocode"]], [["text"], ["unlocode"]]]);
  assert.ok(!a.sources.some((s: { id: string }) => s.id === "unlocode"));
});
