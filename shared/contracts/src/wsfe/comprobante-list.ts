import { z } from "zod";
import { defineContract } from "../contract.js";
import { environmentSchema, isoDateTimeSchema, representadaSchema } from "../common/fields.js";
import { cursorSchema, limitSchema, pageOf } from "../catalog/fields.js";
import { emailStatusSchema } from "./email-send.js";
import { ptoVtaSchema } from "./fields.js";
import { issuedCbteTipoSchema } from "./issued-cbte-tipo.js";

const fechaSchema = z.string().regex(/^\d{8}$/, 'debe ser una fecha AAAAMMDD (p. ej. "20261122")');

/**
 * Where a voucher stands: `authorized` (with its CAE), `rejected` by the authority, `pending`
 * while its outcome is not known yet (sent, or being reconciled). A voucher issued in
 * contingency under a CAEA is `caea_pendiente` until it is informed to the authority,
 * `authorized` once the authority accepted it, and `caea_rechazado` when the authority refused
 * it at informing (the customer holds it: it keeps its number and needs the account to act).
 */
export const comprobanteEstadoSchema = z.enum([
  "authorized",
  "rejected",
  "pending",
  "caea_pendiente",
  "caea_rechazado",
]);

/** The authority's reasons for a refusal: its errors, then its observations. */
export const rechazoSchema = z.array(
  z.object({ code: z.number().int(), msg: z.string() }).strict(),
);

/**
 * What every stored voucher adds about its authorization: `tipoAutorizacion` always; a CAEA
 * one also its CAEA and FchVigHasta under their own names (`cae` and `caeVencimiento` hold them
 * too, as in the issuance's answer) and, once accepted, when it was informed.
 */
export const autorizacionShape = {
  tipoAutorizacion: z
    .enum(["CAE", "CAEA"])
    .describe(
      "CAE: autorizado con CAE propio; CAEA: emitido en contingencia con el CAEA de la quincena",
    ),
  caea: z.string().optional().describe("Solo CAEA: el CAEA de la quincena (el mismo que cae)"),
  caeaVencimiento: z
    .string()
    .optional()
    .describe("Solo CAEA: fin de vigencia del CAEA (FchVigHasta), AAAAMMDD"),
  caeaInformadoAt: isoDateTimeSchema
    .optional()
    .describe("Solo CAEA ya informado y aceptado por la AFIP: cuándo se informó"),
};

/**
 * One voucher issued through the gateway, as the dashboard lists it: the five fields that name
 * it (the PDF, e-mail and payment-link endpoints take them), receiver, total, CAE and the
 * e-mail's delivery.
 */
export const comprobanteListItemSchema = z
  .object({
    id: z.uuid(),
    state: comprobanteEstadoSchema,
    environment: environmentSchema,
    representada: representadaSchema,
    ptoVta: z.number().int(),
    cbteTipo: z.number().int(),
    cbteNro: z.number().int(),
    cbteFch: z.string(),
    receptor: z
      .object({
        docTipo: z.number().int(),
        docNro: z.string(),
        razonSocial: z.string().nullable(),
      })
      .strict(),
    impTotal: z.string().describe("Importe total, texto decimal exacto"),
    moneda: z.string(),
    cae: z.string().nullable(),
    caeVencimiento: z.string().nullable(),
    ...autorizacionShape,
    email: z
      .object({ to: z.string(), status: emailStatusSchema, error: z.string().nullable() })
      .strict()
      .nullable(),
    createdAt: isoDateTimeSchema,
    rechazo: rechazoSchema
      .optional()
      .describe(
        "Solo en un intento rechazado (el número puede quedar para un comprobante autorizado después) o en un comprobante CAEA rechazado al informarlo (caea_rechazado): los motivos de la AFIP, errores y observaciones",
      ),
  })
  .strict();
export type ComprobanteListItem = z.output<typeof comprobanteListItemSchema>;

export const comprobanteListFilters = {
  environment: environmentSchema,
  representada: representadaSchema.optional(),
  ptoVta: ptoVtaSchema.optional(),
  cbteTipo: issuedCbteTipoSchema.optional(),
  /** cbteFch from this date on, AAAAMMDD */
  desde: fechaSchema.optional(),
  /** cbteFch up to this date, AAAAMMDD */
  hasta: fechaSchema.optional(),
  state: comprobanteEstadoSchema.optional(),
};

/**
 * `wsfe.comprobante.list`: the vouchers the account (bus header) issued through the gateway in
 * one environment, newest first, in pages (keyset: the `nextCursor` of the previous page).
 * Attempts that never reached a number (not issued) are not vouchers and are not listed.
 */
export const comprobanteList = defineContract({
  subject: "wsfe.comprobante.list",
  request: z
    .object({ ...comprobanteListFilters, limit: limitSchema, cursor: cursorSchema.optional() })
    .strict(),
  reply: pageOf(comprobanteListItemSchema),
  errors: [],
  timeoutMs: 5_000,
  needsAccount: true,
});
