import { type AlertKind, type AlertSubject, vesselLabel } from "../../domain/alerts/payload.ts";
import { pointInPolygon } from "../../domain/alerts/geometry.ts";
import { formatId } from "../../domain/ids.ts";
import type { VesselEvent } from "../../domain/derived/vessel-event.ts";
import type { Follow, Zone } from "../../interfaces/alerts.ts";
import type { NewAlert } from "../../interfaces/webhooks.ts";
import { followMatchesVessel, type HeardIdentity, heardIdentities } from "./heard-identities.ts";
import { commercialUse, newAlert } from "./new-alert.ts";
import type { PortCallAlertsDeps } from "./port-call-alerts.ts";

/** The behaviour events that raise alerts, each its own `alert.<type>`. */
const ALERTED = new Set<string>(["encounter", "loitering", "ais_gap", "identity_change"]);

/**
 * `alert.encounter`, `alert.loitering`, `alert.ais_gap` and `alert.identity_change`
 * (docs/webhooks.md): a behaviour event of a vessel an account follows, or that happened
 * inside one of its zones. As for port calls, the event counts for an account only when its
 * station is the account's own or shared. An event written again (an open loitering that
 * grows, an encounter judged from the other ship's side) raises nothing new: the alert's
 * dedupe key is the event's id and the account.
 */
export async function vesselEventAlerts(d: PortCallAlertsDeps, events: readonly VesselEvent[]): Promise<NewAlert[]> {
  const wanted = [...new Map(events.filter((e) => ALERTED.has(e.type)).map((e) => [e.id, e])).values()];
  if (wanted.length === 0) return [];
  const { byKey: identities, imos } = await heardIdentities(d.positions, wanted);
  const [follows, zones] = await Promise.all([d.alerts.vesselFollowers(imos, [...new Set(wanted.map((e) => e.mmsi))]), d.alerts.allZones()]);
  if (follows.length === 0 && zones.length === 0) return [];
  const commercial = new Map<string, boolean>();
  const out: NewAlert[] = [];
  for (const e of wanted) {
    const station = await d.station(e.stationId);
    if (!station) continue;
    const sees = (accountId: string) => station.shared || station.accountId === accountId;
    const identity = identities.get(`${e.stationId}:${e.mmsi}`)!;
    const why = new Map<string, { follow: Follow | null; zone: Zone | null }>();
    for (const f of follows) if (followMatchesVessel(f, e.mmsi, identity) && sees(f.accountId) && !why.has(f.accountId)) why.set(f.accountId, { follow: f, zone: null });
    if (e.lat !== null && e.lon !== null) {
      for (const z of zones) if (!why.has(z.accountId) && sees(z.accountId) && insideBox(z, e.lat, e.lon) && pointInPolygon(e.lon, e.lat, z.geometry)) why.set(z.accountId, { follow: null, zone: z });
    }
    for (const [accountId, { follow, zone }] of why) {
      if (!commercial.has(accountId)) commercial.set(accountId, await commercialUse(d.accounts, accountId));
      out.push(alertOf(d, e, accountId, follow, zone, identity, commercial.get(accountId)!));
    }
  }
  return out;
}

function insideBox(z: Zone, lat: number, lon: number): boolean {
  return lon >= z.bbox.minLon && lon <= z.bbox.maxLon && lat >= z.bbox.minLat && lat <= z.bbox.maxLat;
}

/** What the text says happened, naming only the vessel (the subject) and the service's own figures. */
function what(e: VesselEvent): string {
  const hours = typeof e.details.hours === "number" ? `${e.details.hours} h` : "";
  if (e.type === "encounter") return `met MMSI ${String(e.counterpartMmsi).padStart(9, "0")} at sea for ${hours}`;
  if (e.type === "loitering") return e.end === null ? `has been loitering at sea for over ${hours}` : `loitered at sea for ${hours}`;
  if (e.type === "ais_gap") return e.end === null ? `has not been heard for over ${hours} while ships near it were` : `was not heard for ${hours} while ships near it were`;
  const d = e.details;
  if (d.kind === "conflict") return `broadcast IMO ${String(d.imo)}, as MMSI ${String(d.otherMmsi).padStart(9, "0")} did within the hour`;
  if (d.kind === "change") return `took over IMO ${String(d.imo)} from MMSI ${String(d.old).padStart(9, "0")}`;
  return `changed its broadcast ${String(d.field)} from ${JSON.stringify(d.old)} to ${JSON.stringify(d.new)}`;
}

function alertOf(d: PortCallAlertsDeps, e: VesselEvent, accountId: string, follow: Follow | null, zone: Zone | null, identity: HeardIdentity, commercial: boolean): NewAlert {
  const subject: AlertSubject = { kind: "vessel", imo: identity.imo, mmsi: e.mmsi, unlocode: null, name: identity.name };
  const source = `station:${e.stationId}`;
  const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
  return newAlert(
    {
      accountId,
      type: e.type as AlertKind,
      occurredAt: e.start,
      dedupeKey: `${e.id}:${accountId}`,
      detail: { followId: follow?.id ?? null, zoneId: zone?.id ?? null, mmsi: e.mmsi, eventId: e.id, stationId: e.stationId },
    },
    {
      derived: true,
      subject,
      subjectSources: [source],
      followId: follow ? formatId("follow", follow.id) : null,
      zone: zone ? { id: formatId("zone", zone.id), name: zone.name } : null,
      savedSearch: null,
      factBase: { t: e.type, method: e.method, version: e.version, confidence: e.confidence },
      factSources: [],
      // The text names the counterpart of an encounter, heard by the same station as the subject.
      text: `${vesselLabel(subject)} ${what(e)}.`,
      parts: [
        {
          field: "event",
          sources: [source],
          value: { start: iso(e.start), end: iso(e.end), counterpartMmsi: e.counterpartMmsi, details: e.details, inputs: e.inputs, source },
        },
        ...(e.lat !== null && e.lon !== null ? [{ field: "position", sources: [source], value: { lat: e.lat, lon: e.lon, source } }] : []),
      ],
    },
    { sources: d.sources, rights: { commercialUse: commercial }, baseUrl: d.baseUrl },
  );
}
