import type { FastifyRequest } from "fastify";

/**
 * A text field of a posted form ("" when absent or not text); never trimmed for passwords.
 * A file of a multipart form arrives as its bytes and is read as UTF-8 text (PEM files).
 */
export function field(request: FastifyRequest, name: string): string {
  const body = request.body as Record<string, unknown> | undefined;
  const value = body?.[name];
  if (Buffer.isBuffer(value)) return value.toString("utf8");
  return typeof value === "string" ? value : "";
}

/** An optional query parameter as text. */
export function queryParam(request: FastifyRequest, name: string): string {
  const query = request.query as Record<string, unknown> | undefined;
  const value = query?.[name];
  return typeof value === "string" ? value : "";
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);
