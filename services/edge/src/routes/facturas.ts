import { wsfe } from "@pasarela/contracts";
import { invalidField } from "@pasarela/errors";
import type { FastifyReply } from "fastify";
import { z } from "zod";
import { EdgeError } from "../http/edge-error.js";
import {
  enqueueExportacion,
  enqueueFactura,
  issueExportacion,
  issueFactura,
  prefersAsync,
  type QueuedAnswer,
} from "./factura-issue.js";
import { emisionHttp, emisionHttpSchema } from "./emisiones.js";
import { facturaExamples } from "./factura-examples.js";
import { exportacionExamples } from "./exportacion-examples.js";
import { errorBodySchema } from "./http-shapes.js";
import type { RouteModule } from "./route-module.js";

const IDEMPOTENCY_KEY_MAX = 255;

/** The `Idempotency-Key` header's value, or undefined without one; 400 naming it otherwise. */
function idempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(", ") : header;
  if (value.trim() === "") {
    throw new EdgeError(invalidField("Idempotency-Key", "no puede estar vacío"));
  }
  if (value.length > IDEMPOTENCY_KEY_MAX) {
    throw new EdgeError(
      invalidField("Idempotency-Key", `admite hasta ${IDEMPOTENCY_KEY_MAX} caracteres`),
    );
  }
  return value;
}

const headers = z.looseObject({
  "idempotency-key": z
    .string()
    .optional()
    .describe(
      "Clave única por comprobante (un UUID, un número de pedido), de 1 a 255 caracteres, propia de tu cuenta. Un reintento con la misma clave y el mismo cuerpo devuelve el mismo estado y cuerpo que la primera respuesta (el mismo CAE, nunca un segundo comprobante); con otro cuerpo, 422; mientras la primera sigue en curso, 409. Tras un 502, el reintento devuelve el comprobante que la AFIP realmente emitió. Los rechazos previos a la AFIP (400, 401, 402, 403, 429) no la atan. Se guarda al menos 24 h.",
    ),
  prefer: z
    .string()
    .optional()
    .describe(
      "respond-async (RFC 7240): la emisión se encola y se responde 202 con Location en cuanto se juzgó todo lo que no necesita a la AFIP (400, 402, 403, 409, 422 propios y 429 se responden enseguida). La pasarela la lleva a cabo y la reintenta mientras la AFIP falle, hasta autorizarla o ver su rechazo (o hasta ASYNC_ISSUANCE_MAX_AGE: no_emitido). GET en Location da su estado y el webhook del resultado avisa. Con la misma Idempotency-Key, una llamada asincrónica y un reintento sincrónico o asincrónico son la misma emisión.",
    ),
});

/** 202 with Location and Preference-Applied, or the answer the key already has. */
function sendQueued<F>(reply: FastifyReply, answer: QueuedAnswer<F>): FastifyReply {
  if (answer.location !== undefined) void reply.header("location", answer.location);
  if (answer.status === 202) {
    void reply.header("preference-applied", "respond-async");
    return reply.code(202).send(emisionHttp(answer.body));
  }
  return reply.send(answer.body);
}

const accepted = emisionHttpSchema.describe(
  "Con Prefer: respond-async: encolada (estado pendiente). Location: dónde consultar su estado",
);

const body = wsfe.facturaBodySchema.meta({ "x-examples": facturaExamples });

const description = `Emite un comprobante de WSFEv1 y devuelve su CAE. La pasarela resuelve clienteId y productoId en tu cuenta (un valor enviado explícitamente gana), calcula ImpNeto, ImpIVA por alícuota, ImpTrib, ImpTotConc, ImpOpEx e ImpTotal con aritmética decimal (redondeo a 2 decimales por línea y por alícuota) y numera el comprobante ella misma: último autorizado + 1 en esa serie (punto de venta y tipo), un emisor por serie a la vez.

Todo 400 y 422 propio se responde antes de llamar a la AFIP y no mueve la numeración. Un 422 con resultado "R" es el rechazo de la AFIP: observaciones y errores traen sus códigos. Un 502 no prueba que el comprobante no se haya emitido: la pasarela lo guarda como de resultado desconocido y lo verifica con la AFIP antes de volver a numerar esa serie; reintentá con la misma Idempotency-Key o consultá /api/wsfe/comprobante.

Ítems sin IVA: alicuotaIva "no_gravado" (va a ImpTotConc) o "exento" (va a ImpOpEx). Moneda extranjera sin cotizacion: la del día de la AFIP.`;

const exportacionBody = wsfe.exportacionBodySchema.meta({ "x-examples": exportacionExamples });

const exportacionDescription = `Emite un comprobante de exportación de WSFEXv1 (Factura E 19, Nota de Débito E 20, Nota de Crédito E 21) y devuelve su CAE. La pasarela resuelve clienteId y productoId en tu cuenta (un valor enviado explícitamente gana), calcula cada ítem (cantidad × precioUnitario − bonificacion) e impTotal con aritmética decimal, numera el comprobante ella misma (último autorizado + 1 en esa serie, un emisor por serie a la vez) y le asigna el Id de FEXAuthorize, que guarda con él antes de enviarlo: un reenvío tras una falla lleva el mismo Id y la AFIP devuelve el CAE que ya había otorgado.

Todo 400 y 422 propio se responde antes de llamar a la AFIP y no mueve la numeración: campos obligatorios por tipo y por tipoExpo, permisos, Incoterms, fechaPago, moneda y cotización, ítems y totales. Un 422 con resultado "R" es el rechazo de la AFIP con su código. Un 502 no prueba que el comprobante no se haya emitido: reintentá con la misma Idempotency-Key.

Las tablas para completar el cuerpo (países, CUIT de países, monedas, unidades, Incoterms, idiomas, actividades) están en POST /api/wsfex/parametros/{tabla}. El comprobante aparece en /api/wsfe/comprobantes, su PDF (en el idioma del comprobante) y su envío por e-mail como cualquier otro.`;

