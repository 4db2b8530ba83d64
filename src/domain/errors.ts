/**
 * The one table of errors a client can see. REST maps a code to its HTTP status,
 * MCP to a tool result with isError; docs/errors.md is kept in step by a test.
 * `message` is the default wording of the failure; `hint` says what to do about it, for a
 * model reading an MCP tool result (it cannot read the docs page the REST body links to).
 */
export const ERROR_CODES = {
  missing_api_key: { status: 401, retryable: false, message: "This operation needs an API key: send `Authorization: Bearer <API_KEY>`.", hint: "Configure the MCP client with the header `Authorization: Bearer <API_KEY>`." },
  invalid_api_key: { status: 401, retryable: false, message: "The API key is not valid. Check that it was copied whole.", hint: "Configure the MCP client with a valid key in `Authorization: Bearer <API_KEY>`." },
  api_key_revoked: { status: 401, retryable: false, message: "The API key has been revoked. Create a new key.", hint: "The key was revoked; configure the MCP client with a new key." },
  invalid_parameter: { status: 400, retryable: false, message: "A parameter is missing or does not follow its rule.", hint: "Correct that argument (see the tool's input schema) and call again." },
  not_found: { status: 404, retryable: false, message: "No such resource.", hint: "Check the identifier; nothing was charged." },
  route_not_found: { status: 404, retryable: false, message: "No operation answers at this method and path.", hint: "Check the method and path against the OpenAPI document; nothing was charged." },
  plan_lacks_feature: { status: 403, retryable: false, message: "The plan of this key does not include this feature.", hint: "The API key's account needs one of the plans named; tell the user to upgrade or to use a key of such an account. Nothing was charged." },
  credits_exhausted: { status: 402, retryable: false, message: "The account's monthly credits are used up; they reset at the start of next month (UTC).", hint: "The monthly credits reset on the 1st (UTC); `get_usage` shows the balance. Tell the user, or use fewer or cheaper calls. Nothing was charged." },
  rate_limited: { status: 429, retryable: true, message: "Too many requests for this key; wait for Retry-After seconds.", hint: "Wait the number of seconds given in `retryAfter`, then call again." },
  archive_unavailable: { status: 503, retryable: true, message: "The position archive (older than 90 days) cannot be reached right now; retry later. Not charged.", hint: "Retry later, or ask for a window within the last 90 days. Nothing was charged." },
  sanctions_unavailable: { status: 503, retryable: true, message: "None of the requested sanctions lists has been loaded yet, so nothing could be checked. Not charged.", hint: "Nothing was checked: do not treat the vessels as clear. Tell the user the sanctions lists are not loaded (the operator runs `npx mds import sanctions --all`), or retry later. Nothing was charged." },
  service_unavailable: { status: 503, retryable: true, message: "A backing store cannot be reached right now; retry later. Not charged.", hint: "Retry in a little while. Nothing was charged." },
  internal_error: { status: 500, retryable: true, message: "Something went wrong on our side. Not charged.", hint: "Retry once; if it fails again, report the request id. Nothing was charged." },
  station_unauthenticated: { status: 401, retryable: false, message: "Station ingest needs `Authorization: Bearer <station secret>` (or HTTP Basic with the station id as user and the secret as password) of a known station.", hint: "Configure the station with the secret `npx mds stations create` printed." },
  station_address_not_allowed: { status: 403, retryable: false, message: "This station accepts data only from the addresses its owner allowed (`stations update <id> --allow-from`); nothing was stored.", hint: "Send from an allowed address, or have the owner widen the station's `--allow-from`." },
  payload_too_large: { status: 413, retryable: false, message: "The request body is larger than this endpoint accepts; send it in smaller parts.", hint: "Send the lines in smaller parts." },
  unsupported_media_type: { status: 415, retryable: false, message: "The request body must be sent with the content type this endpoint accepts.", hint: "Send the body with the content type the endpoint names." },
  limit_reached: { status: 403, retryable: false, message: "The account already has as many of these as its plans allow; delete one or move to a larger plan.", hint: "Delete one you no longer need, or move the account to a larger plan." },
  conflict: { status: 409, retryable: false, message: "The resource is not in a state that allows this action.", hint: "Check the resource's state (for a delivery: its endpoint is on and it is not being sent) and try again." },
  host_not_allowed: { status: 421, retryable: false, message: "This server does not answer to the host name in the Host header; call it by its public address.", hint: "Call the service by the address its operator published (its BASE_URL)." },
  metrics_not_allowed: { status: 403, retryable: false, message: "/metrics answers loopback clients only, or, when the operator set METRICS_TOKEN, requests with `Authorization: Bearer <METRICS_TOKEN>`.", hint: "Scrape /metrics from the same host, or with the metrics token as a bearer credential." },
} as const satisfies Record<string, { status: number; retryable: boolean; message: string; hint: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorDetails {
  /** The parameter at fault, for invalid_parameter. */
  param?: string;
  /** The rule it broke, in words a client can act on. */
  rule?: string;
  /** Seconds to wait, for rate_limited. */
  retryAfter?: number;
  [key: string]: unknown;
}

/** An expected failure of an operation, carrying its code from the table. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, message?: string, details: ErrorDetails = {}) {
    super(message ?? ERROR_CODES[code].message);
    this.name = "AppError";
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }

  get retryable(): boolean {
    return ERROR_CODES[this.code].retryable;
  }

  /**
   * Whether the failure is ours (a fault an operator must look at) rather than an answer:
   * every 4xx is the client's, and `sanctions_unavailable` is the documented answer of a
   * service whose lists are not loaded yet. A backing store out of reach, or anything
   * unexpected, is a fault.
   */
  get fault(): boolean {
    return FAULT_CODES.has(this.code);
  }
}

const FAULT_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(["internal_error", "service_unavailable", "archive_unavailable"]);

export function invalidParameter(param: string, rule: string): AppError {
  return new AppError("invalid_parameter", `Parameter \`${param}\`: ${rule}`, { param, rule });
}
