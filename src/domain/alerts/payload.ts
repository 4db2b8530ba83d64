import { formatId } from "../ids.ts";
import { decide, type RightsPrincipal } from "../rights/decide.ts";
import type { SourceRegistry } from "../rights/source.ts";

/**
 * The webhook payload of an alert (docs/spec-excerpts.md, 6.2) and its content rules:
 *
 * 1. Identifiers (IMO, MMSI, name, UN/LOCODE), the alert's type and time, the user's own
 *    zone and search names, and `links` are always sent.
 * 2. A sourced fact is sent only when every source behind it permits redistribution
 *    through an API (and commercial use, on commercial plans): the rights engine decides
 *    with use `redistribution`. Otherwise `fact` and `text` are null and `withheld` names
 *    the sources with reason `source_rights`.
 * 3. Raw positions behind a derived event are left out unless their source is cleared the
 *    same way; the zone entry itself (the service's own evaluation) is still sent.
 * 4. The subject's identifiers are a fact of whoever reported them (a station's broadcast):
 *    when `subjectSources` are not cleared, the subject's ids, name, links to it and the
 *    text naming it are null, and `withheld` names those sources.
 *
 * `id` and `type` are in the body because the signature covers the body, not the headers:
 * receivers de-duplicate on the signed `id`.
 */

export const WEBHOOK_API_VERSION = "2026-07-01";

export const EVENT_TYPES = ["alert.zone_enter", "alert.sanctions", "alert.port_call", "alert.saved_search", "alert.encounter", "alert.loitering", "alert.ais_gap", "alert.identity_change"] as const;
export type AlertEventType = (typeof EVENT_TYPES)[number];
/** Sent only by "send test event"; never an alert. */
export const TEST_EVENT_TYPE = "webhook.test";
export type EventType = AlertEventType | typeof TEST_EVENT_TYPE;

/** The alert kinds: `alert.<kind>` is the event type. */
export type AlertKind = "zone_enter" | "sanctions" | "port_call" | "saved_search" | "encounter" | "loitering" | "ais_gap" | "identity_change";

export const WITHHELD_REASON_RIGHTS = "source_rights";

export interface AlertSubject {
  kind: "vessel" | "port";
  imo: number | null;
  mmsi: number | null;
  unlocode: string | null;
  name: string | null;
}

export interface SourcedPart {
  /** Where it goes: `fact` (the whole fact and the text) or a field of the fact, e.g. `position`. */
  field: string;
  sources: readonly string[];
  value: unknown;
}

export interface AlertContent {
  alertId: number;
  eventId: number;
  type: AlertKind;
  created: number;
  occurredAt: number;
  derived: boolean;
  subject: AlertSubject;
  /** Sources that reported the subject's identifiers and name; empty when the user named it (a follow). */
  subjectSources?: readonly string[];
  followId: string | null;
  /** The watchlist that holds the vessel, when that is why the account is alerted (a sanctions change). */
  watchlist?: { id: string; name: string } | null;
  zone: { id: string; name: string } | null;
  savedSearch: { id: string; name: string } | null;
  /** Fields of the fact that rest on no outside source (the service's evaluation, the user's own names). */
  factBase: Record<string, unknown> & { t: string };
  /** Sources the fact as a whole rests on; empty for derived facts. */
  factSources: readonly string[];
  text: string;
  /** Sources of what the text names besides the subject (a port's name); withheld with the text when one forbids. */
  textSources?: readonly string[];
  /** Further sourced fields of the fact, each kept or withheld on its own (positions). */
  parts: readonly SourcedPart[];
}

export interface PayloadContext {
  sources: SourceRegistry;
  rights: RightsPrincipal;
  baseUrl: string;
}

export function subjectRef(s: AlertSubject): string {
  if (s.kind === "port") return s.unlocode ?? "";
  return s.imo !== null ? String(s.imo) : `mmsi-${String(s.mmsi ?? 0).padStart(9, "0")}`;
}

export function subjectUrl(s: AlertSubject, baseUrl: string): string {
  return s.kind === "port" ? `${baseUrl}/api/v1/ports/${s.unlocode}` : `${baseUrl}/api/v1/vessels/${subjectRef(s)}`;
}

