/** Every host name a local deployment is reached by. */
const LOCAL_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/**
 * The Host and Origin names the service answers to: the local names, the host of
 * BASE_URL, the listen address unless it is a wildcard, and what the operator adds
 * (MCP_ALLOWED_HOSTS, MCP_ALLOWED_ORIGINS). /mcp checks them against DNS rebinding; the
 * REST and page routes check them before building links from the Host header, so a
 * forged Host cannot put someone else's address into `next`, `api` or `page` links.
 * The composition root computes it once and hands the lists to both adapters.
 */
export function hostPolicy(o: { baseUrl?: string; listenHost: string; extraHosts?: readonly string[]; extraOrigins?: readonly string[] }): { hosts: string[]; origins: string[] } {
  const names = new Set(LOCAL_HOSTS);
  if (o.baseUrl) names.add(new URL(o.baseUrl).hostname.toLowerCase());
  const listen = o.listenHost.trim().toLowerCase();
  if (listen !== "" && listen !== "0.0.0.0" && listen !== "::") names.add(listen.includes(":") && !listen.startsWith("[") ? `[${listen}]` : listen);
  const hosts = [...names, ...(o.extraHosts ?? []).map((h) => h.trim().toLowerCase())].filter((h) => h !== "");
  const origins = [...names, ...(o.extraOrigins ?? []).map((h) => h.trim())].filter((h) => h !== "");
  return { hosts: [...new Set(hosts)], origins: [...new Set(origins)] };
}
