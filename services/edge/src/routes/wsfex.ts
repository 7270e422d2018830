import { wsfex } from "@pasarela/contracts";
import { invalidField, unknownTabla } from "@pasarela/errors";
import { z } from "zod";
import { EdgeError } from "../http/edge-error.js";
import { amountResponse, authorityQueryErrors } from "./http-shapes.js";
import type { RouteModule } from "./route-module.js";

const tags = ["wsfex"];
const tablas: readonly string[] = wsfex.TABLAS;

const errors = authorityQueryErrors(
  "wsfex",
  `Cuerpo o campo inválido, cbteTipo no soportado (${wsfex.WSFEX_CBTE_TIPOS.join(", ")}), punto de venta no habilitado`,
);

const parametrosErrors = authorityQueryErrors(
  "wsfex",
  "Tabla desconocida (UNKNOWN_TABLA, con las tablas válidas), cuerpo o campo inválido, monedaId o fecha en una tabla que no los toma, moneda o fecha que la AFIP rechaza",
);

const representada = { environment: "homologacion", representada: "20111111112" } as const;

/** The body of every table; examples for a list, the rate of a day, one currency's rate. */
const parametrosBody = wsfex.parametrosOptionsSchema.strict().meta({
  "x-examples": {
    lista: {
      summary: "Una tabla de lista (tipos-comprobante, incoterms, paises, monedas, ...)",
      value: representada,
    },
    monedasConCotizacion: {
      summary: "monedas-con-cotizacion en un día dado (sin fecha: hoy en la Argentina)",
      value: { ...representada, fecha: "20260115" },
    },
    cotizacion: {
      summary: "cotizacion de una moneda (monedaId obligatorio; sin fecha: hoy)",
      value: { ...representada, monedaId: "DOL" },
    },
  },
});

/** The answer as the API gives it: rates as JSON numbers, as every amount is answered. */
const parametrosReply = z.union([
  z
    .object({
      tabla: wsfex.tablaSchema.exclude(["cotizacion"]),
      items: z.array(
        wsfex.parametroItemSchema.extend({
          cotizacion: amountResponse("Cotización (monedas-con-cotizacion)").optional(),
        }),
      ),
    })
    .strict(),
  z
    .object({
      tabla: z.literal("cotizacion"),
      moneda: z.string(),
      cotizacion: amountResponse("Cotización de la moneda en pesos"),
      fecha: z.string().describe("Día de la cotización, AAAAMMDD"),
    })
    .strict(),
]);

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
            "Encontrado: {found: true, comprobante: {FEXGetCMPResult}} tal como lo devuelve la AFIP, y email {to, status, error} si la pasarela registró un envío " +
            "(status pending, sent o failed; error: el motivo del fallo o null). No encontrado: {found: false, comprobante: null}.",
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
    app.post(
      "/wsfex/parametros/:tabla",
      {
        schema: {
          summary: "Tablas de parámetros de exportación (FEXGetPARAM_*)",
          description:
            `Tablas: ${tablas.join(", ")}. Las listas responden {tabla, items: [{id, descripcion, ...}]} con el id del tipo con que lo pide el comprobante de exportación ` +
            '(p. ej. {"tabla": "incoterms", "items": [{"id": "FOB", "descripcion": "FOB", "vigenciaDesde": "20100101", "vigenciaHasta": null}]}); ' +
            "cuit-paises responde la CUIT genérica de cada país como texto, puntos-de-venta solo los habilitados hoy ({id, bloqueado, fechaBaja}), actividades agrega orden. " +
            "monedas-con-cotizacion (fecha AAAAMMDD opcional, hoy por defecto) agrega a cada moneda {cotizacion, fecha}. " +
            'cotizacion (monedaId obligatorio, fecha opcional) responde {tabla, moneda, cotizacion, fecha}, p. ej. {"tabla": "cotizacion", "moneda": "DOL", "cotizacion": 101.202, "fecha": "20260115"}. ' +
            "Las fechas van como AAAAMMDD; un fin de vigencia abierto es null.",
          tags,
          // any text reaches the handler, which answers an unknown table with the list
          params: z.object({ tabla: z.string().meta({ enum: [...tablas] }) }),
          body: parametrosBody,
          response: { 200: parametrosReply, ...parametrosErrors },
        },
      },
      (request) => {
        const { tabla } = request.params;
        const parsed = wsfex.tablaSchema.safeParse(tabla);
        if (!parsed.success) throw new EdgeError(unknownTabla(tabla, tablas));
        const wrong = wsfex.parametrosProblem(parsed.data, request.body);
        if (wrong) throw new EdgeError(invalidField(wrong.field, wrong.problem));
        return call(request, wsfex.parametrosGet, { tabla: parsed.data, ...request.body });
      },
    );
    return Promise.resolve();
  },
};
