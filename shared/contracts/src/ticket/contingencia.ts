import { z } from "zod";
import { defineContract } from "../contract.js";
import { environmentSchema, idSchema, representadaSchema } from "../common/fields.js";
import { ptoVtaSchema } from "../wsfe/fields.js";

/** At most this many CAEA points of sale per representada and environment. */
export const CONTINGENCIA_PTOS_VENTA_MAX = 50;

/**
 * A representada's contingency: off by default; with `caea` on, an issuance the authority
 * cannot take is issued under the fortnight's CAEA on the point of sale of `puntosDeVenta`
 * (points the authority lists with EmisionTipo CAEA) and informed afterwards.
 */
export const contingenciaSchema = z
  .object({
    caea: z.boolean().describe("Contingencia con CAEA encendida"),
    puntosDeVenta: z
      .array(ptoVtaSchema)
      .max(
        CONTINGENCIA_PTOS_VENTA_MAX,
        `admite hasta ${CONTINGENCIA_PTOS_VENTA_MAX} puntos de venta`,
      )
      .refine((list) => new Set(list).size === list.length, "no puede repetir un punto de venta")
      .describe("Puntos de venta CAEA (EmisionTipo CAEA en FEParamGetPtosVenta)"),
  })
  .strict()
  .refine((c) => !c.caea || c.puntosDeVenta.length > 0, {
    path: ["puntosDeVenta"],
    message: "con caea: true, indicá al menos un punto de venta CAEA",
  });
export type Contingencia = z.output<typeof contingenciaSchema>;

/** What a representada without contingency has. */
export const SIN_CONTINGENCIA: Contingencia = { caea: false, puntosDeVenta: [] };

/**
 * `ticket.contingencia.list`: every representada with CAEA contingency on, of every account:
 * what wsfe obtains each fortnight's CAEA for.
 */
export const contingenciaList = defineContract({
  subject: "ticket.contingencia.list",
  request: z.object({}).strict(),
  reply: z
    .object({
      representadas: z.array(
        z
          .object({
            accountId: idSchema,
            cuit: representadaSchema,
            environment: environmentSchema,
            puntosDeVenta: z.array(z.number().int()),
          })
          .strict(),
      ),
    })
    .strict(),
  errors: [],
  timeoutMs: 10_000,
});
