import { gunzipSync, inflateSync } from "node:zlib";
import { nmeaChecksum } from "../../domain/ais/encode.ts";

/** Largest body once decompressed: a gzip bomb stops here. */
export const MAX_DECOMPRESSED_BYTES = 16 * 1024 * 1024;

/** What a body turned out to be, whatever its Content-Type said. */
export type BodyFormat = "empty" | "nmea" | "jsonaiscatcher" | "airframes" | "jsonais" | "json_lines" | "json_array";

export type IngestBody =
  | { ok: true; format: BodyFormat; lines: string[]; /** message objects that carried no NMEA sentence */ noNmea: number }
  | { ok: false; status: 413 | 415; message: string };

const GZIP_MAGIC = 0x1f8b;

/**
 * Reads a station's HTTP body by looking at it, not at its headers: AIS-catcher sends
 * `Content-Type: application/json` whatever its `protocol` (plain NMEA included), so the
 * type says nothing. Recognised:
 *
 * - NMEA sentences, one per line (AIS-catcher `protocol NMEA`, curl, scripts);
 * - the `jsonaiscatcher` envelope (`protocol AISCATCHER` and `MINIMAL`) and AIS-catcher's
 *   `airframes` one: `{"protocol": ..., "msgs": [{"nmea": ["!AIVDM..."], "rxtime": ...}]}`;
 * - one JSON message per line (`protocol LIST`), or a JSON array of messages;
 * - the `jsonais` envelope (`protocol APRS`, multipart/form-data): `groups[].msgs[]`.
 *
 * Only the NMEA inside is used (the service decodes it itself); JSON messages without it
 * are counted. gzip is undone when announced or when the body starts with its magic bytes.
 */
export function readIngestBody(raw: Buffer, contentEncoding: string | undefined): IngestBody {
  let buf = raw;
  const encoding = (contentEncoding ?? "").trim().toLowerCase();
  try {
    if (encoding === "gzip" || encoding === "x-gzip" || (buf.length >= 2 && buf.readUInt16BE(0) === GZIP_MAGIC)) buf = gunzipSync(buf, { maxOutputLength: MAX_DECOMPRESSED_BYTES });
    else if (encoding === "deflate") buf = inflateSync(buf, { maxOutputLength: MAX_DECOMPRESSED_BYTES });
    else if (encoding !== "" && encoding !== "identity") return { ok: false, status: 415, message: `Content-Encoding ${JSON.stringify(encoding)} is not accepted; send the body as is or gzip-compressed.` };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") return { ok: false, status: 413, message: `The body is larger than ${MAX_DECOMPRESSED_BYTES} bytes once decompressed; post it in smaller parts.` };
    return { ok: false, status: 415, message: "The body claims to be compressed but does not decompress; send it as is or as valid gzip." };
  }
  const text = buf.toString("utf8").replace(/^\uFEFF/, "");
  const start = text.trimStart();
  if (start === "") return { ok: true, format: "empty", lines: [], noNmea: 0 };
  if (start.startsWith("--")) return readMultipart(start);
  if (start.startsWith("{") || start.startsWith("[")) return readJson(start);
  return { ok: true, format: "nmea", lines: nmeaLines(text), noNmea: 0 };
}

function nmeaLines(text: string): string[] {
  return text.split("\n").filter((l) => l.trim() !== "");
}

function readJson(text: string): IngestBody {
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    // Not one JSON value: AIS-catcher's LIST protocol, one message per line.
    const lines: string[] = [];
    let noNmea = 0;
    let parsed = 0;
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      let msg: unknown;
      try {
        msg = JSON.parse(line);
      } catch {
        noNmea++;
        continue;
      }
      parsed++;
      noNmea += addMessage(msg, lines);
    }
    if (parsed === 0) return unsupported("The body starts like JSON but is neither a JSON document nor JSON lines.");
    return { ok: true, format: "json_lines", lines, noNmea };
  }
  if (Array.isArray(whole)) return fromMessages("json_array", whole);
  if (isObject(whole)) {
    if (Array.isArray(whole.msgs)) return fromMessages(whole.protocol === "airframes" ? "airframes" : "jsonaiscatcher", whole.msgs);
    if (Array.isArray(whole.groups)) return fromMessages("jsonais", whole.groups.flatMap((g) => (isObject(g) && Array.isArray(g.msgs) ? g.msgs : [])));
    if (Array.isArray(whole.nmea)) return fromMessages("json_lines", [whole]);
  }
  return unsupported("The body is JSON but not an AIS-catcher message envelope (`msgs`), JSON lines with `nmea`, nor a list of messages.");
}

/** AIS-catcher's APRS protocol posts the `jsonais` document as one multipart/form-data field. */
function readMultipart(text: string): IngestBody {
  const boundaryEnd = text.indexOf("\r\n");
  const boundary = boundaryEnd > 2 ? text.slice(0, boundaryEnd) : "";
  const headersEnd = text.indexOf("\r\n\r\n");
  if (boundary === "" || headersEnd < 0) return unsupported("The body looks like multipart/form-data but has no part.");
  const end = text.indexOf(`\r\n${boundary}`, headersEnd);
  const part = text.slice(headersEnd + 4, end < 0 ? undefined : end).trim();
  if (!part.startsWith("{")) return unsupported("The multipart body's part is not JSON.");
  return readJson(part);
}

function fromMessages(format: BodyFormat, msgs: unknown[]): IngestBody {
  const lines: string[] = [];
  let noNmea = 0;
  for (const m of msgs) noNmea += addMessage(m, lines);
  return { ok: true, format, lines, noNmea };
}

/** Adds a message's sentences (a bare string is a sentence); returns 1 when it carried none. */
function addMessage(msg: unknown, lines: string[]): number {
  if (typeof msg === "string") {
    lines.push(msg);
    return 0;
  }
  if (!isObject(msg) || !Array.isArray(msg.nmea)) return 1;
  const sentences = msg.nmea.filter((s): s is string => typeof s === "string" && s.trim() !== "");
  if (sentences.length === 0) return 1;
  const time = receivedAt(msg);
  for (const s of sentences) lines.push(time === null || s.startsWith("\\") ? s : withTagTime(s, time));
  return 0;
}

/**
 * The receiver's own time for a message: `rxuxtime` (epoch seconds) or `rxtime`
 * (`yyyymmddHHMMSS`, UTC). Batches are posted every `interval` seconds (60 by default), so
 * the receive time of the post would be up to a minute late.
 */
function receivedAt(msg: Record<string, unknown>): number | null {
  if (typeof msg.rxuxtime === "number" && Number.isFinite(msg.rxuxtime) && msg.rxuxtime > 0) return msg.rxuxtime * 1000;
  if (typeof msg.rxtime !== "string") return null;
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(msg.rxtime);
  if (!m) return null;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  return Number.isFinite(t) && new Date(t).getUTCDate() === Number(m[3]) ? t : null;
}

/** The sentence with an NMEA 4.0 tag block carrying the time, which the decoder takes as the fix's time. */
function withTagTime(sentence: string, time: number): string {
  const tag = `c:${Math.floor(time / 1000)}`;
  return `\\${tag}*${nmeaChecksum(tag)}\\${sentence}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function unsupported(message: string): IngestBody {
  return { ok: false, status: 415, message };
}
