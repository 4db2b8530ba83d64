import ipaddr from "ipaddr.js";

/**
 * Which addresses a webhook may connect to (spec 6.4: public addresses only). An allow
 * list of known-good classes, not a block list of known-bad ones: IPv4 must be ipaddr.js
 * `unicast` (after unwrapping IPv4-mapped IPv6), IPv6 must be `unicast` *and* inside
 * 2000::/3. The second rule catches what `range()` misses, such as the deprecated
 * IPv4-compatible `::7f00:1`, which ipaddr.js calls unicast. NAT64, 6to4 and Teredo
 * prefixes have range names of their own and so are refused too: they can embed any IPv4.
 */

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

export interface AddressPolicy {
  /**
   * Addresses treated as public whatever their class. Empty in production; tests put the
   * loopback address of their local receiver here (127.0.0.2/32), so 127.0.0.1 stays blocked.
   */
  allow: readonly Cidr[];
  /** Public addresses that are internal all the same (checked after the allow list). */
  deny: readonly Cidr[];
  /** Ports an endpoint may use (spec 6.4). */
  ports: readonly number[];
}

/** Public but not the Internet: Azure's platform address (WireServer, DNS, IMDS proxy). */
export const ALWAYS_DENIED = ["168.63.129.16/32"] as const;

export const WEBHOOK_PORTS: readonly number[] = [443, 8443];

export function parseCidrs(list: readonly string[]): Cidr[] {
  return list.map((c) => ipaddr.parseCIDR(c));
}

/** The policy of `serve`: nothing extra allowed, the internal public addresses denied. */
export function productionPolicy(extraDeny: readonly string[] = []): AddressPolicy {
  return { allow: [], deny: parseCidrs([...ALWAYS_DENIED, ...extraDeny]), ports: WEBHOOK_PORTS };
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

function inList(ip: ipaddr.IPv4 | ipaddr.IPv6, list: readonly Cidr[]): boolean {
  return list.some(([net, bits]) => net.kind() === ip.kind() && ip.match([net, bits] as never));
}

/** True when a connection to this address is allowed. Anything unparseable is refused. */
export function isAllowedAddress(address: string, policy: AddressPolicy): boolean {
  // Strict form only: ipaddr.isValid accepts "127.1" and octal; the socket layer hands us dotted quads.
  if (!ipaddr.IPv4.isValidFourPartDecimal(address) && !ipaddr.IPv6.isValid(address)) return false;
  let ip: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(address);
  if (inList(ip, policy.allow)) return true;
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  if (inList(ip, policy.deny)) return false;
  if (ip.kind() === "ipv4") return ip.range() === "unicast";
  return ip.range() === "unicast" && ip.match(GLOBAL_UNICAST_V6);
}
