/**
 * The address clients reach the service at, for links in answers: BASE_URL when the operator
 * set it, otherwise the request's own scheme and Host (which the host policy has already
 * checked against the allowed names). No trailing slash, so paths append cleanly.
 */
export function publicBase(baseUrl: string | undefined, req: { protocol: string; host: string }): string {
  return (baseUrl ?? `${req.protocol}://${req.host}`).replace(/\/+$/, "");
}
