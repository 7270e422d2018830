import { billing, environmentSchema, isoDateTimeSchema } from "@pasarela/contracts";
import { z } from "zod";
import { invalidResponse, pageQuery } from "./http-shapes.js";
import type { RouteModule } from "./route-module.js";

const tags = ["uso"];
const desde = isoDateTimeSchema.optional().describe("Desde (inclusive), ISO 8601 con zona");
const hasta = isoDateTimeSchema.optional().describe("Hasta (exclusive), ISO 8601 con zona");

const listQuery = z
  .object({
    ...pageQuery,
    from: desde,
    to: hasta,
    route: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("Ruta exacta como se define, p. ej. /api/wsfe/facturas o /api/clientes/:id"),
    status: z.coerce.number().int().min(100).max(599).optional().describe("Status HTTP exacto"),
    environment: environmentSchema.optional(),
  })
  .strict();

/**
 * `GET /api/uso`, `GET /api/uso/resumen`: the calling account's own usage history
 * and its period's quota; another account's history is never reachable (billing filters by
 * the key's account, never by a parameter).
 */
export const usoRoutes: RouteModule = {
  name: "uso",
  services: ["billing"],
  plugin: (app, { call }) => {
    app.get(
      "/uso",
      {
        schema: {
          summary: "Historial de uso de la cuenta",
          description:
            "Cada llamada autenticada: cuándo, API key (su id, nunca el secreto), ruta, entorno, representada, status, código de error, latencia y si consumió cuota. Más recientes primero; página siguiente con cursor = nextCursor. Se guarda 13 meses.",
          tags,
          querystring: listQuery,
          response: {
            200: billing.usageList.reply.describe("Una página"),
            400: invalidResponse,
          },
        },
      },
      (request) => call(request, billing.usageList, request.query),
    );
    app.get(
      "/uso/resumen",
      {
        schema: {
          summary: "Resumen de uso: llamadas por día y status, y cuota del período",
          description:
            "Por día (hora de Argentina) la cantidad de llamadas por status, desde el inicio del período por omisión; y de cada cuota del plan, lo usado y lo que queda en este período (solo producción consume).",
          tags,
          querystring: z.object({ from: desde, to: hasta }).strict(),
          response: { 200: billing.usageSummary.reply, 400: invalidResponse },
        },
      },
      (request) => call(request, billing.usageSummary, request.query),
    );
    return Promise.resolve();
  },
};
