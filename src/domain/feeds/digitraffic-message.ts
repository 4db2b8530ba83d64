import { dimensions, type FeedParse, inRange, isRecord, num, packedEta, validImo, validMmsi, aisText } from "./report.ts";

/**
 * Digitraffic Marine's MQTT messages (topics `vessels-v2/<mmsi>/location` and
 * `vessels-v2/<mmsi>/metadata`; the MMSI is only in the topic). Field meanings follow
 * Digitraffic's published message classes: location `time` is epoch seconds, metadata
 * `timestamp` epoch milliseconds, `draught` tenths of a metre, `eta` the AIS packed value.
 */
const TOPIC = /^vessels-v2\/(\d{1,9})\/(location|metadata)$/;

export function parseDigitraffic(topic: string, payload: string, receivedAt: number): FeedParse {
  if (topic === "vessels-v2/status") return { reports: [] };
  const m = TOPIC.exec(topic);
  if (!m) return { rejected: "unknown_topic" };
  const mmsi = validMmsi(Number(m[1]));
  if (mmsi === null) return { rejected: "bad_mmsi" };
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return { rejected: "not_json" };
  }
  if (!isRecord(body)) return { rejected: "not_an_object" };
  if (m[2] === "location") {
    const lat = num(body.lat);
    const lon = num(body.lon);
    if (lat === null || lon === null) return { rejected: "no_position" };
    const t = num(body.time);
    const navStat = num(body.navStat);
    return {
      reports: [
        {
          kind: "position",
          mmsi,
          time: t !== null && t > 0 ? Math.round(t * 1000) : receivedAt,
          lat,
          lon,
          sog: inRange(num(body.sog), 0, 102.2, 102.3),
          cog: inRange(num(body.cog), 0, 359.9, 360),
          heading: inRange(num(body.heading), 0, 359, 511),
          navStatus: navStat !== null && Number.isInteger(navStat) && navStat >= 0 && navStat <= 15 ? navStat : null,
        },
      ],
    };
  }
  const draught = num(body.draught);
  const type = num(body.type);
  return {
    reports: [
      {
        kind: "identity",
        mmsi,
        imo: validImo(body.imo),
        name: aisText(body.name),
        callsign: aisText(body.callSign),
        shipType: type !== null && Number.isInteger(type) && type > 0 && type <= 255 ? type : null,
        ...dimensions(body.refA, body.refB, body.refC, body.refD),
        draught: draught !== null && draught > 0 && draught < 256 ? draught / 10 : null,
        destination: aisText(body.destination),
        eta: packedEta(body.eta),
      },
    ],
  };
}
