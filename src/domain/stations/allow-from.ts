import ipaddr from "ipaddr.js";

/** At most this many ranges per station: an allow list, not a routing table. */
export const MAX_ALLOW_FROM = 32;

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Why a `--allow-from` list was refused, naming the entry at fault. */
export class AllowFromError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AllowFromError";
  }
}

/**
 * Parses `--allow-from 192.0.2.10/32,2001:db8::/48`: comma-separated CIDRs (a bare address
 * means that one address). Returns the ranges in canonical text (`10.0.0.0/8`) so what is
 * stored and shown is what is matched. Host bits set in a range (`10.0.0.1/8`) are refused:
 * the owner most likely meant something else, and silently widening it would be worse.
 */
export function parseAllowFrom(text: string): string[] {
  const entries = text.split(",").map((e) => e.trim());
  if (entries.length === 0 || entries.some((e) => e === "")) throw new AllowFromError("--allow-from needs one or more addresses or CIDR ranges separated by commas, e.g. 192.0.2.10/32,198.51.100.0/24");
  if (entries.length > MAX_ALLOW_FROM) throw new AllowFromError(`--allow-from takes at most ${MAX_ALLOW_FROM} ranges; got ${entries.length}`);
  const out: string[] = [];
  for (const entry of entries) {
    const withPrefix = entry.includes("/") ? entry : `${entry}/${ipaddr.isValid(entry) && ipaddr.parse(entry).kind() === "ipv6" ? 128 : 32}`;
    let range: Range;
    try {
      range = ipaddr.parseCIDR(withPrefix);
    } catch {
      throw new AllowFromError(`--allow-from ${JSON.stringify(entry)}: not an IPv4 or IPv6 address or CIDR range (like 192.0.2.0/24)`);
    }
    const [addr, bits] = range;
    const network = addr.kind() === "ipv4" ? ipaddr.IPv4.networkAddressFromCIDR(withPrefix) : ipaddr.IPv6.networkAddressFromCIDR(withPrefix);
    if (network.toString() !== addr.toString()) {
      throw new AllowFromError(`--allow-from ${JSON.stringify(entry)}: host bits are set; the range is ${network.toString()}/${bits}`);
    }
    const canonical = `${network.toString()}/${bits}`;
    if (!out.includes(canonical)) out.push(canonical);
  }
  return out;
}

/**
 * A matcher for a stored allow list. A sender's address is normalised first, so an IPv4
 * sender seen on a dual-stack socket as `::ffff:192.0.2.1` matches `192.0.2.0/24`.
 */
export function allowFromMatcher(ranges: readonly string[]): (address: string) => boolean {
  const parsed = ranges.map((r) => ipaddr.parseCIDR(r));
  return (address: string) => {
    let addr: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      addr = ipaddr.process(address);
    } catch {
      return false;
    }
    for (const range of parsed) {
      if (range[0].kind() === addr.kind() && addr.match(range as never)) return true;
    }
    return false;
  };
}
