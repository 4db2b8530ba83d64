import { type AlertSubject, vesselLabel } from "../../domain/alerts/payload.ts";
import { PORT_CALL_METHOD, PORT_CALL_VERSION, type PortCallEvent } from "../../domain/derived/port-call-detector.ts";
import { formatId } from "../../domain/ids.ts";
import type { SourceRegistry } from "../../domain/rights/source.ts";
import type { AccountStore } from "../../interfaces/accounts.ts";
import type { AlertStore, Follow } from "../../interfaces/alerts.ts";
import type { IngestStation, PositionStore } from "../../interfaces/positions.ts";
import type { PortStore } from "../../interfaces/reference.ts";
import type { NewAlert } from "../../interfaces/webhooks.ts";
import { followMatchesVessel, type HeardIdentity, heardIdentities } from "./heard-identities.ts";
import { commercialUse, newAlert } from "./new-alert.ts";

export interface PortCallAlertsDeps {
  alerts: AlertStore;
  accounts: AccountStore;
  positions: PositionStore;
  ports: PortStore;
  sources: SourceRegistry;
  station(id: number): Promise<IngestStation | null>;
  baseUrl: string;
}

/**
 * `alert.port_call` (docs/webhooks.md): a followed vessel's arrival at and departure from a
 * port, and a followed port's arrivals. A call counts for an account only when the station
 * it was derived from is the account's own or shared, as for zone alerts: another
 * account's private station never raises (or reveals) anything. The alerts are recorded
 * by the derived-facts commit, with the facts and the queue move, so none is lost or
 * raised twice; two stations deriving the same call dedupe on vessel, port, event and
 * arrival hour.
 */
export async function portCallAlerts(d: PortCallAlertsDeps, events: readonly PortCallEvent[]): Promise<NewAlert[]> {
  const wanted = events.filter((e) => e.kind === "arrival" || e.kind === "departure");
  if (wanted.length === 0) return [];
  const { byKey: identities, imos } = await heardIdentities(d.positions, wanted.map((e) => e.call));
  const mmsis = [...new Set(wanted.map((e) => e.call.mmsi))];
  const unlocodes = [...new Set(wanted.filter((e) => e.kind === "arrival").map((e) => e.call.unlocode))];
  const [vesselFollows, portFollows] = await Promise.all([d.alerts.vesselFollowers(imos, mmsis), d.alerts.portFollowers(unlocodes)]);
  if (vesselFollows.length === 0 && portFollows.length === 0) return [];

  const stations = new Map<number, IngestStation | null>();
  const commercial = new Map<string, boolean>();
  const portNames = new Map<string, string>();
  const out: NewAlert[] = [];
  for (const e of wanted) {
    const c = e.call;
    const identity = identities.get(`${c.stationId}:${c.mmsi}`)!;
    if (!stations.has(c.stationId)) stations.set(c.stationId, await d.station(c.stationId));
    const station = stations.get(c.stationId);
    if (!station) continue;
    const sees = (accountId: string) => station.shared || station.accountId === accountId;
    const follows: Follow[] = [];
    for (const f of vesselFollows) if (followMatchesVessel(f, c.mmsi, identity) && sees(f.accountId)) follows.push(f);
    if (e.kind === "arrival") for (const f of portFollows) if (f.unlocode === c.unlocode && sees(f.accountId)) follows.push(f);
    const done = new Set<string>();
    for (const follow of follows) {
      if (done.has(follow.accountId)) continue;
      done.add(follow.accountId);
      if (!commercial.has(follow.accountId)) commercial.set(follow.accountId, await commercialUse(d.accounts, follow.accountId));
      if (!portNames.has(c.unlocode)) portNames.set(c.unlocode, (await d.ports.get(c.unlocode))?.name ?? c.unlocode);
      out.push(alertOf(d, e, follow, identity, portNames.get(c.unlocode)!, commercial.get(follow.accountId)!));
    }
  }
  return out;
}

/** Where a port's name comes from (as ports.get sources it). */
const PORT_NAME_SOURCE = "unlocode";

function alertOf(d: PortCallAlertsDeps, e: PortCallEvent, follow: Follow, identity: HeardIdentity, portName: string, commercial: boolean): NewAlert {
  const c = e.call;
  const event = e.kind as "arrival" | "departure";
  const occurredAt = event === "arrival" ? c.arrival : c.departure!;
  const subject: AlertSubject = { kind: "vessel", imo: identity.imo, mmsi: c.mmsi, unlocode: c.unlocode, name: identity.name };
  const source = `station:${c.stationId}`;
  const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
  const verb = event === "arrival" ? "arrived at" : "departed from";
  return newAlert(
    {
      accountId: follow.accountId,
      type: "port_call",
      occurredAt,
      dedupeKey: `port_call:${event}:${c.mmsi}:${c.unlocode}:${Math.floor(c.arrival / 3_600_000)}:${follow.accountId}`,
      detail: { followId: follow.id, mmsi: c.mmsi, unlocode: c.unlocode, callId: c.id, stationId: c.stationId },
    },
    {
      derived: true,
      subject,
      subjectSources: [source],
      followId: formatId("follow", follow.id),
      zone: null,
      savedSearch: null,
      // The port's code is what the call was judged against; its name is UN/LOCODE's fact.
      factBase: { t: "port_call", event, port: { unlocode: c.unlocode }, method: PORT_CALL_METHOD, version: PORT_CALL_VERSION, confidence: c.confidence },
      factSources: [],
      text: `${vesselLabel(subject)} ${verb} ${portName} (${c.unlocode}).`,
      textSources: [PORT_NAME_SOURCE],
      parts: [
        { field: "port", sources: [PORT_NAME_SOURCE], value: { unlocode: c.unlocode, name: portName } },
        {
          field: "call",
          sources: [source],
          value: {
            arrival: iso(c.arrival),
            departure: iso(c.departure),
            durationHours: c.departure === null ? null : Math.round(((c.departure - c.arrival) / 3_600_000) * 10) / 10,
            arrivalObserved: c.arrivalObserved,
            departureObserved: c.departureObserved,
            source,
          },
        },
      ],
    },
    { sources: d.sources, rights: { commercialUse: commercial }, baseUrl: d.baseUrl },
  );
}
