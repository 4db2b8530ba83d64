/**
 * A vessel's events as a timeline beside its track map: encounters, AIS gaps, loitering,
 * identity changes and port calls, newest first, each with its dates, where, and its station;
 * the same events as marks on the map (the list is the map's text alternative).
 */
import type { SourceNames } from "./vessel-identity-history.ts";
import { portPagePath } from "../../../domain/pages/page-paths.ts";
import type { DataOf } from "../../../operations/answer.ts";
import type { vesselsEvents } from "../../../operations/vessels.events.ts";
import { type Html, html } from "../../shared/html.ts";
import type { MapContent } from "./page-parts.ts";
import { utc } from "./page-parts.ts";

export type EventRow = DataOf<typeof vesselsEvents>[number];

const TYPE_WORDS: Record<EventRow["type"], string> = {
  port_call: "Port call",
  encounter: "Encounter",
  loitering: "Loitering",
  ais_gap: "AIS gap",
  identity_change: "Identity change",
};

function duration(e: EventRow): string {
  if (e.end === null) return "still going";
  const h = (Date.parse(e.end) - Date.parse(e.start)) / 3_600_000;
  return h < 1 ? `${Math.round(h * 60)} min` : `${Math.round(h * 10) / 10} h`;
}

/** What happened, in words: the other ship of an encounter, the port of a call, the field of an identity change. */
function what(e: EventRow): Html {
  const d = e.details;
  if (e.type === "encounter" && e.counterpart) {
    const c = e.counterpart;
    return html`${TYPE_WORDS[e.type]} with ${c.name ?? "a ship"} (MMSI ${String(c.mmsi).padStart(9, "0")}${c.imo ? `, IMO ${c.imo}` : ""})`;
  }
  if (e.type === "port_call" && typeof d.unlocode === "string") {
    return html`${TYPE_WORDS[e.type]} at <a href="${portPagePath(d.unlocode)}">${typeof d.portName === "string" ? d.portName : d.unlocode}</a> (${d.unlocode})`;
  }
  if (e.type === "identity_change" && typeof d.field === "string") {
    return html`${TYPE_WORDS[e.type]}: ${d.field} ${String(d.old ?? "none")} to ${String(d.new ?? "none")}`;
  }
  return html`${TYPE_WORDS[e.type]}`;
}

/** The events as map marks: those with a place, labelled as the list labels them. */
export function eventMarks(events: readonly EventRow[]): NonNullable<MapContent["events"]> {
  return events.flatMap((e) => (e.position ? [{ lon: e.position.lon, lat: e.position.lat, type: e.type, label: `${TYPE_WORDS[e.type]}, ${utc(e.start)}` }] : []));
}

/**
 * The timeline, newest first. `more` says the window holds further events (the API pages them);
 * `count` is how many the vessel answer counted over the plan's history.
 */
export function eventsTimeline(events: readonly EventRow[], o: { count: number; more: boolean; api: string; named: SourceNames }): Html {
  if (events.length === 0) return html`<div class="events"><h3 id="events-h">Events</h3><p id="events-none">No events from stations whose data you may see.</p></div>`;
  const newest = [...events].reverse();
  return html`<div class="events"><h3 id="events-h">Events</h3>
<p class="hint">${o.more ? `The first ${events.length} of the window, newest first; ${o.count.toLocaleString("en-GB")} over your plan's history, all in the ` : `${events.length}, newest first; all in the `}<a href="${o.api}">events API</a>.</p>
<ol class="timeline" id="events-timeline">${newest.map(
    (e) => html`<li data-type="${e.type}"><time datetime="${e.start}">${utc(e.start)}</time> <strong>${what(e)}</strong>, ${duration(e)}${e.position ? `, at ${e.position.lat.toFixed(3)}, ${e.position.lon.toFixed(3)}` : ""}. <span class="hint-inline">Source ${o.named(e.sources)}.</span></li>`,
  )}</ol></div>`;
}
