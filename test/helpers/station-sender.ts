import { connect } from "node:net";
import { encodePositionA, toSentences } from "../../src/domain/ais/encode.ts";

/** One Class A position line per MMSI, stamped `time` (a tag block), as a station sends it. */
export function positionLines(mmsis: readonly number[], time: number, at: { lat: number; lon: number } = { lat: 52.0, lon: 4.0 }): string[] {
  return mmsis.map((mmsi) => toSentences(encodePositionA({ mmsi, lat: at.lat, lon: at.lon, sog: 10, cog: 90, heading: 90, rot: null }), { time })[0]!);
}

/**
 * Sends lines over one station TCP connection and half-closes; resolves with the highest
 * cumulative ACK the server sent (lines it has committed), whether the connection ended
 * cleanly or was cut.
 */
export function sendStationLines(port: number, secret: string, lines: readonly string[]): Promise<number> {
  return new Promise((resolve) => {
    let acked = 0;
    let buffered = "";
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(`AUTH ${secret}\n`);
      socket.write(lines.map((l) => `${l}\n`).join(""));
      socket.end();
    });
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      buffered += chunk;
      for (const m of buffered.matchAll(/ACK (\d+)/g)) acked = Math.max(acked, Number(m[1]));
      buffered = buffered.slice(buffered.lastIndexOf("\n") + 1);
    });
    socket.on("close", () => resolve(acked));
    socket.on("error", () => undefined);
  });
}
