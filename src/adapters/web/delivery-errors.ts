import type { ErrorClass } from "../../interfaces/webhooks.ts";

/**
 * Each class of failed webhook delivery in words: what happened and what the endpoint's
 * owner can do about it. The delivery log and the test banner say these instead of the bare
 * class (`dns`), which only the worker's authors could read.
 */
export const DELIVERY_ERROR_WORDS: Readonly<Record<ErrorClass, { what: string; todo: string }>> = {
  invalid_target: { what: "The URL is not one the service may send to.", todo: "Change it to an https URL on port 443 or 8443 with a public host name." },
  blocked_address: {
    what: "The host name resolved to a private, loopback or otherwise reserved address, which the service never connects to.",
    todo: "Point the host name's DNS records at a public address of your receiver.",
  },
  dns: { what: "The host name could not be resolved: no such name, or its DNS servers did not answer.", todo: "Check the spelling of the host and that its DNS records exist and are public." },
  connect: { what: "No connection could be made: the address refused or dropped it.", todo: "Check that your receiver is running and reachable from the internet on that port (firewall, load balancer)." },
  tls: { what: "The TLS handshake failed: the certificate is expired, self-signed, or names another host.", todo: "Serve a valid certificate for this host name from a public certificate authority." },
  timeout: { what: "The receiver did not answer in time.", todo: "Answer at once with a 2xx and do the work afterwards; the body can be queued on your side." },
  http_status: { what: "The receiver answered with a status outside 2xx.", todo: "See the HTTP status and the answer's first bytes in the log; any 2xx counts as delivered." },
  protocol: { what: "The receiver's answer was not valid HTTP, or the connection closed mid-answer.", todo: "Check the receiver (or a proxy before it) for crashes and malformed answers." },
  body_too_large: { what: "The receiver's answer was larger than the service reads.", todo: "Answer with a short body, or none." },
  interrupted: { what: "The attempt was cut off when the sending process stopped.", todo: "Nothing: the delivery is attempted again on its schedule, or retry it now." },
};

/** The words for a class as the log stores it; a class added later without words shows as it is. */
export function deliveryErrorWords(errorClass: string): { what: string; todo: string } | null {
  return (DELIVERY_ERROR_WORDS as Record<string, { what: string; todo: string }>)[errorClass] ?? null;
}
