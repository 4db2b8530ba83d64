import WebSocket from "ws";
import { aisstreamSubscription, parseAisstream } from "../../../domain/feeds/aisstream-message.ts";
import { FeedConnector } from "./connector.ts";

/**
 * aisstream.io: one WebSocket per account (a third is refused with 429), the subscription
 * with the operator's key as the first frame (it must arrive within 3 s), then decoded
 * JSON envelopes. Known failure modes it must survive: 503 or 429 at the upgrade, close
 * 1006 every few minutes, and an open socket that sends nothing (the silence watchdog).
 * After a 429 the connector waits the long cooldown: fast retries get an address blocked.
 */
export class AisstreamConnector extends FeedConnector {
  #socket: WebSocket | null = null;

  protected open(generation: number): void {
    const key = this.deps.key;
    if (!key) {
      this.lost(generation, "no API key stored; add the feed again with --key");
      return;
    }
    const socket = new WebSocket(this.deps.feed.url, { handshakeTimeout: 30_000, maxPayload: 1 << 20 });
    this.#socket = socket;
    const take = this.batcher(generation);
    socket.on("open", () => {
      socket.send(aisstreamSubscription(key));
      this.opened(generation);
    });
    socket.on("message", (data, isBinary) => {
      const text = isBinary ? Buffer.isBuffer(data) ? data.toString("utf8") : "" : String(data);
      const r = parseAisstream(text, this.deps.clock.now());
      if ("error" in r) {
        this.feedError(`aisstream.io: ${r.error}`);
        return;
      }
      if ("rejected" in r) {
        this.rejected(generation, r.rejected);
        return;
      }
      take(r.reports);
    });
    socket.on("unexpected-response", (_req, res) => {
      const status = res.statusCode ?? 0;
      res.resume();
      socket.terminate();
      this.lost(generation, `the upgrade was answered with HTTP ${status}`, { rateLimited: status === 429 });
    });
    socket.on("error", (e) => this.lost(generation, e.message));
    socket.on("close", (code, reason) => this.lost(generation, `closed (${code}${reason.length > 0 ? ` ${reason.toString("utf8").slice(0, 100)}` : ""})`));
  }

  protected async close(): Promise<void> {
    this.#socket?.terminate();
    this.#socket = null;
  }
}
