/**
 * The public AIS feeds the service can take in, each a source of its own in the sources
 * file (its licence, attribution and permissions live there, not here). Addresses and
 * limits are the operators' own (see README.md, "Public AIS feeds", for where each comes from).
 */
export const FEED_KINDS = ["kystverket", "digitraffic", "aisstream", "aishub"] as const;
export type FeedKind = (typeof FEED_KINDS)[number];

export interface FeedKindInfo {
  /** The id of the feed's entry in the sources file: what its positions are governed by. */
  sourceId: string;
  /** The official address; `feeds add --url` replaces it (a local replay in tests). */
  defaultUrl: string;
  /** What `--key` is for this feed; null when it takes none. */
  key: { required: boolean; what: string } | null;
  /** No message for this long while connected raises the silence alarm (a quiet sea never lasts this long on these feeds). */
  silentAfterMs: number;
  /** Shortest wait between two connection attempts (the operator's rate limit). */
  minReconnectMs: number;
}

export const FEED_KIND_INFO: Record<FeedKind, FeedKindInfo> = {
  kystverket: {
    sourceId: "kystverket-open",
    defaultUrl: "tcp://153.44.253.27:5631",
    key: null,
    // About 38 messages/s on the open stream: two silent minutes is an outage.
    silentAfterMs: 2 * 60_000,
    minReconnectMs: 1_000,
  },
  digitraffic: {
    sourceId: "digitraffic-marine",
    defaultUrl: "wss://meri.digitraffic.fi:443/mqtt",
    key: null,
    silentAfterMs: 2 * 60_000,
    // 5 MQTT connections per minute per address: never try more often than every 12 s.
    minReconnectMs: 12_000,
  },
  aisstream: {
    sourceId: "aisstream",
    defaultUrl: "wss://stream.aisstream.io/v0/stream",
    key: { required: true, what: "the aisstream.io API key" },
    // Known to accept a subscription and then send nothing for hours.
    silentAfterMs: 5 * 60_000,
    minReconnectMs: 5_000,
  },
  aishub: {
    sourceId: "aishub",
    defaultUrl: "https://data.aishub.net/ws.php",
    key: { required: true, what: "the AISHub member username" },
    // Polled once a minute; its snapshot is regenerated about every 5 minutes.
    silentAfterMs: 15 * 60_000,
    minReconnectMs: 60_000,
  },
};

const PLAIN_VARIANT: Record<string, string> = { "wss:": "ws:", "https:": "http:" };

/**
 * URL schemes a feed kind's connector speaks: that of its official address and, for a TLS
 * one, the plain variant too (a mirror or a local replay).
 */
export function feedSchemes(kind: FeedKind): readonly string[] {
  const scheme = new URL(FEED_KIND_INFO[kind].defaultUrl).protocol;
  return PLAIN_VARIANT[scheme] ? [scheme, PLAIN_VARIANT[scheme]] : [scheme];
}

export function isFeedKind(v: string): v is FeedKind {
  return (FEED_KINDS as readonly string[]).includes(v);
}

/** Feed names: short, lower-case, safe in a metrics label and a command line. */
export const FEED_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

/** Why an address cannot be used for a feed of this kind, or null when it can. */
export function feedUrlProblem(kind: FeedKind, url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "is not a URL";
  }
  const schemes = feedSchemes(kind);
  if (!schemes.includes(u.protocol)) return `must start with ${schemes.map((s) => `${s}//`).join(" or ")} for a ${kind} feed`;
  if (u.hostname === "") return "has no host";
  if (kind === "kystverket" && u.port === "") return "needs a port (tcp://host:port)";
  if (u.username !== "" || u.password !== "") return "must not carry a user or password (give --key instead)";
  return null;
}
