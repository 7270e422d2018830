import { wsfe } from "@pasarela/contracts";
import { appError, isErrorCode } from "@pasarela/errors";
import { z } from "zod";
import { errorAnswer } from "../http/error-handler.js";
import { errorBodySchema, idParamsSchema } from "./http-shapes.js";
import type { RouteModule } from "./route-module.js";

/**
 * An asynchronous issuance over HTTP: its state and, once it ended, the answer the
 * synchronous call would have given (`respuesta`: its status and body).
 */
export const emisionHttpSchema = z
  .object({
    id: z
      .uuid()
      .describe("Id de la emisión: GET /api/wsfe/facturas/{id} (o /api/wsfex/…) la consulta"),
    estado: wsfe.emisionEstadoSchema.describe(
      "pendiente (en cola o reintentándose), autorizado, rechazado o no_emitido",
    ),
    environment: z.enum(["homologacion", "produccion"]),
    idempotencyKey: z.string().nullable(),
    createdAt: z.string().describe("Cuándo se recibió"),
    updatedAt: z.string(),
    intentos: z.number().int().describe("Intentos de emisión hechos hasta ahora"),
    proximoIntento: z
      .string()
      .nullable()
      .describe("Mientras está pendiente: cuándo se intenta otra vez"),
    respuesta: z
      .object({
        status: z
          .number()
          .int()
          .describe("El estado HTTP que habría respondido la emisión sincrónica"),
        body: z
          .record(z.string(), z.unknown())
          .describe("Su cuerpo: el comprobante autorizado o el error"),
      })
      .optional()
      .describe("Cuando terminó: la misma respuesta que la emisión sincrónica"),
  })
  .describe("Una emisión asincrónica");
export type EmisionHttp = z.output<typeof emisionHttpSchema>;

/** An asynchronous issuance as the API shows it. */
export function emisionHttp(emision: wsfe.EmisionAsync): EmisionHttp {
  const { answer, tipo: _tipo, ...fields } = emision;
  if (answer === undefined) return fields;
  if (answer.kind === "authorized")
    return { ...fields, respuesta: { status: 200, body: answer.factura } };
  const { code, message, details } = answer.error;
  const error = isErrorCode(code)
    ? { code, message, ...(details === undefined ? {} : { details }) }
    : appError("INTERNAL");
  return { ...fields, respuesta: errorAnswer(error) };
}

const description = (service: string) =>
  `El estado de una emisión pedida con Prefer: respond-async a POST /api/${service}/facturas: pendiente mientras espera o se reintenta (la AFIP caída o lenta), y al terminar autorizado (respuesta: el 200 con el CAE), rechazado (respuesta: el 422 de la AFIP o de las reglas) o no_emitido (la AFIP no permitió emitirlo dentro de ASYNC_ISSUANCE_MAX_AGE, o la emisión dejó de ser posible: respuesta dice por qué). Cada final dispara también su webhook.`;

/** `GET /api/wsfe/facturas/{id}` and `GET /api/wsfex/facturas/{id}`: asynchronous issuances. */
export const emisionesRoutes: RouteModule = {
  name: "emisiones",
  services: ["wsfe"],
  plugin: (app, { call }) => {
    for (const [service, tipo] of [
      ["wsfe", "factura"],
      ["wsfex", "exportacion"],
    ] as const) {
      app.get(
        `/${service}/facturas/:id`,
        {
          schema: {
            summary: "Consultar una emisión asincrónica",
            description: description(service),
            tags: [service],
            params: idParamsSchema,
            response: {
              200: emisionHttpSchema,
              404: errorBodySchema.describe("No hay una emisión con ese id en tu cuenta"),
            },
          },
        },
        async (request) =>
          emisionHttp(await call(request, wsfe.emisionGet, { id: request.params.id, tipo })),
      );
    }
    return Promise.resolve();
  },
};
