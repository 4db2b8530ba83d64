import { isIP } from "node:net";

/** Why a `--connect` target was refused. */
export class ConnectTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConnectTargetError";
  }
}

export interface ConnectTarget {
  host: string;
  port: number;
}

const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/**
 * Parses `--connect host:port` (`[2001:db8::1]:5010` for IPv6): the address of a receiver's
 * own TCP server (AIS-catcher `-S`, rtl-ais `-T`, Signal K's NMEA 0183 server on 10110).
 */
export function parseConnectTarget(text: string): ConnectTarget {
  const m = /^\[([^\]]+)\]:(\d{1,5})$/.exec(text) ?? /^([^:[\]]+):(\d{1,5})$/.exec(text);
  const hint = "--connect needs host:port of the receiver's TCP server, e.g. 192.0.2.5:5010 or [2001:db8::5]:10110";
  if (!m) throw new ConnectTargetError(`${hint}; got ${JSON.stringify(text)}`);
  const host = m[1]!;
  const port = Number(m[2]);
  if (port < 1 || port > 65_535) throw new ConnectTargetError(`--connect ${JSON.stringify(text)}: the port must be from 1 to 65535`);
  if (isIP(host) === 0 && !HOSTNAME.test(host)) throw new ConnectTargetError(`--connect ${JSON.stringify(text)}: ${JSON.stringify(host)} is neither an IP address nor a host name`);
  return { host, port };
}

export function formatConnectTarget(t: ConnectTarget): string {
  return isIP(t.host) === 6 ? `[${t.host}]:${t.port}` : `${t.host}:${t.port}`;
}
