import { randomUUID } from "node:crypto";
import { connect, type MqttClient } from "mqtt";
import { parseDigitraffic } from "../../../domain/feeds/digitraffic-message.ts";
import { FeedConnector } from "./connector.ts";

/** Sent when the operator sets no DIGITRAFFIC_USER: identifies the software, never a person. */
export const DEFAULT_DIGITRAFFIC_USER = "maritime-data-service/feeds";

/** Topics of Class A positions and metadata; the MMSI is the middle level. */
const TOPICS = ["vessels-v2/+/location", "vessels-v2/+/metadata"];

/**
 * Fintraffic's Digitraffic Marine over MQTT on a WebSocket (decoded JSON, Class A only).
 * Its rules: send `Digitraffic-User: <organisation>/<application>`, and at most 5 MQTT
 * connections per minute per address, so mqtt.js's own reconnect (every second by
 * default) is off and the connector's backoff, never shorter than 12 s, decides.
 * Messages are handed to the pipeline in one batch per event-loop turn.
 */
export class DigitrafficConnector extends FeedConnector {
  #client: MqttClient | null = null;

  protected open(generation: number): void {
    const client = connect(this.deps.feed.url, {
      clientId: `maritime-data-service; ${randomUUID()}`,
      wsOptions: { headers: { "Digitraffic-User": this.deps.tuning.digitrafficUser ?? DEFAULT_DIGITRAFFIC_USER } },
      reconnectPeriod: 0,
      connectTimeout: 30_000,
      keepalive: 60,
      clean: true,
      protocolVersion: 4,
    });
    this.#client = client;
    const take = this.batcher(generation);
    client.on("connect", () => {
      client.subscribe(TOPICS, { qos: 0 }, (err) => {
        if (err) this.lost(generation, `subscribe refused: ${err.message}`);
        else this.opened(generation);
      });
    });
    client.on("message", (topic, payload) => {
      const r = parseDigitraffic(topic, payload.toString("utf8"), this.deps.clock.now());
      if ("rejected" in r) {
        this.rejected(generation, r.rejected);
        return;
      }
      take(r.reports);
    });
    client.on("error", (e: Error & { code?: string | number }) => {
      const status = /Unexpected server response: (\d+)/.exec(e.message)?.[1];
      this.lost(generation, e.message, { rateLimited: status === "429" });
    });
    client.on("close", () => this.lost(generation, "the broker closed the connection"));
  }

  protected async close(): Promise<void> {
    const client = this.#client;
    this.#client = null;
    if (client) await client.endAsync(true).catch(() => undefined);
  }
}
