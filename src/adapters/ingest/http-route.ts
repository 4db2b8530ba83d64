import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../../domain/errors.ts";
import { errorBody } from "../../operations/envelope.ts";
import type { IngestStation } from "../../interfaces/positions.ts";
import { stationAllows } from "./allow-check.ts";
import { readIngestBody } from "./http-body.ts";
import type { IngestPipeline } from "./pipeline.ts";
import { STATION_COUNTERS } from "./station-counters.ts";
import type { StationDirectory } from "./station-directory.ts";
import { publicBase } from "../shared/public-base.ts";

/** Largest body accepted: ~20,000 sentences, a few minutes of a very busy station. */
export const INGEST_BODY_LIMIT = 1024 * 1024;

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const BASIC = /^Basic[ \t]+([A-Za-z0-9+/=]{1,400})[ \t]*$/i;

type Credentials = { secret: string; user: string | null } | null;

/**
 * The station's secret from `Authorization: Bearer <secret>`, or from HTTP Basic with the
 * station id as user and the secret as password: AIS-catcher's HTTP output (`userpwd
 * <id>:<secret>`) can send only Basic.
 */
function credentials(header: string | undefined): Credentials {
  const bearer = BEARER.exec(header ?? "");
  if (bearer) return { secret: bearer[1]!, user: null };
  const basic = BASIC.exec(header ?? "");
  if (!basic) return null;
  const decoded = Buffer.from(basic[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/**
 * `POST /ingest/nmea`: a station posts NMEA lines, or AIS-catcher's HTTP output posts its
 * envelopes, with the station's secret as a Bearer token or as the Basic password (user:
 * the station id). The body is read for what it is (http-body.ts), never by its
 * Content-Type. The answer comes once what the lines carried is committed, and counts
 * the lines accepted and rejected by reason. The station is checked before the body is
 * read, so unknown senders cost no parsing and store nothing. An empty body (AIS-catcher's
 * heartbeat) marks the station heard.
 */
export function registerIngestRoute(app: FastifyInstance, deps: { pipeline: IngestPipeline; directory: StationDirectory; baseUrl?: string }): void {
  const stations = new WeakMap<FastifyRequest, IngestStation>();
  const baseOf = (req: FastifyRequest) => publicBase(deps.baseUrl, req);
  const fail = (req: FastifyRequest, code: ConstructorParameters<typeof AppError>[0], message?: string) =>
    errorBody(new AppError(code, message), { baseUrl: baseOf(req), requestId: req.id });

  // A scope of its own: every body arrives as bytes, whatever its Content-Type.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: INGEST_BODY_LIMIT }, (_req, body, done) => done(null, body));

    scope.post("/ingest/nmea", {
      bodyLimit: INGEST_BODY_LIMIT,
      onRequest: async (req, reply) => {
        const c = credentials(req.headers.authorization);
        const found = c ? await deps.directory.bySecret(c.secret) : null;
        // With Basic, the user must be the station's id: a secret posted under another station's id is a mistake to surface.
        const station = found && (c!.user === null || c!.user === String(found.id)) ? found : null;
        if (!station) {
          deps.pipeline.unauthenticated("http", c ? "bad_secret" : "no_auth");
          return reply.code(401).header("www-authenticate", 'Bearer realm="station", Basic realm="station"').send(fail(req, "station_unauthenticated"));
        }
        if (!stationAllows(station, req.socket.remoteAddress ?? "")) {
          deps.pipeline.notAllowed("http", station, 1);
          return reply.code(403).send(fail(req, "station_address_not_allowed"));
        }
        stations.set(req, station);
      },
      errorHandler: async (err: { statusCode?: number; code?: string; message?: string }, req, reply) => {
        if (err.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
          return reply.code(413).send(fail(req, "payload_too_large", `The body is larger than ${INGEST_BODY_LIMIT} bytes; post it in smaller parts.`));
        }
        const client = typeof err.statusCode === "number" && err.statusCode >= 400 && err.statusCode < 500;
        if (!client) req.log.error({ err }, "ingest failed");
        const error = client ? new AppError("invalid_parameter", `The request is malformed: ${err.message}`, { param: "body", rule: "must be NMEA lines or AIS-catcher's HTTP output" }) : new AppError("internal_error");
        return reply.code(error.status).send(errorBody(error, { baseUrl: baseOf(req), requestId: req.id }));
      },
      handler: async (req, reply) => {
        const station = stations.get(req)!;
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const body = readIngestBody(raw, req.headers["content-encoding"]);
        if (!body.ok) {
          return reply.code(body.status).send(fail(req, body.status === 413 ? "payload_too_large" : "unsupported_media_type", body.message));
        }
        if (body.noNmea > 0) deps.pipeline.count(station, STATION_COUNTERS.noNmea, body.noNmea);
        if (deps.pipeline.overloaded) await deps.pipeline.whenDrained();
        const r = deps.pipeline.submit(station, body.lines, { source: "http", transport: "http" }, { detail: true });
        await r.stored;
        return reply.code(200).send({
          station: { id: station.id, name: station.name },
          format: body.format,
          lines: r.lines,
          accepted: r.lines - r.rejected,
          rejected: r.rejected,
          reasons: r.reasons,
          ...(body.noNmea > 0 ? { messagesWithoutNmea: body.noNmea } : {}),
          messages: r.messages,
          fragments: r.fragments,
          positions: r.positions,
          invalidPositions: r.invalidPositions,
          statics: r.statics,
        });
      },
    });
  });
}
