import { wsfe } from "@pasarela/contracts";
import { z } from "zod";
import { errorBodySchema, invalidResponse } from "./http-shapes.js";
import type { RouteModule } from "./route-module.js";

const description = `Envía por e-mail un comprobante autorizado emitido por la pasarela: PDF adjunto (el original, el mismo de /api/wsfe/comprobantes/pdf), un link para verlo, texto plano y HTML en castellano, con el nombre de la representada como remitente.

El envío es asíncrono y durable: responde 202 con status "pending" y /api/wsfe/comprobante muestra luego email {to, status, error}: "sent" al entregarse al servidor SMTP, o "failed" con el texto del error SMTP. Una falla temporal (4xx, servidor que no responde) se reintenta con espera creciente por un tiempo acotado; una permanente (5xx) no.

Sin to se usa el e-mail del cliente receptor (si la emisión usó clienteId) y, si no tiene, el email de la emisión.`;

/** `POST /api/wsfe/comprobantes/email`: e-mail belongs to the issuance write group. */
export const emailRoutes: RouteModule = {
  name: "email",
  services: ["wsfe", "mail", "pdf"],
  plugin: (app, { call }) => {
    app.post(
      "/wsfe/comprobantes/email",
      {
        config: { writeGroup: "emision" },
        schema: {
          summary: "Enviar un comprobante por e-mail",
          description,
          tags: ["wsfe"],
          body: wsfe.emailSendBodySchema,
          response: {
            202: wsfe.emailSendReplySchema.describe("En cola de envío"),
            400: invalidResponse.describe(
              "Campo inválido (una dirección de e-mail mal formada, el mensaje la nombra) o sin destinatario: ni to, ni e-mail del cliente receptor, ni email de la emisión (EMAIL_RECIPIENT_MISSING)",
            ),
            401: z.object({ error: z.literal("No autorizado") }),
            403: errorBodySchema.describe(
              "API key de solo lectura: Esta API key es de solo lectura y no puede emitir comprobantes.",
            ),
            404: errorBodySchema.describe(
              "Comprobante no encontrado: ninguno emitido por la pasarela en tu cuenta coincide con los cinco campos",
            ),
            422: errorBodySchema.describe("El comprobante fue rechazado por la AFIP"),
            503: errorBodySchema.describe("Un servicio de la pasarela no respondió: reintentá"),
          },
        },
      },
      async (request, reply) => {
        const queued = await call(request, wsfe.emailSend, request.body);
        return reply.code(202).send(queued);
      },
    );
    return Promise.resolve();
  },
};
