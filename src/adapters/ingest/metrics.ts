import { Counter, Gauge, Histogram, Registry } from "prom-client";

/** `plain_udp` / `plain_tcp`: a station's own port (no header, no AUTH); `connect`: the service reads a receiver's TCP server; `feed`: a public AIS feed. */
export type Transport = "tcp" | "udp" | "http" | "file" | "simulator" | "plain_udp" | "plain_tcp" | "connect" | "feed";

/**
 * Prometheus metrics of AIS ingest, in a registry of their own that /metrics merges with
 * the API's. Per-station series are labelled by station id: stations are few (one or a
 * few per account), so the cardinality stays small. The pipeline adds deltas once per
 * flush, not per line, so counting costs nothing on the hot path.
 */
export class IngestMetrics {
  readonly registry = new Registry();
  readonly lines = new Counter({ name: "mds_ingest_lines_total", help: "NMEA lines received from authenticated stations", labelNames: ["station"], registers: [this.registry] });
  readonly messages = new Counter({ name: "mds_ingest_messages_total", help: "AIS messages decoded, by station and message type", labelNames: ["station", "type"], registers: [this.registry] });
  readonly reasons = new Counter({
    name: "mds_ingest_decoder_events_total",
    help: "Lines dropped and decoder events (bad checksums, dropped fragments, ...) by station and reason",
    labelNames: ["station", "reason"],
    registers: [this.registry],
  });
  readonly positions = new Counter({
    name: "mds_ingest_positions_total",
    help: "Position reports by station and outcome: queued for storage, invalid (no or out-of-range position), future (time too far ahead), jump (farther from the last fix than a ship can sail)",
    labelNames: ["station", "outcome"],
    registers: [this.registry],
  });
  readonly positionsWritten = new Counter({ name: "mds_ingest_positions_written_total", help: "Position rows written (duplicates of a stored row excluded)", registers: [this.registry] });
  readonly statics = new Counter({ name: "mds_ingest_static_reports_total", help: "Static reports (types 5, 19, 24) by station", labelNames: ["station"], registers: [this.registry] });
  readonly stationEvents = new Counter({
    name: "mds_ingest_station_events_total",
    help: "Per-station listener events: oversized lines, UDP datagrams lost (sequence gaps) or replayed, lines dropped under overload, failed signatures",
    labelNames: ["station", "event"],
    registers: [this.registry],
  });
  readonly unauthenticated = new Counter({
    name: "mds_ingest_unauthenticated_total",
    help: "Connections, datagrams and requests dropped because the sender was unknown or not authenticated, by transport and reason",
    labelNames: ["transport", "reason"],
    registers: [this.registry],
  });
  readonly overload = new Counter({ name: "mds_ingest_overload_dropped_total", help: "Datagrams dropped because the write buffer was full", labelNames: ["transport"], registers: [this.registry] });
  readonly buffered = new Gauge({ name: "mds_ingest_buffered_rows", help: "Position rows waiting to be written", registers: [this.registry] });
  readonly tcpRefused = new Counter({
    name: "mds_ingest_tcp_refused_total",
    help: "Station TCP connections closed on accept: listener_cap (INGEST_TCP_MAX_CONNECTIONS) or address_cap (INGEST_TCP_MAX_PER_ADDRESS)",
    labelNames: ["reason"],
    registers: [this.registry],
  });
  readonly receiverConnected = new Gauge({
    name: "mds_ingest_receiver_connected",
    help: "1 while the service is connected to a station's receiver TCP server (stations update --connect), else 0",
    labelNames: ["station"],
    registers: [this.registry],
  });
  readonly receiverReconnects = new Counter({
    name: "mds_ingest_receiver_disconnects_total",
    help: "Connections to receivers' TCP servers lost or refused, by station and reason (refused, closed, silent, error)",
    labelNames: ["station", "reason"],
    registers: [this.registry],
  });
  readonly plainPorts = new Gauge({ name: "mds_ingest_plain_ports", help: "Stations' plain NMEA ports listening (UDP and TCP each count once)", registers: [this.registry] });
  readonly connections = new Gauge({ name: "mds_ingest_tcp_connections", help: "Open station TCP connections", registers: [this.registry] });
  readonly flushSeconds = new Histogram({
    name: "mds_ingest_flush_seconds",
    help: "Time to write one batch",
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly flushErrors = new Counter({ name: "mds_ingest_flush_errors_total", help: "Batches that failed to write (kept and retried)", registers: [this.registry] });
}
