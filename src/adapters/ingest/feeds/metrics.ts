import { Counter, Gauge, type Registry } from "prom-client";

/**
 * Per-feed series on /metrics (in the ingest registry). Feeds are a handful, named by the
 * operator, so labelling by feed name keeps the cardinality small.
 */
export class FeedMetrics {
  readonly messages: Counter;
  readonly rejected: Counter;
  readonly connects: Counter;
  readonly connected: Gauge;
  readonly lastMessage: Gauge;
  readonly alarm: Gauge;
  readonly rate: Gauge;

  constructor(registry: Registry) {
    const registers = [registry];
    this.messages = new Counter({ name: "mds_feed_messages_total", help: "Messages received from a public feed (NMEA lines or JSON reports)", labelNames: ["feed"], registers });
    this.rejected = new Counter({ name: "mds_feed_rejected_total", help: "Feed messages counted and dropped, by reason (not JSON, unknown topic, bad MMSI, ...)", labelNames: ["feed", "reason"], registers });
    this.connects = new Counter({ name: "mds_feed_connects_total", help: "Connection attempts to a feed by outcome: opened, failed, rate_limited, silent_recycled", labelNames: ["feed", "outcome"], registers });
    this.connected = new Gauge({ name: "mds_feed_connected", help: "1 while the feed's connection is open (for AISHub: the last poll succeeded)", labelNames: ["feed"], registers });
    this.lastMessage = new Gauge({ name: "mds_feed_last_message_timestamp_seconds", help: "Unix time of the feed's last message", labelNames: ["feed"], registers });
    this.alarm = new Gauge({
      name: "mds_feed_alarm",
      help: "1 while an alarm is raised: silent (connected, no message for the feed's threshold) or down (not connected for that long)",
      labelNames: ["feed", "alarm"],
      registers,
    });
    this.rate = new Gauge({ name: "mds_feed_messages_per_second", help: "Messages per second over the last minute", labelNames: ["feed"], registers });
  }

  /** Series of a removed feed disappear from /metrics. */
  forget(feed: string): void {
    for (const m of [this.messages, this.connected, this.lastMessage, this.rate]) m.remove({ feed });
    for (const alarm of ["silent", "down"]) this.alarm.remove({ feed, alarm });
  }
}
