import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from "node:crypto";
import { udpSigningKey } from "../../domain/secrets.ts";

/**
 * Signed UDP datagrams from stations.
 *
 *   #mds1 <stationId> <unixSeconds> <seq> <hex HMAC-SHA256>\n
 *   <NMEA line>\n<NMEA line>...
 *
 * The MAC is HMAC-SHA256 over `<stationId>.<unixSeconds>.<seq>.` followed by the bytes
 * after the header's newline, keyed with the station's UDP key: the 32 bytes of
 * HMAC-SHA256(key = station secret, message = "mds-udp-v1").
 *
 * Why this scheme: UDP source addresses are trivially forged and stations sit behind NAT
 * with changing addresses, so neither address allow-lists nor a port per station (which
 * would also mean thousands of open ports) authenticate anything. A MAC per datagram
 * does, covers the payload (nothing can be altered or spliced in transit), and lets all
 * stations share one port. The secret never travels. `unixSeconds` bounds replays to a
 * window (SIGNATURE_WINDOW_S); `seq`, counting datagrams per sender, lets the receiver
 * count losses from gaps.
 *
 * Why a key of its own: symmetric MACs need the verifier to hold the key, and the key must
 * not be something the database gives away. The stations table holds SHA-256(secret) to
 * find a station at login, and the UDP key sealed under the secrets key kept outside the
 * database (secret-box.ts); the UDP key cannot be computed from the digest, so a copy of the
 * database alone cannot sign datagrams (docs/secrets.md).
 */
export const UDP_MAGIC = "#mds1";
/** Datagrams whose time is further than this from the receiver's clock are dropped. */
export const SIGNATURE_WINDOW_S = 300;
/** Longest header line accepted: magic, three numbers, 64 hex digits and spaces. */
const MAX_HEADER = 120;

// Keys are KeyObjects: createHmac() with a raw Buffer builds one on every call, which
// measured ~3x slower per datagram (30 us against 9 us for a 1.1 KB datagram here).

/** The MAC key of a station from its secret (what a sender computes). */
export function udpKeyFromSecret(secret: string): KeyObject {
  return createSecretKey(udpSigningKey(secret));
}

/** The MAC key of a station from its unsealed stored form, 64 hex digits (what the receiver has). */
export function udpKeyFromHex(hex: string): KeyObject {
  return createSecretKey(Buffer.from(hex, "hex"));
}

function mac(key: KeyObject, stationId: number, t: number, seq: number, body: Buffer): Buffer {
  return createHmac("sha256", key).update(`${stationId}.${t}.${seq}.`, "latin1").update(body).digest();
}

/** Builds a signed datagram from NMEA lines. */
export function signDatagram(key: KeyObject, stationId: number, unixSeconds: number, seq: number, lines: readonly string[]): Buffer {
  const body = Buffer.from(`${lines.join("\n")}\n`, "latin1");
  const header = `${UDP_MAGIC} ${stationId} ${unixSeconds} ${seq} ${mac(key, stationId, unixSeconds, seq, body).toString("hex")}\n`;
  return Buffer.concat([Buffer.from(header, "latin1"), body]);
}

export interface DatagramHeader {
  stationId: number;
  t: number;
  seq: number;
  mac: Buffer;
  /** Offset of the body (after the header's newline). */
  bodyStart: number;
}

const HEADER = /^#mds1 ([1-9]\d{0,9}) (\d{1,12}) (\d{1,15}) ([0-9a-fA-F]{64})\r?$/;

/** Parses the header, or returns why the datagram cannot be a signed one. */
export function parseDatagramHeader(msg: Buffer): DatagramHeader | "no_header" | "bad_header" {
  if (msg.length < 6 || msg.toString("latin1", 0, 5) !== UDP_MAGIC) return "no_header";
  const nl = msg.indexOf(10, 0);
  if (nl < 0 || nl > MAX_HEADER) return "bad_header";
  const m = HEADER.exec(msg.toString("latin1", 0, nl));
  if (!m) return "bad_header";
  return { stationId: Number(m[1]), t: Number(m[2]), seq: Number(m[3]), mac: Buffer.from(m[4]!, "hex"), bodyStart: nl + 1 };
}

/** Constant-time check of the datagram's MAC with the station's key. */
export function verifyDatagram(key: KeyObject, header: DatagramHeader, msg: Buffer): boolean {
  const expected = mac(key, header.stationId, header.t, header.seq, msg.subarray(header.bodyStart));
  return expected.length === header.mac.length && timingSafeEqual(expected, header.mac);
}
