import { environmentSchema, representadaSchema, wsfe } from "@pasarela/contracts";
import { z } from "zod";
import { amountResponse, invalidResponse, pageQuery } from "./http-shapes.js";
import type { RouteModule } from "./route-module.js";

const fechaSchema = z.string().regex(/^\d{8}$/, 'debe ser una fecha AAAAMMDD (p. ej. "20261122")');

const listQuery = z
  .object({
    ...pageQuery,
    environment: environmentSchema.describe("Entorno (obligatorio)"),
    representada: representadaSchema.optional().describe("Solo los de esta CUIT representada"),
    ptoVta: z.coerce
      .number()
      .pipe(wsfe.ptoVtaSchema)
      .optional()
      .describe("Solo los de este punto de venta"),
    cbteTipo: z.coerce
      .number()
      .pipe(wsfe.issuedCbteTipoSchema)
      .optional()
      .describe("Solo los de este tipo de comprobante"),
    desde: fechaSchema.optional().describe("cbteFch desde (AAAAMMDD, inclusive)"),
    hasta: fechaSchema.optional().describe("cbteFch hasta (AAAAMMDD, inclusive)"),
    state: wsfe.comprobanteEstadoSchema
      .optional()
      .describe(
        "authorized (con CAE, o CAEA ya informado), rejected (rechazado por la AFIP), pending (en curso), caea_pendiente (emitido con CAEA, falta informarlo) o caea_rechazado (la AFIP lo rechazó al informarlo)",
      ),
  })
  .strict();

/** A page as the API answers it: `impTotal` a JSON number, as in every answer with amounts. */
const listReply = wsfe.comprobanteList.reply.extend({
  items: z.array(
    wsfe.comprobanteListItemSchema.extend({
      impTotal: amountResponse("Importe total, a dos decimales"),
    }),
  ),
});

/**
 * `GET /api/wsfe/comprobantes` (the dashboard's Comprobantes page): the vouchers the
 * account issued through the gateway. A read: read_only keys may list.
 */
export const comprobantesRoutes: RouteModule = {
  name: "comprobantes",
  services: ["wsfe"],
  plugin: (app, { call }) => {
    app.get(
      "/wsfe/comprobantes",
      {
        schema: {
          summary: "Listar los comprobantes emitidos por la pasarela",
          description:
            "Los más nuevos primero, paginado con cursor: pedí la página siguiente con `cursor` = `nextCursor` hasta que sea null. Cada uno trae los cinco campos que lo identifican (environment, representada, ptoVta, cbteTipo, cbteNro), que usan /api/wsfe/comprobantes/pdf, /api/wsfe/comprobantes/email y /api/links-de-cobro, el estado de su e-mail y tipoAutorizacion: CAE, o CAEA para uno emitido en contingencia, cuyo state dice cómo va su información a la AFIP (caea_pendiente, authorized con caeaInformadoAt, caea_rechazado con rechazo).",
          tags: ["wsfe"],
          querystring: listQuery,
          response: {
            200: listReply.describe("Una página"),
            400: invalidResponse,
          },
        },
      },
      (request) => call(request, wsfe.comprobanteList, request.query),
    );
    return Promise.resolve();
  },
};
