import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../../domain/errors.ts";
import { errorBody } from "../../operations/outcome.ts";
import type { IngestStation } from "../../ports/positions.ts";
import type { IngestPipeline } from "./pipeline.ts";
import type { StationDirectory } from "./station-directory.ts";
import { publicBase } from "../shared/public-base.ts";

/** Largest body accepted: ~20,000 sentences, a few minutes of a very busy station. */
export const INGEST_BODY_LIMIT = 1024 * 1024;

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * `POST /ingest/nmea`: a station posts NMEA lines as text/plain with
 * `Authorization: Bearer <station secret>`. The answer comes once what the lines carried
 * is committed, and counts the lines accepted and rejected by reason. The station is
 * checked before the body is read, so unknown senders cost no parsing and store nothing.
 */
export function registerIngestRoute(app: FastifyInstance, deps: { pipeline: IngestPipeline; directory: StationDirectory; baseUrl?: string }): void {
  const stations = new WeakMap<FastifyRequest, IngestStation>();
  const baseOf = (req: FastifyRequest) => publicBase(deps.baseUrl, req);
  const fail = (req: FastifyRequest, code: ConstructorParameters<typeof AppError>[0], message?: string) =>
    errorBody(new AppError(code, message), { baseUrl: baseOf(req), requestId: req.id });

  app.post("/ingest/nmea", {
    bodyLimit: INGEST_BODY_LIMIT,
    onRequest: async (req, reply) => {
      const m = BEARER.exec(req.headers.authorization ?? "");
      const station = m ? await deps.directory.bySecret(m[1]!) : null;
      if (!station) {
        deps.pipeline.unauthenticated("http", m ? "bad_secret" : "no_auth");
        return reply.code(401).header("www-authenticate", 'Bearer realm="station"').send(fail(req, "station_unauthenticated"));
      }
      stations.set(req, station);
    },
    errorHandler: async (err: { statusCode?: number; code?: string; message?: string }, req, reply) => {
      if (err.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
        return reply.code(413).send(fail(req, "payload_too_large", `The body is larger than ${INGEST_BODY_LIMIT} bytes; post it in smaller parts.`));
      }
      if (err.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
        return reply.code(415).send(fail(req, "unsupported_media_type", "Send NMEA lines as `Content-Type: text/plain`."));
      }
      const client = typeof err.statusCode === "number" && err.statusCode >= 400 && err.statusCode < 500;
      if (!client) req.log.error({ err }, "ingest failed");
      const error = client ? new AppError("invalid_parameter", `The request is malformed: ${err.message}`, { param: "body", rule: "must be NMEA lines as text/plain" }) : new AppError("internal_error");
      return reply.code(error.status).send(errorBody(error, { baseUrl: baseOf(req), requestId: req.id }));
    },
    handler: async (req, reply) => {
      const station = stations.get(req)!;
      if (typeof req.body !== "string" && req.body !== undefined && req.body !== null) {
        return reply.code(415).send(fail(req, "unsupported_media_type", "Send NMEA lines as `Content-Type: text/plain`."));
      }
      const lines = (typeof req.body === "string" ? req.body : "").split("\n").filter((l) => l.trim() !== "");
      if (deps.pipeline.overloaded) await deps.pipeline.whenDrained();
      const r = deps.pipeline.submit(station, lines, { source: "http", transport: "http" }, { detail: true });
      await r.stored;
      return reply.code(200).send({
        station: { id: station.id, name: station.name },
        lines: r.lines,
        accepted: r.lines - r.rejected,
        rejected: r.rejected,
        reasons: r.reasons,
        messages: r.messages,
        fragments: r.fragments,
        positions: r.positions,
        invalidPositions: r.invalidPositions,
        statics: r.statics,
      });
    },
  });
}