/** The event body as the exact text that is stored, signed and sent. */
export function alertEventBody(c: AlertContent, ctx: PayloadContext): string {
  const withheld: { fields: string[]; sources: string[]; reason: string }[] = [];
  const kept = new Set<string>();
  const judge = (sources: readonly string[]) => decide(ctx.sources, sources, ctx.rights, "redistribution");
  const blockers = (d: ReturnType<typeof judge>) => [...new Set(d.denials.map((x) => x.source))].sort();

  let fact: Record<string, unknown> | null = { ...c.factBase };
  let text: string | null = c.text;
  const factDecision = judge(c.factSources);
  if (!factDecision.allowed) {
    fact = null;
    text = null;
    withheld.push({ fields: ["fact", "text"], sources: blockers(factDecision), reason: WITHHELD_REASON_RIGHTS });
  } else {
    for (const s of c.factSources) kept.add(s);
    for (const part of c.parts) {
      const d = judge(part.sources);
      if (d.allowed) {
        fact[part.field] = part.value;
        for (const s of part.sources) kept.add(s);
      } else {
        withheld.push({ fields: [`fact.${part.field}`], sources: blockers(d), reason: WITHHELD_REASON_RIGHTS });
      }
    }
  }

  const textDecision = judge(c.textSources ?? []);
  if (text !== null && !textDecision.allowed) {
    text = null;
    withheld.push({ fields: ["text"], sources: blockers(textDecision), reason: WITHHELD_REASON_RIGHTS });
  } else if (text !== null) {
    for (const s of c.textSources ?? []) kept.add(s);
  }

  const subjectDecision = judge(c.subjectSources ?? []);
  const subjectShown = subjectDecision.allowed;
  if (subjectShown) {
    for (const s of c.subjectSources ?? []) kept.add(s);
  } else {
    // The text names the vessel, so it goes with the subject.
    if (text !== null) {
      text = null;
      withheld.push({ fields: ["subject", "text"], sources: blockers(subjectDecision), reason: WITHHELD_REASON_RIGHTS });
    } else {
      withheld.push({ fields: ["subject"], sources: blockers(subjectDecision), reason: WITHHELD_REASON_RIGHTS });
    }
  }
  const ref = subjectShown ? subjectRef(c.subject) : null;
  const url = subjectShown ? subjectUrl(c.subject, ctx.baseUrl) : null;
  const subject = subjectShown
    ? { kind: c.subject.kind, ref, imo: c.subject.imo, mmsi: c.subject.mmsi, unlocode: c.subject.unlocode, name: c.subject.name, url }
    : { kind: c.subject.kind, ref: null, imo: null, mmsi: null, unlocode: null, name: null, url: null };
  const body = {
    id: formatId("evt", c.eventId),
    type: `alert.${c.type}`,
    created: new Date(c.created).toISOString(),
    api_version: WEBHOOK_API_VERSION,
    data: {
      alert: {
        id: c.alertId,
        type: c.type,
        occurred_at: new Date(c.occurredAt).toISOString(),
        derived: c.derived,
        subject,
        links: {
          entity: url,
          zone: c.zone ? `${ctx.baseUrl}/api/v1/account/zones/${c.zone.id}` : null,
          saved_search: c.savedSearch ? `${ctx.baseUrl}/api/v1/account/saved-searches/${c.savedSearch.id}` : null,
        },
        follow_id: c.followId,
        watchlist: c.watchlist ?? null,
        zone: c.zone,
        saved_search: c.savedSearch,
        text,
        fact,
        sources: [...kept].map((id) => {
          const s = ctx.sources.get(id);
          return { id, name: s?.name ?? id, attribution: s?.attribution ?? "" };
        }),
        withheld,
      },
    },
  };
  return JSON.stringify(body);
}

/** The body of a test event: no alert, no sourced content. */
export function testEventBody(eventId: number, created: number, endpointId: string): string {
  return JSON.stringify({
    id: formatId("evt", eventId),
    type: TEST_EVENT_TYPE,
    created: new Date(created).toISOString(),
    api_version: WEBHOOK_API_VERSION,
    data: { endpoint: endpointId, message: "A test event sent from the account's webhooks page or API. It carries no alert." },
  });
}

/** Human text naming the vessel by what is known of it. */
export function vesselLabel(s: AlertSubject): string {
  const id = s.imo !== null ? `IMO ${s.imo}` : `MMSI ${String(s.mmsi ?? 0).padStart(9, "0")}`;
  return s.name ? `${s.name} (${id})` : id;
}
