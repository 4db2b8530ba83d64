/**
 * What a delivery log row says of its event so a person can read it: the vessel or port it
 * is about and what happened (a sanctions change's `listed`, `delisted`, `changed`). Read
 * from the event body as it was sent, so the log never shows what the content rules
 * withheld from the receiver (a withheld subject or fact reads as null here too).
 */
export interface EventSummary {
  subject: { ref: string | null; imo: number | null; mmsi: number | null; unlocode: string | null; name: string | null } | null;
  action: string | null;
}

export function eventSummary(body: string): EventSummary {
  let alert: { subject?: Record<string, unknown> | null; fact?: Record<string, unknown> | null } | undefined;
  try {
    alert = (JSON.parse(body) as { data?: { alert?: typeof alert } }).data?.alert;
  } catch {
    return { subject: null, action: null };
  }
  const s = alert?.subject;
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  const num = (v: unknown) => (typeof v === "number" ? v : null);
  return {
    subject: s ? { ref: text(s.ref), imo: num(s.imo), mmsi: num(s.mmsi), unlocode: text(s.unlocode), name: text(s.name) } : null,
    action: text(alert?.fact?.action),
  };
}
