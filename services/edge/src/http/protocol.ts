import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { appError, malformedRequest, type AppError } from "@pasarela/errors";
import type { Logger } from "@pasarela/telemetry";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { EdgeError } from "./edge-error.js";
import { rawErrorResponse, sendError } from "./error-handler.js";

export interface ProtocolLimits {
  /** how long headers and body may take to arrive, from the first byte of the request */
  requestTimeoutMs: number;
  /** how long a connection may stay silent; longer than the slowest answer the edge waits for */
  connectionTimeoutMs: number;
}

/** What the HTTP parser refused, in the catalogue's words. */
function clientErrorOf(code: string): AppError {
  switch (code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return appError("REQUEST_TIMEOUT");
    case "HPE_HEADER_OVERFLOW":
      return appError("HEADERS_TOO_LARGE");
    // the framings a request-smuggling attempt plays with
    case "HPE_INVALID_TRANSFER_ENCODING":
    case "HPE_INVALID_CONTENT_LENGTH":
      return malformedRequest(
        "Content-Length o Transfer-Encoding inválido (no pueden ir juntos; Transfer-Encoding termina en chunked)",
      );
    case "HPE_UNEXPECTED_CONTENT_LENGTH":
      return malformedRequest("Content-Length repetido");
    default:
      return malformedRequest("no se pudo leer la línea de pedido o los encabezados");
  }
}

/**
 * Server options that keep every answer inside the catalogue, including those fastify and
 * Node give before any route runs: a path that is not valid percent-encoded UTF-8 or too long
 * (fastify's router), and what the HTTP parser refuses or times out (Node's `clientError`).
 * Node's own missing-Host answer (400, empty body) is turned off so the Host check below
 * answers it instead.
 */
export function protocolOptions(limits: ProtocolLimits, logger: Logger) {
  return {
    // the whole request (headers and body) must arrive within this; answered 408
    requestTimeout: limits.requestTimeoutMs,
    // a silent socket is closed after this; it must outlast the slowest answer
    connectionTimeout: limits.connectionTimeoutMs,
    http: {
      requireHostHeader: false,
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.requestTimeoutMs,
      // Node checks the request deadlines on this period (30 s by default)
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, limits.requestTimeoutMs / 2)),
    },
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      let answer: AppError;
      if (error.code === "FST_ERR_BAD_URL") answer = appError("INVALID_URL");
      else if (error.code === "FST_ERR_MAX_PARAM_LENGTH") answer = appError("URI_TOO_LONG");
      else {
        request.log.error({ err: error, requestId: request.id }, "unexpected framework error");
        answer = appError("INTERNAL");
      }
      void sendError(reply, answer);
    },
    clientErrorHandler: (error: NodeJS.ErrnoException, socket: Socket) => {
      // a reset connection has nobody left to answer
      if (error.code === "ECONNRESET" || socket.destroyed) return;
      const answer = clientErrorOf(error.code ?? "");
      logger.info({ code: answer.code, cause: error.code }, "client error");
      // Node's own rule: never write over a response that has begun on this socket
      const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
      if (socket.writable && !inFlight?.headersSent) socket.write(rawErrorResponse(answer));
      socket.destroy(error);
    },
  };
}

/**
 * HTTP/1.1 requires a Host header (RFC 9112, section 3.2): without one the request is refused
 * with a catalogue body, before authentication.
 */
export function registerHostCheck(app: FastifyInstance): void {
  app.addHook("onRequest", (request, reply, done) => {
    const { httpVersionMajor, httpVersionMinor } = request.raw;
    const requiresHost = httpVersionMajor > 1 || (httpVersionMajor === 1 && httpVersionMinor >= 1);
    if (requiresHost && !request.headers.host) {
      // a client this far from HTTP/1.1 gets no second request on the connection
      void reply.header("connection", "close");
      done(new EdgeError(malformedRequest("falta el encabezado Host")));
      return;
    }
    done();
  });
}
