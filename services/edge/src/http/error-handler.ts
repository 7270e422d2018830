import { STATUS_CODES } from "node:http";
import { appError, catalogue, invalidField, invalidJson, type AppError } from "@pasarela/errors";
import { attachedError } from "@pasarela/contracts";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { EdgeError } from "./edge-error.js";
import { retryAfterOf, statusOf } from "./status.js";
import { traceFields } from "./tracing.js";
import { noteErrorCode } from "./usage.js";

interface ValidationEntry {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Every error body but the 401: `{error, code}` plus `details` where there are any. */
function errorBody(error: AppError): Record<string, unknown> {
  if (error.code === "UNAUTHORIZED") return { error: catalogue.UNAUTHORIZED.message };
  const { lifted, details } = liftRejection(error);
  return {
    error: error.message,
    code: error.code,
    ...lifted,
    ...(details ? { details } : {}),
  };
}

/** The status and body an error is answered with, for callers that record the answer. */
export function errorAnswer(error: AppError): { status: number; body: Record<string, unknown> } {
  return { status: statusOf(error), body: errorBody(error) };
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  noteErrorCode(reply.request, error.code);
  const retryAfter = retryAfterOf(error);
  if (retryAfter !== undefined) void reply.header("retry-after", retryAfter);
  return reply.code(statusOf(error)).send(errorBody(error));
}

/**
 * The same answer as raw HTTP/1.1 bytes, for errors found before fastify has a request (the
 * HTTP parser's own: unreadable request, headers too large, request time out). The
 * connection is closed after it: what follows on the socket cannot be trusted.
 */
export function rawErrorResponse(error: AppError): string {
  const status = statusOf(error);
  const body = JSON.stringify(errorBody(error));
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}`,
    "content-type: application/json; charset=utf-8",
    `content-length: ${Buffer.byteLength(body)}`,
    "connection: close",
    "",
    body,
  ].join("\r\n");
}

const REJECTION_FIELDS = ["resultado", "observaciones", "errores"] as const;

/**
 * An authority rejection answers `resultado`, `observaciones` and `errores`
 * at the top of the body, beside `error` and `code`; the rest of its details stay in `details`.
 */
function liftRejection(error: AppError): {
  lifted: Record<string, unknown>;
  details: Record<string, unknown> | undefined;
} {
  if (error.code !== "AUTHORITY_REJECTED" || !error.details) {
    return { lifted: {}, details: error.details };
  }
  const lifted: Record<string, unknown> = {};
  const details: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(error.details)) {
    if ((REJECTION_FIELDS as readonly string[]).includes(name)) lifted[name] = value;
    else details[name] = value;
  }
  return { lifted, details: Object.keys(details).length > 0 ? details : undefined };
}

const fieldLabel = (path: string, prefix: string) => {
  const field = path.replace(/^\//, "").replaceAll("/", ".");
  return field ? `${prefix}${field}` : "";
};

/** Fastify and zod failures in the catalogue's words, naming the field or the problem. */
export function toAppError(error: FastifyError, request: FastifyRequest): AppError {
  if (error instanceof EdgeError) return error.appError;
  if (hasZodFastifySchemaValidationErrors(error)) {
    // fastify's validation entry type lives in a path NodeNext cannot resolve: state its shape
    const validation = error.validation as readonly ValidationEntry[];
    const [first] = validation;
    const attached = first && attachedError({ code: first.keyword, params: first.params.params });
    if (attached) return attached;
    const where =
      error.validationContext === "body" || !error.validationContext
        ? ""
        : `${error.validationContext}.`;
    if (first?.keyword === "unrecognized_keys") {
      const keys = (first.params.keys as string[] | undefined) ?? [];
      const base = fieldLabel(first.instancePath, where);
      return invalidField(
        keys.map((k) => (base ? `${base}.${k}` : k)).join(", "),
        "no existe en esta operación",
      );
    }
    return invalidField(
      fieldLabel(first?.instancePath ?? "", where) || "(cuerpo)",
      first?.message ?? "es inválido",
    );
  }
  switch (error.code) {
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return invalidJson("el cuerpo está vacío y Content-Type es application/json");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return invalidJson(
        `Content-Type ${request.headers["content-type"] ?? "(ninguno)"} no soportado; enviá application/json`,
      );
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return appError("BODY_TOO_LARGE");
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return invalidJson("Content-Length no coincide con el cuerpo");
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return invalidJson("revisá la sintaxis (comillas, comas, llaves) o el Content-Type");
    default:
      break;
  }
  if (error instanceof SyntaxError) return invalidJson(`revisá la sintaxis (${error.message})`);
  if (typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500) {
    return invalidJson(error.message);
  }
  return appError("INTERNAL");
}

/** The single error handler and the not-found answer. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const mapped = toAppError(error, request);
    if (mapped.code === "INTERNAL") {
      request.log.error(
        { ...traceFields(request), requestId: request.id, err: error },
        "unexpected error",
      );
    }
    return sendError(reply, mapped);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, {
      ...appError("ROUTE_NOT_FOUND"),
      message: `Ruta no encontrada: ${request.method} ${request.url.split("?")[0] ?? ""}`,
    }),
  );
}
