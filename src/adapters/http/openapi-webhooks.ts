import { EVENT_TYPES, TEST_EVENT_TYPE } from "../../domain/alerts/payload.ts";

/** What raises each event type, in a line (docs/webhooks.md has the rules). */
const RAISED_WHEN: Record<(typeof EVENT_TYPES)[number] | typeof TEST_EVENT_TYPE, string> = {
  "alert.zone_enter": "A vessel heard by your own or shared stations entered one of your zones.",
  "alert.sanctions": "A vessel you follow was newly listed on a sanctions list.",
  "alert.port_call": "A vessel you follow arrived at or departed from a port, or a vessel arrived at a port you follow.",
  "alert.saved_search": "A vessel newly listed on a sanctions list matches one of your saved searches.",
  "alert.encounter": "A vessel you follow, or one inside one of your zones, met another ship at sea (within 500 m, both under 2 kn, 2 h or more).",
  "alert.loitering": "A vessel you follow, or one inside one of your zones, lay under 2 kn for 4 h or more, 20 nm or more from shore.",
  "alert.ais_gap": "A vessel you follow, or one last heard inside one of your zones, was silent for 6 h while its station heard ships near it.",
  "alert.identity_change": "A vessel you follow, or one last heard inside one of your zones, broadcast a new name, call sign, ship type or IMO, or an IMO another MMSI claims.",
  "webhook.test": "You asked for a test event; it carries no alert.",
};

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event type the service POSTs, with the
 * envelope every event shares and the headers that sign it (docs/webhooks.md).
 */
export function openApiWebhooks(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const type of [...EVENT_TYPES, TEST_EVENT_TYPE] as const) {
    out[type] = {
      post: {
        summary: type,
        description: `${RAISED_WHEN[type]} Signed with the endpoint's secret in the \`Service-Signature\` header (\`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">\`); see docs/webhooks.md.`,
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["id", "type", "created", "api_version", "data"],
                properties: {
                  id: { type: "string", description: "evt_...: the same on every retry; de-duplicate on it" },
                  type: { const: type },
                  created: { type: "string", format: "date-time" },
                  api_version: { type: "string" },
                  data: { type: "object", description: type === TEST_EVENT_TYPE ? "{ endpoint, message }" : "{ alert: { id, type, occurred_at, derived, subject, links, follow_id, zone, saved_search, text, fact, sources, withheld } }" },
                },
              },
            },
          },
        },
        responses: { "2XX": { description: "Received: any 2xx ends the delivery's retries." } },
      },
    };
  }
  return out;
}
