import { aisText, dimensions, etaText, type FeedIdentity, type FeedParse, type FeedReport, inRange, isRecord, num, validImo, validMmsi } from "./report.ts";

/**
 * aisstream.io's JSON envelope: `{"MessageType": T, "MetaData": {...}, "Message": {T: {...}}}`,
 * with the decoded AIS fields under their aisstream names (aisstream/ais-message-models).
 * Positions come from PositionReport (types 1-3), StandardClassBPositionReport (18) and
 * ExtendedClassBPositionReport (19); identities from ShipStaticData (5),
 * StaticDataReport (24) and type 19. Other message types are recognised and skipped.
 */
export function parseAisstream(text: string, receivedAt: number): FeedParse | { error: string } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { rejected: "not_json" };
  }
  if (!isRecord(body)) return { rejected: "not_an_object" };
  // The server's answer to a bad key or subscription, sent before it closes.
  if (typeof body.error === "string") return { error: body.error.slice(0, 200) };
  const type = body.MessageType;
  const message = isRecord(body.Message) && typeof type === "string" ? body.Message[type] : undefined;
  if (typeof type !== "string" || !isRecord(message)) return { rejected: "not_an_envelope" };
  const meta = isRecord(body.MetaData) ? body.MetaData : {};
  const mmsi = validMmsi(message.UserID) ?? validMmsi(meta.MMSI);
  if (mmsi === null) return { rejected: "bad_mmsi" };
  if (message.Valid === false) return { rejected: "invalid_message" };
  const time = goTime(meta.time_utc) ?? receivedAt;
  const reports: FeedReport[] = [];
  switch (type) {
    case "PositionReport":
    case "StandardClassBPositionReport":
    case "ExtendedClassBPositionReport": {
      const nav = num(message.NavigationalStatus);
      reports.push({
        kind: "position",
        mmsi,
        time,
        lat: num(message.Latitude),
        lon: num(message.Longitude),
        sog: inRange(num(message.Sog), 0, 102.2, 102.3),
        cog: inRange(num(message.Cog), 0, 359.9, 360),
        heading: inRange(num(message.TrueHeading), 0, 359, 511),
        navStatus: type === "PositionReport" && nav !== null && Number.isInteger(nav) && nav >= 0 && nav <= 15 ? nav : null,
      });
      if (type === "ExtendedClassBPositionReport") {
        const dim = isRecord(message.Dimension) ? message.Dimension : {};
        reports.push({ kind: "identity", mmsi, name: aisText(message.Name), shipType: shipType(message.Type), ...dimensions(dim.A, dim.B, dim.C, dim.D) });
      }
      break;
    }
    case "ShipStaticData": {
      const dim = isRecord(message.Dimension) ? message.Dimension : {};
      const eta = isRecord(message.Eta) ? message.Eta : {};
      const draught = num(message.MaximumStaticDraught);
      reports.push({
        kind: "identity",
        mmsi,
        imo: validImo(message.ImoNumber),
        name: aisText(message.Name),
        callsign: aisText(message.CallSign),
        shipType: shipType(message.Type),
        ...dimensions(dim.A, dim.B, dim.C, dim.D),
        draught: draught !== null && draught > 0 && draught < 25.6 ? draught : null,
        destination: aisText(message.Destination),
        eta: etaText(num(eta.Month), num(eta.Day), num(eta.Hour), num(eta.Minute)),
      });
      break;
    }
    case "StaticDataReport": {
      const a = isRecord(message.ReportA) ? message.ReportA : null;
      const b = isRecord(message.ReportB) ? message.ReportB : null;
      if (a && a.Valid === true) reports.push({ kind: "identity", mmsi, name: aisText(a.Name) });
      if (b && b.Valid === true) {
        const dim = isRecord(b.Dimension) ? b.Dimension : {};
        const part: FeedIdentity = { kind: "identity", mmsi, callsign: aisText(b.CallSign), shipType: shipType(b.ShipType), ...dimensions(dim.A, dim.B, dim.C, dim.D) };
        reports.push(part);
      }
      break;
    }
    default:
      return { rejected: "ignored_type" };
  }
  return { reports };
}

function shipType(v: unknown): number | null {
  const n = num(v);
  return n !== null && Number.isInteger(n) && n > 0 && n <= 255 ? n : null;
}

/** Go's default time format, which aisstream uses: `2026-07-12 12:00:00.000000000 +0000 UTC`. */
const GO_TIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(\.\d{1,9})? \+0000 UTC$/;

export function goTime(v: unknown): number | null {
  if (typeof v !== "string") return null;
  const m = GO_TIME.exec(v);
  if (!m) return null;
  const t = Date.parse(`${m[1]}T${m[2]}${m[3] ? m[3].slice(0, 4) : ""}Z`);
  return Number.isFinite(t) ? t : null;
}

/** The subscription aisstream expects as the first frame (within 3 s): key, boxes as [lat, lon] corners. */
export function aisstreamSubscription(apiKey: string, boxes: readonly [[number, number], [number, number]][] = [[[-90, -180], [90, 180]]]): string {
  return JSON.stringify({
    APIKey: apiKey,
    BoundingBoxes: boxes,
    FilterMessageTypes: ["PositionReport", "StandardClassBPositionReport", "ExtendedClassBPositionReport", "ShipStaticData", "StaticDataReport"],
  });
}
