import { environmentSchema, representadaSchema, wsfe } from "@pasarela/contracts";
import { invalidField, unknownTabla } from "@pasarela/errors";
import { z } from "zod";
import { EdgeError } from "../http/edge-error.js";
import { authorityQueryErrors } from "./http-shapes.js";
import type { RouteModule } from "./route-module.js";

const tags = ["wsfe"];
const tablas: readonly string[] = wsfe.TABLAS;

const errors = authorityQueryErrors(
  "wsfe",
  "Cuerpo o campo inválido, cbteTipo no soportado, punto de venta no habilitado",
);

const parametrosBody = z
  .object({
    environment: environmentSchema,
    representada: representadaSchema,
    moneda: z.string().trim().min(1).max(3).optional(),
  })
  .strict();

/** `/api/wsfe/*`: WSFEv1 queries. Queries consume no quota. */
export const wsfeRoutes: RouteModule = {
  name: "wsfe",
  services: ["wsfe", "ticket"],
  plugin: (app, { call }) => {
    app.post(
      "/wsfe/ultimo-comprobante",
      {
        schema: {
          summary: "Último comprobante autorizado (FECompUltimoAutorizado)",
          description:
            "Sin ptoVta se usa el punto de venta configurado para la representada en ese entorno; la respuesta dice cuál se consultó.",
          tags,
          body: wsfe.ultimoComprobanteLast.request,
          response: { 200: wsfe.ultimoComprobanteReplySchema, ...errors },
        },
      },
      (request) => call(request, wsfe.ultimoComprobanteLast, request.body),
    );
    app.post(
      "/wsfe/comprobante",
      {
        schema: {
          summary: "Comprobante por número (FECompConsultar)",
          description:
            "Encontrado: datos de la AFIP con impTotal a dos decimales, y email si la pasarela registró un envío. No encontrado: {found: false}.",
          tags,
          body: wsfe.comprobanteGet.request,
          response: { 200: wsfe.comprobanteReplySchema, ...errors },
        },
      },
      (request) => call(request, wsfe.comprobanteGet, request.body),
    );
    app.post(
      "/wsfe/parametros/:tabla",
      {
        schema: {
          summary: "Tablas de parámetros (FEParamGet*)",
          description: `Tablas: ${tablas.join(", ")}. Las listas responden {tabla, items: [{id, descripcion, ...}]} con los ids tal como los publica la AFIP; cotizacion responde {tabla, moneda, cotizacion, fecha} (moneda por defecto DOL).`,
          tags,
          // any text reaches the handler, which answers an unknown table with the list
          params: z.object({ tabla: z.string().meta({ enum: [...tablas] }) }),
          body: parametrosBody,
          response: { 200: wsfe.parametrosReplySchema, ...errors },
        },
      },
      (request) => {
        const { tabla } = request.params;
        const parsed = wsfe.tablaSchema.safeParse(tabla);
        if (!parsed.success) throw new EdgeError(unknownTabla(tabla, tablas));
        if (parsed.data !== "cotizacion" && request.body.moneda !== undefined) {
          throw new EdgeError(invalidField("moneda", "solo se acepta con la tabla cotizacion"));
        }
        return call(request, wsfe.parametrosGet, { tabla: parsed.data, ...request.body });
      },
    );
    return Promise.resolve();
  },
};