const issuanceErrors = (service: string) => ({
  400: errorBodySchema.describe(
    "Cuerpo o campo inválido (el mensaje lo nombra), cbteTipo no soportado, Idempotency-Key vacía o de más de 255 caracteres, clienteId/productoId que no se resuelven en tu cuenta",
  ),
  401: z.object({ error: z.literal("No autorizado") }),
  402: errorBodySchema.describe(
    "Cuota de facturas del período agotada (solo en producción; cuentan los comprobantes con CAE)",
  ),
  403: errorBodySchema.describe(
    `API key de solo lectura (Esta API key es de solo lectura y no puede emitir comprobantes.); representada no registrada o sin certificado activo; certificado no delegado; la representada no delegó ${service}`,
  ),
  409: errorBodySchema.describe(
    "La emisión con esta Idempotency-Key todavía está en curso: reintentá en unos segundos",
  ),
  429: errorBodySchema.describe(
    "Demasiados comprobantes rechazados en la última hora en ese entorno: el mensaje y Retry-After dicen cuándo se acepta la próxima emisión",
  ),
  502: errorBodySchema.describe(
    "Falla de la AFIP. Si el comprobante llegó a enviarse, details.outcome es unknown: puede haberse emitido",
  ),
  503: errorBodySchema.describe(
    "Un servicio de la pasarela no respondió, o la serie está ocupada por otra emisión: reintentá",
  ),
});

/** `POST /api/wsfe/facturas` and `POST /api/wsfex/facturas`: issuance, in the "emision" write group. */
export const facturasRoutes: RouteModule = {
  name: "facturas",
  services: ["wsfe", "ticket", "catalog"],
  plugin: (app, { call, publish }) => {
    app.post(
      "/wsfe/facturas",
      {
        config: { writeGroup: "emision" },
        schema: {
          summary: "Emitir un comprobante (FECAESolicitar)",
          description,
          tags: ["wsfe"],
          headers,
          body,
          response: {
            200: wsfe.facturaHttpReplySchema.describe("Autorizado: CAE, totales y QR"),
            202: accepted,
            ...issuanceErrors("wsfe"),
            400: errorBodySchema.describe(
              "Cuerpo o campo inválido (el mensaje lo nombra), cbteTipo no soportado, Idempotency-Key vacía o de más de 255 caracteres, clienteId/productoId que no se resuelven en tu cuenta o sin condición frente al IVA / alícuota cargada",
            ),
            422: z
              .union([
                wsfe.facturaRejectedBodySchema,
                errorBodySchema.describe(
                  "Totales, alícuotas o bloques que no cierran; o la Idempotency-Key ya se usó con otro cuerpo (IDEMPOTENCY_KEY_REUSED)",
                ),
              ])
              .describe(
                'Rechazado: por la AFIP (resultado "R" con observaciones y errores; 10016 y 11002 con la indicación de qué hacer) o por las reglas de totales antes de llamarla (TOTALS_INVALID, el mensaje nombra el campo y la regla)',
              ),
          },
        },
      },
      async (request, reply) => {
        const key = idempotencyKey(request.headers["idempotency-key"]);
        const a = { call, publish, request, body: request.body, key };
        if (prefersAsync(request.headers.prefer)) return sendQueued(reply, await enqueueFactura(a));
        return reply.send(await issueFactura(a));
      },
    );
    app.post(
      "/wsfex/facturas",
      {
        config: { writeGroup: "emision" },
        schema: {
          summary: "Emitir un comprobante de exportación (FEXAuthorize)",
          description: exportacionDescription,
          tags: ["wsfex"],
          headers,
          body: exportacionBody,
          response: {
            200: wsfe.exportacionHttpReplySchema.describe(
              "Autorizado: CAE, total, moneda, cotización y QR",
            ),
            202: accepted,
            ...issuanceErrors("wsfex"),
            422: z
              .union([
                wsfe.facturaRejectedBodySchema,
                errorBodySchema.describe(
                  "Reglas del comprobante que no se cumplen (el mensaje nombra el campo); o la Idempotency-Key ya se usó con otro cuerpo (IDEMPOTENCY_KEY_REUSED)",
                ),
              ])
              .describe(
                'Rechazado: por la AFIP (resultado "R" con su código de error) o por las reglas de exportación antes de llamarla (TOTALS_INVALID, el mensaje nombra el campo y la regla)',
              ),
          },
        },
      },
      async (request, reply) => {
        const key = idempotencyKey(request.headers["idempotency-key"]);
        const a = { call, publish, request, body: request.body, key };
        if (prefersAsync(request.headers.prefer)) {
          return sendQueued(reply, await enqueueExportacion(a));
        }
        return reply.send(await issueExportacion(a));
      },
    );
    return Promise.resolve();
  },
};
