import { wsfex } from "@pasarela/contracts";
import { authorityQueryErrors } from "./http-shapes.js";
import type { RouteModule } from "./route-module.js";

const tags = ["wsfex"];

const errors = authorityQueryErrors(
  "wsfex",
  `Cuerpo o campo inválido, cbteTipo no soportado (${wsfex.WSFEX_CBTE_TIPOS.join(", ")}), punto de venta no habilitado`,
);

/** `/api/wsfex/*`: WSFEXv1 queries. Queries consume no quota. */
export const wsfexRoutes: RouteModule = {
  name: "wsfex",
  services: ["wsfex", "ticket"],
  plugin: (app, { call }) => {
    app.post(
      "/wsfex/ultimo-comprobante",
      {
        schema: {
          summary: "Último comprobante de exportación autorizado (FEXGetLast_CMP)",
          tags,
          body: wsfex.ultimoComprobanteLast.request,
          response: { 200: wsfex.ultimoComprobanteLast.reply, ...errors },
        },
      },
      (request) => call(request, wsfex.ultimoComprobanteLast, request.body),
    );
    app.post(
      "/wsfex/comprobante",
      {
        schema: {
          summary: "Comprobante de exportación por número (FEXGetCMP)",
          description:
            "Encontrado: {found: true, comprobante: {FEXGetCMPResult}} tal como lo devuelve la AFIP. No encontrado: {found: false, comprobante: null}.",
          tags,
          body: wsfex.comprobanteGet.request,
          response: { 200: wsfex.comprobanteReplySchema, ...errors },
        },
      },
      (request) => call(request, wsfex.comprobanteGet, request.body),
    );
    app.post(
      "/wsfex/permiso",
      {
        schema: {
          summary: "Validar permiso de embarque (FEXCheck_Permiso)",
          description:
            "status A: válido para ese destino; otro valor: el estado que informa la AFIP.",
          tags,
          body: wsfex.permisoVerify.request,
          response: { 200: wsfex.permisoReplySchema, ...errors },
        },
      },
      (request) => call(request, wsfex.permisoVerify, request.body),
    );
    return Promise.resolve();
  },
};
