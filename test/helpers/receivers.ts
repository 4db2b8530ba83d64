import { createSocket } from "node:dgram";
import { connect, createServer, type Server, type Socket } from "node:net";
import { encodePositionA, nmeaChecksum, toSentences } from "../../src/domain/ais/encode.ts";

/** A port free for both TCP and UDP on 127.0.0.1 right now (stations' plain ports are allocated from a range; tests give a range of one). */
export async function freePlainPort(): Promise<number> {
  for (;;) {
    const server = createServer();
    const port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)));
    await new Promise((r) => server.close(r));
    const udp = createSocket("udp4");
    const free = await new Promise<boolean>((resolve) => {
      udp.once("error", () => resolve(false));
      udp.bind(port, "127.0.0.1", () => resolve(true));
    });
    await new Promise<void>((r) => {
      try {
        udp.close(() => r());
      } catch {
        r();
      }
    });
    if (free) return port;
  }
}

/** One UDP datagram from `from` (127.0.0.2 plays a sender outside the allow list). */
export function sendDatagram(port: number, body: string | Buffer, from = "127.0.0.1"): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = createSocket("udp4");
    s.bind(0, from, () => {
      s.send(typeof body === "string" ? Buffer.from(body, "latin1") : body, port, "127.0.0.1", (err) => {
        s.close();
        if (err) reject(err);
        else resolve();
      });
    });
  });
}

/** Writes the pieces over one TCP connection from `from`, then closes it; resolves once the server has closed too (or after a moment). */
export function sendTcp(port: number, pieces: (string | Buffer)[], from = "127.0.0.1"): Promise<void> {
  return new Promise((resolve) => {
    const s = connect({ port, host: "127.0.0.1", localAddress: from });
    const done = setTimeout(() => {
      s.destroy();
      resolve();
    }, 3_000);
    s.on("error", () => {});
    s.on("close", () => {
      clearTimeout(done);
      resolve();
    });
    s.on("connect", async () => {
      for (const p of pieces) {
        s.write(p);
        await new Promise((r) => setImmediate(r));
      }
      s.end();
    });
  });
}

/** An NMEA 4.0 tag block as AIS-catcher writes it with `msgformat NMEA_TAG`: station `s<id>`, fractional `c:`, a `g:` group on multipart. */
export function aisCatcherTagged(sentences: string[], time: number, group = 7): string[] {
  return sentences.map((line, i) => {
    const fields = [`s:s0`, `c:${(time / 1000).toFixed(3)}`];
    if (sentences.length > 1) fields.push(`g:${i + 1}-${sentences.length}-${group}`);
    const tag = fields.join(",");
    return `\\${tag}*${nmeaChecksum(tag)}\\${line}`;
  });
}

/** A Class A position as the own-ship sentence a chart plotter forwards (`!AIVDO`). */
export function ownShipLine(mmsi: number, lat: number, lon: number): string {
  const body = toSentences(encodePositionA({ mmsi, lat, lon, sog: 6, cog: 180, heading: 180, navStatus: 0 }))[0]!;
  const inner = body.slice(1, body.indexOf("*")).replace("AIVDM", "AIVDO");
  return `!${inner}*${nmeaChecksum(inner)}`;
}

/** A TCP server a receiver runs (AIS-catcher -S, rtl-ais -T, ser2net for a dAISy, Signal K 10110): each client gets `script(socket)`. */
export async function receiverServer(script: (socket: Socket, n: number) => void): Promise<{ port: number; clients: () => number; close: () => Promise<void> }> {
  let n = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    script(socket, ++n);
  });
  const port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)));
  return {
    port,
    clients: () => n,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export async function until(check: () => Promise<boolean> | boolean, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}
