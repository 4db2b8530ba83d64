import { connect, type Socket } from "node:net";
import { LineSplitter } from "../lines.ts";
import { FeedConnector } from "./connector.ts";

/**
 * The Norwegian Coastal Administration's open AIS stream: plain TCP, the client connects
 * and reads `\s:...,c:...*hh\!BSVDM,...` lines (IEC 62320-1 tag blocks); nothing is sent.
 * The lines go through the service's own decoder, as a station's would. Kystverket serves
 * one connection per address, so a feed keeps exactly one. Reading pauses while the
 * pipeline is overloaded (TCP back-pressure), as the station listener does.
 */
export class KystverketConnector extends FeedConnector {
  #socket: Socket | null = null;
  #connections = 0;

  protected open(generation: number): void {
    const url = new URL(this.deps.feed.url);
    const splitter = new LineSplitter(4096);
    const source = `feed:${this.name}:${++this.#connections}`;
    const socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true, keepAlive: true, keepAliveInitialDelay: 30_000 });
    this.#socket = socket;
    socket.setEncoding("latin1");
    socket.setTimeout(30_000);
    let paused = false;
    socket.on("connect", () => {
      // Connected: silence from here is the watchdog's business, not the socket's.
      socket.setTimeout(0);
      this.opened(generation);
    });
    socket.on("timeout", () => {
      socket.destroy();
      this.lost(generation, "connection timed out");
    });
    socket.on("data", (chunk: string) => {
      const { lines, oversized } = splitter.push(chunk);
      if (oversized > 0) this.rejected(generation, "line_too_long", oversized);
      this.lines(generation, lines, source);
      const pipeline = this.deps.pipeline;
      if (pipeline.overloaded && !paused) {
        paused = true;
        socket.pause();
        void pipeline.whenDrained().then(() => {
          paused = false;
          if (!socket.destroyed) socket.resume();
        });
      }
    });
    socket.on("error", (e: NodeJS.ErrnoException) => this.lost(generation, `${url.host}: ${e.code ?? e.message}`));
    socket.on("close", () => this.lost(generation, `${url.host} closed the connection`));
  }

  protected async close(): Promise<void> {
    this.#socket?.destroy();
    this.#socket = null;
  }
}
