import { aisText, dimensions, type FeedParse, type FeedReport, inRange, isRecord, numOrText, packedEta, validImo, validMmsi } from "./report.ts";

/**
 * One answer of AISHub's web service (`ws.php?...&format=0&output=json`): a header object
 * and an array of records, `[{"ERROR":false,"USERNAME":...,"RECORDS":n}, [{...}, ...]]`.
 * In the AIS encoding (format 0) positions are in 1/600000 degree, COG and SOG in tenths,
 * DRAUGHT in tenths of a metre, TIME epoch seconds, ETA the AIS packed value.
 * An error answer is a header alone with `ERROR: true` and `ERROR_MESSAGE`.
 */
export interface AishubSnapshot {
  reports: FeedReport[];
  records: number;
  /** Records dropped, by reason. */
  dropped: Record<string, number>;
}

export function parseAishub(text: string, receivedAt: number): AishubSnapshot | { error: string } | { rejected: string } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { rejected: "not_json" };
  }
  if (!Array.isArray(body) || !isRecord(body[0])) return { rejected: "not_a_snapshot" };
  const header = body[0];
  if (header.ERROR === true) return { error: typeof header.ERROR_MESSAGE === "string" ? header.ERROR_MESSAGE.slice(0, 200) : "error without a message" };
  const rows: unknown[] = Array.isArray(body[1]) ? body[1] : [];
  const out: AishubSnapshot = { reports: [], records: rows.length, dropped: {} };
  for (const row of rows) {
    const r = parseRecord(row, receivedAt);
    if ("rejected" in r) out.dropped[r.rejected] = (out.dropped[r.rejected] ?? 0) + 1;
    else out.reports.push(...r.reports);
  }
  return out;
}

function parseRecord(row: unknown, receivedAt: number): FeedParse {
  if (!isRecord(row)) return { rejected: "not_an_object" };
  const mmsi = validMmsi(row.MMSI);
  if (mmsi === null) return { rejected: "bad_mmsi" };
  const lat = numOrText(row.LATITUDE);
  const lon = numOrText(row.LONGITUDE);
  const time = numOrText(row.TIME);
  const cog = numOrText(row.COG);
  const sog = numOrText(row.SOG);
  const nav = numOrText(row.NAVSTAT);
  const draught = numOrText(row.DRAUGHT);
  const type = numOrText(row.TYPE);
  const reports: FeedReport[] = [];
  if (lat !== null && lon !== null) {
    reports.push({
      kind: "position",
      mmsi,
      time: time !== null && time > 0 ? time * 1000 : receivedAt,
      lat: lat / 600_000,
      lon: lon / 600_000,
      sog: inRange(sog === null ? null : sog / 10, 0, 102.2, 102.3),
      cog: inRange(cog === null ? null : cog / 10, 0, 359.9, 360),
      heading: inRange(numOrText(row.HEADING), 0, 359, 511),
      navStatus: nav !== null && Number.isInteger(nav) && nav >= 0 && nav <= 15 ? nav : null,
    });
  }
  const name = aisText(row.NAME);
  const imo = validImo(row.IMO);
  const callsign = aisText(row.CALLSIGN);
  if (name !== null || imo !== null || callsign !== null) {
    reports.push({
      kind: "identity",
      mmsi,
      imo,
      name,
      callsign,
      shipType: type !== null && Number.isInteger(type) && type > 0 && type <= 255 ? type : null,
      ...dimensions(numOrText(row.A), numOrText(row.B), numOrText(row.C), numOrText(row.D)),
      draught: draught !== null && draught > 0 && draught < 256 ? draught / 10 : null,
      destination: aisText(row.DEST),
      eta: packedEta(numOrText(row.ETA)),
    });
  }
  if (reports.length === 0) return { rejected: "no_position" };
  return { reports };
}

/** The poll address: the member's username, JSON in the AIS encoding, no compression; `interval` = the oldest report wanted, minutes. */
export function aishubPollUrl(base: string, username: string, intervalMinutes: number): string {
  const u = new URL(base);
  u.searchParams.set("username", username);
  u.searchParams.set("format", "0");
  u.searchParams.set("output", "json");
  u.searchParams.set("compress", "0");
  u.searchParams.set("interval", String(intervalMinutes));
  return u.toString();
}
